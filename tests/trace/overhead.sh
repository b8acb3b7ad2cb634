#!/usr/bin/env bash
# overhead.sh VARBENCH PROG [SECONDS] [REPEATS]
# overhead.sh VARBENCH --cmd [REPEATS] -- COMMAND...
# The wall time of a CUDA program untraced and under `varbench trace` (varbench's own start,
# CUPTI's start in the program, and storing the trace at its exit included), REPEATS runs of
# each (default 5), interleaved; the medians are compared. The first form runs trace_prog_c
# (compute-bound: a few hundred launches of a few ms), its launch count calibrated so that an
# untraced run takes about SECONDS (default 2); the second runs COMMAND as it is (a Numba
# script). Prints every run, the stored tracing cost of the last traced run ('varbench summary'),
# and one verdict line; exit 0 when traced <= 1.05 x untraced, 1 otherwise, 2 when the program
# cannot run (no GPU).
set -u
vb=$1
limit=1.05
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "${2:-}" = --cmd ]; then
  repeats=${3:-5}
  [ "${4:-}" = -- ] || { echo "usage: overhead.sh VARBENCH --cmd [REPEATS] -- COMMAND..." >&2; exit 2; }
  shift 4
  cmd=("$@")
  what="$*"
else
  prog=$2
  target=${3:-2}
  repeats=${4:-5}
  n=4000000
  reps=20000
fi

# wall [traced] ARGS...: seconds of one run of the command (exits 2 when the program fails)
wall() {
  local t0 t1 pre=()
  if [ "$1" = traced ]; then pre=("$vb" trace -q --db "$tmp/overhead.db" --); fi
  shift
  t0=$(date +%s.%N)
  "${pre[@]}" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 2; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }'
}

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

if [ -z "${cmd+x}" ]; then
  wall plain "$prog" "$n" 5 "$reps" >/dev/null # warm the GPU and the file cache
  a=$(wall plain "$prog" "$n" 20 "$reps")
  b=$(wall plain "$prog" "$n" 60 "$reps")
  iters=$(awk -v a="$a" -v b="$b" -v t="$target" 'BEGIN { s = (b - a) / 40; i = s > 0 ? 20 + (t - a) / s : 100000;
    if (i < 20) i = 20; if (i > 100000) i = 100000; printf "%d\n", i }')
  echo "calibration: 20 launches ${a}s, 60 launches ${b}s -> $iters launches of $reps FMAs on $n floats"
  cmd=("$prog" "$n" "$iters" "$reps")
  what="${cmd[*]}"
else
  wall plain "${cmd[@]}" >/dev/null # warm the file cache
fi
: >"$tmp/u"
: >"$tmp/t"
for ((k = 1; k <= repeats; k++)); do
  u=$(wall plain "${cmd[@]}") || exit 2
  t=$(wall traced "${cmd[@]}") || exit 2
  printf 'run %d: untraced %.3f s, traced %.3f s\n' "$k" "$u" "$t"
  echo "$u" >>"$tmp/u"
  echo "$t" >>"$tmp/t"
  awk -v t="$t" -v u="$u" 'BEGIN { printf "%.4f\n", t / u }' >>"$tmp/r"
done
mu=$(median <"$tmp/u")
mt=$(median <"$tmp/t")
# the runs are interleaved, so each pair saw the same machine: the median of the pairs' ratios
# is robust to a host whose speed drifts between pairs
echo "median of the $repeats paired ratios (traced / untraced): $(median <"$tmp/r")"
ratio=$(awk -v t="$mt" -v u="$mu" 'BEGIN { printf "%.4f\n", t / u }')
verdict=$(awk -v r="$ratio" -v l="$limit" 'BEGIN { print (r <= l) ? 1 : 0 }')
"$vb" summary --db "$tmp/overhead.db" | grep -E "tracing cost|traced process|ok, " | tail -n 3
printf 'overhead of %s: median of %d untraced %.3f s, traced %.3f s, ratio %.3f (limit %s): %s\n' \
  "$what" "$repeats" "$mu" "$mt" "$ratio" "$limit" "$([ "$verdict" = 1 ] && echo PASS || echo FAIL)"
[ "$verdict" = 1 ]
