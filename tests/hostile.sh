#!/usr/bin/env bash
# hostile.sh VARBENCH CASE VBTEST: the readers against a database holding what varbench never
# writes (a merged, shared or hand-edited file): stored medians and samples that are no time,
# names with ESC sequences and newlines. Exit 0 pass, 1 fail, 77 skip (no sqlite3 shell or
# python3). `hostile.sh --list` prints the cases.
set -u
cases="history-not-time summary-csv-newline escapes compare-not-duration trace-help-env"
# shellcheck disable=SC2086 # one case a word
if [ "${1:-}" = --list ]; then printf '%s\n' $cases; exit 0; fi
if [ $# -ne 3 ]; then echo "usage: hostile.sh VARBENCH CASE VBTEST | hostile.sh --list" >&2; exit 2; fi
vb=$1
case_name=$2
vbtest=$3
fixtures=$(cd "$(dirname "$0")/fixtures" && pwd)
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3 shell" >&2; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

fail() { echo "FAIL ($case_name): $*" >&2; echo "--- stdout"; cat out 2>/dev/null; echo "--- stderr"; cat err 2>/dev/null; exit 1; }
# expect CODE CMD...: run CMD (stdout to out, stderr to err), require exit CODE
expect() { local want=$1; shift; "$@" >out 2>err; local rc=$?
  [ "$rc" -eq "$want" ] || fail "exit $rc, want $want: $*"; }
# raw_controls FILE: does FILE hold a control byte other than a newline (ESC, BEL, CR, tab)?
raw_controls() { LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$1"; }
load() { gzip -dc "$fixtures/$2" | sqlite3 "$1" || fail "cannot load $2"; }
# five_runs NAME.db: mesh-h100-a (a real run of 9 cases) and 4 copies of its run, a day apart
five_runs() {
  load "$1" mesh-h100-a.sql.gz
  for k in 1 2 3 4; do
    sqlite3 "$1" "CREATE TEMP TABLE r AS SELECT * FROM runs WHERE id = 1;
      UPDATE r SET id = 1 + $k, uuid = uuid || '-$k', start_utc = replace(start_utc, '-22T', '-2${k}T');
      INSERT INTO runs SELECT * FROM r;
      CREATE TEMP TABLE g AS SELECT * FROM TARGET_INFO_GPU WHERE run_id = 1;
      UPDATE g SET run_id = 1 + $k; INSERT INTO TARGET_INFO_GPU SELECT * FROM g;
      CREATE TEMP TABLE c AS SELECT * FROM cases WHERE run_id = 1;
      UPDATE c SET id = id + 100 * $k, run_id = 1 + $k; INSERT INTO cases SELECT * FROM c;" ||
      fail "cannot copy the run"
  done
}
hostile_name="'device-mesh' || char(27) || ']0;pwned' || char(7) || char(27) || '[31m'"

case $case_name in
history-not-time)
  # one median that is +Inf, text or a blob: missing, with one warning; never "out of memory"
  five_runs x.db
  for v in "9e999:+Inf" "'fast':text" "x'00ff':a blob" "-5:-5"; do
    cp x.db h.db
    sqlite3 h.db "UPDATE cases SET gpu_median_ns = ${v%%:*} WHERE id = 302" || fail "update"
    expect 0 "$vb" history --db h.db
    grep -qxF "history: 9 series over 5 runs, 0 change points (PELT on log medians, penalty 10*sigma^2*log n, min change 5%)" out ||
      fail "${v#*:}: not the 9 series"
    grep -qxF "varbench history: warning: case 'mesh/device-mesh-pinned' nx=1000,ny=1000 of run 4: its gpu_median_ns is ${v#*:}, not a time: left out as missing" err ||
      fail "${v#*:}: no warning naming the case and column"
    [ "$(wc -l <err)" -eq 1 ] || fail "${v#*:}: more than one warning"
    # the run without its point: 4 runs of that case
    expect 0 "$vb" history --db h.db --all --filter mesh/device-mesh-pinned
    grep -q "^mesh/device-mesh-pinned nx=1000,ny=1000 on NVIDIA H100 80GB HBM3: gpu median, 4 runs$" out ||
      fail "${v#*:}: the series does not leave the run out"
  done
  # several, in two columns: one warning per column read, with the count of the others
  cp x.db h.db
  sqlite3 h.db "UPDATE cases SET gpu_median_ns = 9e999 WHERE id IN (302, 403);
    UPDATE cases SET e2e_median_ns = 'slow' WHERE id = 205" || fail "update"
  expect 0 "$vb" history --db h.db
  grep -q "gpu_median_ns is +Inf, not a time: left out as missing (and 1 more such median)$" err ||
    fail "no count of the others"
  grep -q "e2e_median_ns is text" err || fail "no e2e warning"
  [ "$(wc -l <err)" -eq 2 ] || fail "not one warning per column" ;;
summary-csv-newline)
  # a kernel name, an NVTX range and the command line with a newline (sh -c $'true\ntrue'):
  # every line of --csv is a "==" line or a row of its table; no raw control byte
  "$vbtest" make_trace_fixture "$tmp" >/dev/null || fail "fixture"
  sqlite3 trace.db "UPDATE StringIds SET value = 'vb_sax' || char(10) || 'py' || char(27) || '[31m' WHERE value = 'vb_saxpy';
    UPDATE StringIds SET value = 'comp' || char(10) || 'ute' WHERE value = 'compute';
    UPDATE runs SET command_line = 'varbench trace -- sh -c ''true' || char(10) || 'true''' WHERE kind = 'trace'" ||
    fail "update"
  expect 0 "$vb" summary --db trace.db --csv --print-gpu-trace --print-api-trace --print-summary
  raw_controls out && fail "a raw control byte in --csv"
  grep -qxF "==varbench== command: varbench trace -- sh -c 'true\\ntrue'" out || fail "command line"
  grep -qF '"vb_sax\npy\x1b[31m"' out || fail "kernel name not shown escaped"
  grep -qF '"comp\nute"' out || fail "range not shown escaped"
  python3 - out <<'PY' || fail "a line that is neither '==' nor a row of its table"
import csv, sys
width = None
for line in open(sys.argv[1]).read().split("\n")[:-1]:
    if line.startswith("=="):
        width = None
        continue
    row = next(csv.reader([line]))
    width = width or len(row)
    assert len(row) == width, line
PY
  # the text modes: every name escaped, the columns aligned to what is shown
  expect 0 "$vb" summary --db trace.db --print-gpu-trace --print-api-trace --print-summary
  raw_controls out && fail "a raw control byte in the text"
  grep -q '  vb_sax\\npy\\x1b\[31m$' out || fail "kernel name in the text" ;;
escapes)
  # ESC ]0; (window title) and ESC [31m (colour) in a variant name, both sides: shown as \x1b
  load a.db mesh-h100-a.sql.gz
  load b.db mesh-h100-b.sql.gz
  for d in a b; do sqlite3 $d.db "UPDATE variants SET name = $hostile_name WHERE name = 'device-mesh'"; done
  expect 0 "$vb" compare a.db b.db
  raw_controls out && fail "compare: a raw control byte"
  grep -qF 'mesh/device-mesh\x1b]0;pwned\x07\x1b[31m nx=1000,ny=1000' out || fail "compare: not shown"
  grep -q '^mesh/device-mesh-pinned        nx=1000,ny=1000              GPU ' out ||
    fail "compare: an ordinary row changed"
  expect 0 "$vb" compare --format md --junit j.xml a.db b.db
  raw_controls out && fail "compare --format md: a raw control byte"
  raw_controls j.xml && fail "JUnit: a raw control byte"
  expect 0 "$vb" summary --db a.db --run 1
  raw_controls out && fail "summary: a raw control byte"
  grep -qF '  mesh/device-mesh\x1b]0;pwned\x07\x1b[31m nx=1000,ny=1000: ok,' out || fail "summary: not shown"
  expect 0 "$vb" summary --db a.db --run 1 --csv
  raw_controls out && fail "summary --csv: a raw control byte"
  five_runs h.db
  sqlite3 h.db "UPDATE variants SET name = $hostile_name WHERE name = 'device-mesh';
    UPDATE runs SET git_commit = 'ab' || char(27) || '[2J' WHERE id = 3"
  expect 0 "$vb" history --db h.db --all
  raw_controls out && fail "history: a raw control byte"
  grep -qF 'mesh/device-mesh\x1b]0;pwned\x07\x1b[31m nx=1000,ny=1000 on NVIDIA H100' out ||
    fail "history: not shown"
  grep -qF 'ab\x1b[2J' out || fail "history: commit not shown" ;;
compare-not-duration)
  # negative and infinite samples: missing, one warning; no "nan" anywhere
  load a.db mesh-h100-a.sql.gz
  load b.db mesh-h100-b.sql.gz
  sqlite3 b.db "UPDATE samples SET d2h_ns = -d2h_ns WHERE case_id = 1;
    UPDATE samples SET gpu_ns = 9e999 WHERE case_id = 2;
    UPDATE samples SET e2e_ns = 9e999 WHERE case_id = 4;
    UPDATE samples SET kernel_ns = 'fast' WHERE case_id = 3 AND idx = 12" || fail "update"
  expect 7 "$vb" compare a.db b.db
  grep -qi "nan" out err && fail "nan printed"
  grep -q "(limit -)" out || fail "a phase without samples has no limit shown"
  grep -qxF "varbench compare: warning: case 'mesh/device-mesh' nx=1000,ny=1000: 1177 stored samples of d2h_ns are not a duration (negative or infinite): left out as missing; 2 more cases have such samples" err ||
    fail "no warning naming the case and column"
  [ "$(wc -l <err)" -eq 1 ] || fail "more than one warning"
  grep -q "^mesh/device-mesh               nx=1000,ny=1000              GPU .* same$" out ||
    fail "the negative D2H samples judged" ;;
trace-help-env)
  # the help names the variable find_inject reads, and the code reads the one it names
  expect 0 "$vb" trace --help
  grep -q "Environment: VARBENCH_VB_INJECT_LIB overrides" out || fail "help names another variable"
  expect 6 env VARBENCH_VB_INJECT_LIB=/nonexistent/lib.so "$vb" trace -o t.db -- true
  grep -q "VARBENCH_VB_INJECT_LIB='/nonexistent/lib.so'" err || fail "the variable is not read" ;;
*)
  echo "hostile.sh: unknown case '$case_name'" >&2; exit 2 ;;
esac
exit 0
