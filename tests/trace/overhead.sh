#!/usr/bin/env bash
# overhead.sh VARBENCH PROG [SECONDS] [REPEATS]: the wall time of a CUDA program of at least 1 s
# (trace_prog_c, compute-bound: a few hundred launches of a few ms), untraced and under
# `varbench trace` (which includes varbench's start, CUPTI's start in the program and storing
# the trace at its exit), REPEATS runs of each, interleaved; the medians are compared.
# Calibrates the launch count so that an untraced run takes about SECONDS (default 2).
# Prints the times and one verdict line; exit 0 when traced <= 1.10 x untraced, 1 otherwise,
# 2 when the program cannot run (no GPU).
set -u
vb=$1
prog=$2
target=${3:-2}
repeats=${4:-5}
n=4000000
reps=20000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# wall ITERS [traced]: seconds of one run (exits 2 when the program fails)
wall() {
  local t0 t1
  t0=$(date +%s.%N)
  if [ "${2:-}" = traced ]; then
    "$vb" trace -q --db "$tmp/overhead.db" -- "$prog" "$n" "$1" "$reps" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 2; }
  else
    "$prog" "$n" "$1" "$reps" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 2; }
  fi
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }'
}

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

wall 5 >/dev/null # warm the GPU and the file cache
a=$(wall 20)
b=$(wall 60)
iters=$(awk -v a="$a" -v b="$b" -v t="$target" 'BEGIN { s = (b - a) / 40; i = s > 0 ? 20 + (t - a) / s : 100000;
  if (i < 20) i = 20; if (i > 100000) i = 100000; printf "%d\n", i }')
echo "calibration: 20 launches ${a}s, 60 launches ${b}s -> $iters launches of $reps FMAs on $n floats"
: >"$tmp/u"
: >"$tmp/t"
for ((k = 1; k <= repeats; k++)); do
  u=$(wall "$iters")
  t=$(wall "$iters" traced)
  printf 'run %d: untraced %.3f s, traced %.3f s\n' "$k" "$u" "$t"
  echo "$u" >>"$tmp/u"
  echo "$t" >>"$tmp/t"
done
mu=$(median <"$tmp/u")
mt=$(median <"$tmp/t")
ratio=$(awk -v t="$mt" -v u="$mu" 'BEGIN { printf "%.4f\n", t / u }')
verdict=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.10) ? 1 : 0 }')
printf 'overhead: median untraced %.3f s, traced %.3f s, ratio %.3f (limit 1.10): %s\n' "$mu" "$mt" \
  "$ratio" "$([ "$verdict" = 1 ] && echo PASS || echo FAIL)"
"$vb" summary --db "$tmp/overhead.db" | sed -n '1,12p'
[ "$verdict" = 1 ]
