#!/usr/bin/env bash
# cli.sh VARBENCH CASE [VBTEST]: one check of varbench's command line against bad input. Each
# case asserts the exit code, the message, and that no database was touched. Exit 0 pass, 1
# fail, 77 skip. `cli.sh --list` prints the cases for tests/CMakeLists.txt, which makes one
# ctest of each.
set -u

# The cases, one a line: the case; its label (cpu: runs anywhere; gpu: needs a GPU, skips with
# 77 without one, holds ctest's "gpu" lock); what it needs beyond varbench and vbtest (trace:
# the trace programs and the injection library, in VB_* variables; -: nothing); and its ctest
# name where that is not <label>.cli.<the case without "gpu-">. A new case is its body below
# and its line here: --list refuses a table that does not name exactly the case labels below.
cases='
help                 cpu  -
unknown-command      cpu  -
unknown-flag         cpu  -
missing-value        cpu  -
bad-axis-value       cpu  -
unknown-axis         cpu  -
axis-out-of-range    cpu  -
no-match             cpu  -
corrupt-db           cpu  -
foreign-db           cpu  -
unopenable-db        cpu  -
folder-db            cpu  -
no-gpu-run           cpu  -
list                 cpu  -
compare-codes        cpu  -
compare-real         cpu  -
traffic-check        cpu  -
compare-pooled       cpu  -
history              cpu  -
history-errors       cpu  -
migrate-v2           cpu  -
db-paths             cpu  -
concurrent-writers   cpu  -
writers-stress       cpu  -
schema-fixtures      cpu  -
read-only-db         cpu  -
migrate-refusals     cpu  -
readme-drift         cpu  -
crash-in-write       cpu  -
merge-partial        cpu  -
merge-export         cpu  -
exit-codes           cpu  -
report               cpu  -
report-cpu-only      cpu  -
report-crossover     cpu  -
compare-boards       cpu  -
diagnose             cpu  -
fleet-usage          cpu  -
fleet-fake-slurm     cpu  -
gpu-mesh-run         gpu  -
gpu-graph-metrics    gpu  -
worker-usage         cpu  -
gpu-device-all       gpu  -
gpu-under-ncu        gpu  -
gpu-racecheck        gpu  -      gpu.cli.calx-racecheck
trace-usage          cpu  trace
trace-no-cuda        cpu  trace
trace-not-found      cpu  trace
trace-exit-paths     cpu  trace
trace-foreign        cpu  trace
trace-nvtx           cpu  trace
trace-samples        cpu  trace
summary              cpu  trace
summary-errors       cpu  trace
summary-gputrace     cpu  trace
summary-csv          cpu  trace
summary-logfile      cpu  trace
inject-symbols       cpu  trace
report-trace         cpu  trace
export-trace         cpu  trace
gpu-trace-c          gpu  trace
gpu-trace-code       gpu  trace
gpu-trace-print      gpu  trace
gpu-trace-capture    gpu  trace
gpu-trace-neighbours gpu  trace
gpu-fw-torch         gpu  trace
gpu-fw-jax           gpu  trace
gpu-fw-cupy          gpu  trace
gpu-fw-numba         gpu  trace
gpu-fw-triton        gpu  trace
gpu-fw-samples       gpu  trace
gpu-fw-ddp           gpu  trace
gpu-fw-peer          gpu  trace
'

# list_cases prints "TEST CASE LABEL NEEDS" for each line of the table; it prints nothing and
# returns 1 when the table is malformed or does not name exactly the labels of `case` below.
list_cases() {
  local labels listed bad=0 c
  labels=$(sed -n '/^case \$case_name in$/,/^esac$/p' "$0" |
    grep -E '^[^[:space:]#*(][^[:space:](]*\)' | sed 's/).*//' | tr '|' '\n' | sort)
  listed=$(awk 'NF { print $1 }' <<<"$cases" | sort)
  [ -n "$labels" ] || { echo "cli.sh: no case labels found in '$0'" >&2; return 1; }
  for c in $(comm -23 <(echo "$labels") <(uniq <<<"$listed")); do
    echo "cli.sh: case '$c' is not in the table of cases" >&2; bad=1
  done
  for c in $(comm -13 <(echo "$labels") <(uniq <<<"$listed")); do
    echo "cli.sh: '$c' of the table of cases is not a case" >&2; bad=1
  done
  for c in $(uniq -d <<<"$listed"); do echo "cli.sh: case '$c' is listed twice" >&2; bad=1; done
  awk 'NF && (NF < 3 || NF > 4 || $2 !~ /^(cpu|gpu)$/) {
         printf "cli.sh: bad table line \"%s\" (want: case cpu|gpu needs [test])\n", $0
         bad = 1 }
       END { exit bad }' <<<"$cases" >&2 || bad=1
  [ "$bad" -eq 0 ] || return 1
  awk 'NF { t = $1; sub(/^gpu-/, "", t)
           print (NF > 3 ? $4 : $2 ".cli." t), $1, $2, $3 }' <<<"$cases"
}

if [ "${1:-}" = --list ] && [ $# -eq 1 ]; then list_cases; exit; fi
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: cli.sh VARBENCH CASE [VBTEST] | cli.sh --list" >&2
  exit 2
fi
vb=$1
case_name=$2
vbtest=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

fail() { echo "FAIL ($case_name): $*" >&2; echo "--- stdout"; cat out 2>/dev/null; echo "--- stderr"; cat err 2>/dev/null; exit 1; }
# expect CODE TEXT CMD...: run CMD, require exit CODE and TEXT in stdout+stderr
expect() {
  local code=$1 text=$2; shift 2
  "$@" >out 2>err; local rc=$?
  [ "$rc" -eq "$code" ] || fail "'$*' exited $rc, expected $code"
  grep -qF -- "$text" out err || fail "'$*' did not say '$text'"
}
no_db() { [ ! -e varbench.db ] || fail "a database was created"; }
# unchanged FILE: the file equals its copy FILE.orig and left no journal behind
unchanged() { cmp -s "$1" "$1.orig" || fail "$1 was modified"; [ ! -e "$1-journal" ] || fail "journal left"; }

fixtures=$(dirname "$(readlink -f "$0")")/fixtures
# the schema this varbench writes (store.h), which migrated files must reach
schema=$(sed -n 's/^#define VB_SCHEMA_VERSION \([0-9]*\).*/\1/p' "$fixtures/../../suite/store/store.h")
# load NAME.db FIXTURE: a database from a committed SQL dump (needs the sqlite3 shell)
load() { command -v sqlite3 >/dev/null || { echo "skip: no sqlite3 shell" >&2; exit 77; }
  rm -f "$1"; gzip -dc "$fixtures/$2" | sqlite3 "$1" || fail "cannot load $2"; }

case $case_name in
compare-real)
  # two real default-sampling runs of mesh/device-mesh* at nx = 1000, 4000, 4100 on an H100
  # (run b an identical rerun of a); the regressions are injected by editing b
  load a.db mesh-h100-a.sql.gz; load b.db mesh-h100-b.sql.gz
  # (c) an identical rerun: the same, exit 0
  expect 0 "no regression (exit 0)" "$vb" compare a.db b.db
  grep -qE "^9 same" out || fail "the rerun is not 9 same"
  # (a) kernel only: the 4100 cases relabelled 4000 (a kernel 5-6% slower, 5% more bytes)
  cp b.db k.db
  sqlite3 k.db "DELETE FROM case_axes WHERE case_id IN (SELECT case_id FROM case_axes WHERE value = 4000);
    DELETE FROM samples WHERE case_id IN (SELECT id FROM cases WHERE axes = 'nx=4000,ny=4000');
    DELETE FROM cases WHERE axes = 'nx=4000,ny=4000';
    UPDATE case_axes SET value = 4000 WHERE value = 4100;
    UPDATE cases SET axes = 'nx=4000,ny=4000' WHERE axes = 'nx=4100,ny=4100';" || fail "sqlite3"
  expect 1 "REGRESSION (exit 1)" "$vb" compare a.db k.db
  grep -qE "^mesh/device-mesh-pinned +nx=4000,ny=4000 .*slower \((kernel|e2e) \+[5-6]%(;[^)]*)?\)" out ||
    fail "device-mesh-pinned at 4000 is not slower"
  grep -qE "^  mesh/device-mesh-pinned nx=4000,ny=4000: .*kernel slower \+[5-6]" out ||
    fail "device-mesh-pinned at 4000: its kernel is not slower"
  expect 1 "REGRESSION (exit 1)" "$vb" compare --metric kernel a.db k.db
  [ "$(grep -cE "nx=4000,ny=4000 .*slower \(kernel" out)" -eq 3 ] || fail "--metric kernel misses a kernel"
  # (b) transfer only: device-mesh (pageable D2H) relabelled device-mesh-pinned
  cp b.db t.db
  sqlite3 t.db "DELETE FROM case_axes WHERE case_id IN (SELECT c.id FROM cases c JOIN variants v
      ON v.id = c.variant_id WHERE v.name = 'device-mesh-pinned');
    DELETE FROM samples WHERE case_id IN (SELECT c.id FROM cases c JOIN variants v
      ON v.id = c.variant_id WHERE v.name = 'device-mesh-pinned');
    DELETE FROM cases WHERE variant_id = (SELECT id FROM variants WHERE name = 'device-mesh-pinned');
    UPDATE cases SET variant_id = (SELECT id FROM variants WHERE name = 'device-mesh-pinned')
      WHERE variant_id = (SELECT id FROM variants WHERE name = 'device-mesh');" || fail "sqlite3"
  expect 1 "REGRESSION (exit 1)" "$vb" compare a.db t.db
  for n in 1000 4000; do
    grep -qE "^mesh/device-mesh-pinned +nx=$n,ny=$n .*slower \(D2H \+[0-9]+%\)" out ||
      fail "pinned -> pageable at $n is not slower by its D2H"
  done
  # (e) work moved to the host, the GPU untouched: the overlap case's e2e x1.5 (its GPU samples
  # as they were) is slower, named by e2e; x1.05, inside 3x its own spread, is the same
  for m in 1.5 1.05; do
    cp b.db h.db
    sqlite3 h.db "UPDATE samples SET e2e_ns = e2e_ns * $m WHERE case_id = (SELECT c.id FROM cases c
        JOIN variants v ON v.id = c.variant_id WHERE v.name = 'device-mesh-overlap' AND c.axes = 'nx=1000,ny=1000')" ||
      fail "sqlite3"
    if [ $m = 1.5 ]; then
      expect 1 "REGRESSION (exit 1)" "$vb" compare a.db h.db
      grep -qE "^mesh/device-mesh-overlap +nx=1000,ny=1000 +e2e .*slower \(e2e \+[0-9]+%(;[^)]*)?\)" out ||
        fail "a host-side move is not slower by its e2e"
      [ "$(grep -cE "^mesh/.* slower \(" out)" -eq 1 ] || fail "another case is slower"
    else
      expect 0 "no regression (exit 0)" "$vb" compare a.db h.db
    fi
  done
  # (f) the host's bus between identical runs: calx/tiled-pinned on one lent H100, run b an
  # identical rerun of a; its 8 MB pinned H2D at 10^6 ran 148 us in a and 168 us in b (+13%,
  # each run's spread under 4%). Runs before the controls: their ceilings (the 256 MB pinned
  # copy the same 55.3 GB/s in both) do not explain it, so it is slower, and the row says what
  # stood in for the controls
  load p.db calx-h100-a.sql.gz; load q.db calx-h100-b.sql.gz
  expect 1 "REGRESSION (exit 1)" "$vb" compare p.db q.db
  grep -qE "^calx/tiled-pinned +model_size=1000000,smooth_steps=12 +H2D \(controls: the runs' ceilings\) .*slower \(H2D \+13%\)$" out ||
    fail "the pinned H2D's unexplained move is not slower, with its basis"
  # with the controls of schema 12 (a copy of its size and kind beside each sample, here as long
  # as the sample's own, the bus moving both): the same, what moved said
  "$vb" migrate p.db q.db >/dev/null 2>&1 || fail "migrate"
  for d in p q; do
    sqlite3 $d.db "UPDATE samples SET ctl_h2d_ns = h2d_ns * (1 + (idx % 3) * 0.001) WHERE case_id = (SELECT id FROM cases
        WHERE axes LIKE 'model_size=1000000,%') AND kind = 'timed'" || fail "sqlite3"
  done
  "$vb" compare p.db q.db >out 2>&1
  grep -qE "^calx/tiled-pinned +model_size=1000000,smooth_steps=12 .* same \(.*H2D \+13\.[0-9]%: [-+]0\.[0-9]% against its controls" out ||
    fail "the H2D's move with its control is not the same"
  sqlite3 q.db "UPDATE samples SET h2d_ns = h2d_ns * 1.5 WHERE case_id = (SELECT id FROM cases
      WHERE axes LIKE 'model_size=1000000,%')" || fail "sqlite3"
  expect 1 "REGRESSION (exit 1)" "$vb" compare p.db q.db
  grep -qE "^calx/tiled-pinned +model_size=1000000,smooth_steps=12 .*slower \(H2D \+[0-9]+%; \+50\.0% against its controls\)$" out ||
    fail "a pinned H2D x1.5 is not slower by its H2D"
  # a 40 us memset the base does not have (+13% GPU time, inside what its copies allow): new work
  load q.db calx-h100-b.sql.gz
  sqlite3 q.db "UPDATE samples SET memset_ns = 40000, gpu_ns = gpu_ns + 40000 WHERE case_id =
      (SELECT id FROM cases WHERE axes LIKE 'model_size=1000000,%')" || fail "sqlite3"
  expect 1 "REGRESSION (exit 1)" "$vb" compare p.db q.db
  grep -qE "^calx/tiled-pinned +model_size=1000000,smooth_steps=12 .*slower \(memset new\)$" out ||
    fail "a memset the candidate added is not slower, new"
  # (d) a candidate run that never finished: not exit 0, and it says why
  cp b.db r.db
  sqlite3 r.db "UPDATE runs SET status = 'running', end_utc = NULL" || fail "sqlite3"
  expect 2 "is 'running'" "$vb" compare --cand-run 1 a.db r.db ;;
traffic-check)
  # ci/traffic-check --declared: a real H100 run's copies, sample by sample, held to what each
  # variant declares (vbtest declared_traffic); a sample that lost 8 bytes, or a declaration
  # 8 bytes off, fails it
  tc=$(cd "$fixtures/../.." && pwd)/ci/traffic-check
  load a.db calx-h100-a.sql.gz
  "$vbtest" declared_traffic >declared.tsv || fail "vbtest declared_traffic"
  grep -qP '^calx/tiled-pinned\tmodel_size=1000000,smooth_steps=12\t8000408\t2\t8000000\t1$' \
    declared.tsv || fail "tiled-pinned's declaration at 10^6 is not 8000408 B in 2 copies, 8000000 B in 1"
  expect 0 "5 GPU case(s), 0 with a sample whose copies differ from the declared ones (0 case(s) not declared)" \
    "$tc" --declared declared.tsv a.db
  cp a.db s.db
  sqlite3 s.db "UPDATE samples SET h2d_bytes = h2d_bytes - 8 WHERE id = (SELECT min(s.id) FROM samples s
      JOIN cases c ON c.id = s.case_id WHERE s.kind = 'timed' AND c.axes LIKE 'model_size=10000,%')" ||
    fail "sqlite3"
  expect 1 "5 GPU case(s), 1 with a sample whose copies differ" "$tc" --declared declared.tsv s.db
  expect 1 "5 GPU case(s), 1 with a sample whose copies differ" "$tc" s.db
  sed 's/^\(calx\/tiled-pinned\tmodel_size=960,smooth_steps=12\t\)8088/\18096/' declared.tsv >d2.tsv
  expect 1 "5 GPU case(s), 1 with a sample whose copies differ" "$tc" --declared d2.tsv a.db
  expect 2 "--declared a.db" "$tc" --declared a.db a.db ;;
report-crossover)
  # where the GPU starts to win, from a real default H100 run (calx and mesh, 2026-11-25): calx
  # between 960 (CPU 15.6 us, tiled-pinned 33.4 us) and 10^4 (167 us, 48.2 us), log-log
  load l.db ladders-h100.sql.gz
  expect 0 "crossover (the CPU reference against the best GPU rung, end to end): calx: the GPU wins from model_size ~ 2330 (between 960 and 10000); mesh: the GPU wins at every size, from nx=1000" \
    "$vb" report --no-plots --db l.db -o rep
  # the report opens on the answer: per problem at its largest size the fastest rung, its
  # floor, its speed-ups over the CPU reference and the seed's rung, the crossover
  [ "$(grep -m1 '^## ' rep/report.md)" = "## The answer" ] || fail "report.md does not open on the answer"
  grep -qxF '| calx | model\_size=10000000,smooth\_steps=12 | tiled-pinned | 3.05 | - | 1.05x (pcie, e2e) | 56.4x | 3.93x (serial-inner 12 ms) | from model\_size ~ 2330 (between 960 and 10000) |' rep/report.md ||
    fail "no calx row in the answer"
  grep -qxF '| mesh | nx=4000,ny=4000 | device-mesh-overlap | 2.4 | - | 1.04x (pcie, e2e) | 189x | 138x (host-mesh 333 ms) | at every size, from nx=1000 |' rep/report.md ||
    fail "no mesh row in the answer"
  grep -q '<h2 id="answer">The answer</h2>' rep/index.html || fail "index.html does not hold the answer"
  # the run's measured ceilings, the time ones (launch; round trips where the run had them) too
  grep -q 'measured ceilings: .*, launch 3.69 us' rep/report.md || fail "no launch ceiling in the report"
  # a filtered run (tiled-pinned alone): its answer still, without what it did not run
  load t.db calx-h100-a.sql.gz
  expect 0 "report: tp/index.html" "$vb" report --no-plots --db t.db -o tp
  grep -qxF '| calx | model\_size=10000000,smooth\_steps=12 | tiled-pinned | 3.05 | - | 1.05x (pcie, e2e) | - | - (serial-inner not in this run) | - |' tp/report.md ||
    fail "a run without the reference or the seed's rung has no answer"
  # export carries it: every case of the group in CSV, the run's line in the JSON's context
  "$vb" export --db l.db --format csv -o l.csv || fail "export csv"
  head -n 1 l.csv | grep -q ',reason,crossover_axis,crossover_kind,crossover_size,crossover_without_graph_kind,crossover_without_graph_size,' || fail "no crossover columns"
  [ "$(grep -c '^[^,]*,[0-9]*,calx/.*,model_size,at,2332\.[0-9]*,,,' l.csv)" -eq 25 ] ||
    fail "not every calx case carries its crossover"
  [ "$(grep -c ',nx,every size,1000,,,' l.csv)" -eq 12 ] || fail "not every mesh case carries its crossover"
  "$vb" export --db l.db --format json -o l.json || fail "export json"
  grep -qF '"varbench_crossover": "calx: the GPU wins from model_size ~ 2330 (between 960 and 10000); mesh:' l.json ||
    fail "no crossover in the JSON's context"
  # beside the same problems on the H200: a case that copies pageable memory sits on its own
  # bound, predicted from the two hosts' pageable ceilings (H2D 8.8 -> 7.7, D2H 13.1 -> 17.0 GB/s)
  load h.db ladders-h200.sql.gz
  "$vb" merge m.db l.db h.db >/dev/null || fail "merge"
  expect 0 "report: hw/index.html" "$vb" report --no-plots --db m.db -o hw
  grep -qxF '| mesh/host-mesh | nx=4000,ny=4000 | PCIe (pageable copies) | 332.6 | 310.8 | 1.08 | 0.93 | 0.86 |' hw/report.md ||
    fail "host-mesh is not on the pageable bound, predicted from the pageable ceilings"
  grep -qE '^\| mesh/device-mesh-pinned \| nx=4000,ny=4000 \| PCIe \(pinned or mapped\) \|' hw/report.md ||
    fail "a pinned rung left the pinned bound"
  [ "$(grep -c '^## The answer' hw/report.md)" -eq 1 ] && [ "$(grep -c '^### run [12]: NVIDIA H[12]00' hw/report.md)" -eq 2 ] ||
    fail "the merged report does not answer once per GPU model"
  # then the hardware's headline by bound, before the details
  grep -qxF '| PCIe (pageable copies) | 12 | 1.01 | 0.99 | 1.03 | 0.86 - 1.36 | - | - |' hw/report.md ||
    fail "no pageable row in the hardware headline"
  [ "$(grep -n -m1 'by bound$' hw/report.md | cut -d: -f1)" -lt "$(grep -n -m1 '^## calx on' hw/report.md | cut -d: -f1)" ] ||
    fail "the hardware headline is not before the details"
  # the ledger's energy (issue 44): every case's timed samples at 1 J each on the H100, 0.8 J on
  # the H200: each bound's energy ratio 0.80 over its cases, performance per watt 1.25; the
  # answer's energy a result
  sqlite3 m.db "UPDATE cases SET energy_j = samples * (CASE WHEN run_id IN (SELECT run_id FROM
      TARGET_INFO_GPU WHERE name LIKE '%H200%') THEN 0.8 ELSE 1.0 END) WHERE samples > 0" ||
    fail "sqlite3"
  expect 0 "report: hw2/index.html" "$vb" report --no-plots --db m.db -o hw2
  grep -qxF '| PCIe (pageable copies) | 12 | 1.01 | 0.99 | 1.03 | 0.86 - 1.36 | 0.80 (12, +- ?) | 1.25 |' hw2/report.md ||
    fail "no energy in the hardware headline (the fixture's runs did not measure the counters' periods)"
  # issue 57: each case's energy +- 5% (its counter's period over its window), on both boards:
  # the ratio's +- 7.1% (0.80 +- 0.06), performance per watt's 1.25 +- 0.09; and the periods a
  # run measured in runs and summary
  sqlite3 m.db "UPDATE cases SET energy_unc_j = 0.05 * energy_j WHERE energy_j IS NOT NULL;
      UPDATE TARGET_INFO_GPU SET energyPeriodMs = 25, energyStepMj = 1520, powerPeriodMs = 100
      WHERE run_id = 2" || fail "sqlite3"
  expect 0 "report: hw3/index.html" "$vb" report --no-plots --db m.db -o hw3
  grep -qxF '| PCIe (pageable copies) | 12 | 1.01 | 0.99 | 1.03 | 0.86 - 1.36 | 0.80 +- 0.06 (12) | 1.25 +- 0.09 |' hw3/report.md ||
    fail "the hardware headline's energy without its uncertainty"
  grep -qF '| mesh | nx=4000,ny=4000 | device-mesh-overlap | 2.4 | 1 +- 0.05 | ' hw3/report.md ||
    fail "the answer's energy a result without its uncertainty"
  expect 0 " 25/100 " "$vb" runs --db m.db
  grep -qE "^ +1[ *] .* - " out || fail "runs: run 1's periods (not measured) not '-'"
  expect 0 "==varbench== NVML update periods: " "$vb" summary --db m.db --run 2
  grep -qE "^==varbench== NVML update periods: [0-9a-f:.]+: energy counter every 25.0 ms \(1520 mJ a step\), power reading every 100.0 ms$" out ||
    fail "summary: the run's NVML periods"
  grep -qF '| mesh | nx=4000,ny=4000 | device-mesh-overlap | 2.4 | 1 | ' hw2/report.md ||
    fail "no energy a result in the answer"
  # the CPU reference 100x faster: the GPU wins at no size
  sqlite3 l.db "UPDATE cases SET e2e_median_ns = e2e_median_ns / 100 WHERE variant_id IN
      (SELECT id FROM variants WHERE family = 'calx' AND name = 'cpu-reference')" || fail "sqlite3"
  expect 0 "calx: the GPU wins at no size up to model_size=10000000;" "$vb" report --no-plots --db l.db -o rep2 ;;
compare-pooled)
  # --baseline-runs: the base side pools the base run and the complete runs before it on its GPU
  # model (history.db: device-mesh-pinned 0.171 ms in runs 1-5, 0.316 ms from run 6; device-mesh
  # wrong in run 3)
  "$vbtest" make_history_fixture "$tmp" >/dev/null || fail "fixture"
  expect 1 "base runs 5, 4, 3, ..., 1 (5 runs) pooled (NVIDIA H200) vs candidate run 6" \
    "$vb" compare --baseline-runs 5 --base-run 5 --cand-run 6 history.db history.db
  grep -qE "^mesh/device-mesh-pinned .* 25/5 .* slower \(GPU \+85%\)$" out || fail "not 25 pooled samples"
  grep -qE "^mesh/device-mesh .* 20/5 .* same$" out || fail "run 3's wrong case was pooled"
  [ ! -s err ] || fail "a note on stderr with enough runs"
  expect 1 "base runs 5, 4, 3, ..., 1 (5 runs) pooled" \
    "$vb" compare --baseline-runs 20 --base-run 5 --cand-run 6 history.db history.db
  grep -qxF "varbench compare: --baseline-runs 20: 'history.db' has 5 complete runs on NVIDIA H200 up to run 5; the baseline pools those" err ||
    fail "no note of the shorter pool"
  expect 1 "regression check: base run 5 (NVIDIA H200) vs candidate run 6" \
    "$vb" compare --base-run 5 --cand-run 6 history.db history.db
  grep -qE "^mesh/device-mesh-pinned .* 5/5 " out || fail "the default pools"
  expect 2 "bad --baseline-runs '0': a whole number from 1 to 100" "$vb" compare --baseline-runs 0 history.db history.db
  expect 2 "bad --baseline-runs '101'" "$vb" compare --baseline-runs 101 history.db history.db ;;
history)
  # a 10-run history with a 1.85x step of one case from run 6 (tests/test_history.c's
  # write_history): that change point and no other; --all shows the flat cases too
  "$vbtest" make_history_fixture "$tmp" >/dev/null || fail "fixture"
  cp history.db history.db.orig
  expect 0 "history: 5 series over 14 runs, 1 change point (PELT on log medians, penalty 10*sigma^2*log n, min change 5%)" \
    "$vb" history --db history.db
  grep -qxF "mesh/device-mesh-pinned nx=1000,ny=1000 on NVIDIA H200: gpu median, 10 runs" out ||
    fail "no header for the stepped case"
  [ "$(grep -c "change point:" out)" -eq 1 ] || fail "not exactly one change point"
  grep -qE "^ +6  .* c0ffee0689ab +0\.3157  <- change point: 1\.85x slower than runs 1-5 \(median 0\.1710 -> 0\.3160 ms\)$" out ||
    fail "the change point is not at run 6"
  grep -qxF "          counters that moved (run 5 -> 6): achieved occupancy (sm__warps_active.avg.pct_of_peak_sustained_active) 90.2% -> 45.2%" out ||
    fail "the change point's counters not named"
  grep -q "^mesh/device-mesh nx" out && fail "a series without a change point is printed"
  expect 0 "history: 5 series over 14 runs, 1 change point" "$vb" history --db history.db --all
  grep -qxF "mesh/device-mesh nx=1000,ny=1000 on NVIDIA H200: gpu median, 9 runs" out ||
    fail "--all does not print the flat case"
  grep -qxF "mesh/cpu-reference nx=1000,ny=1000 on NVIDIA H200: e2e median (no GPU time), 10 runs" out ||
    fail "the CPU-only case does not fall back to e2e"
  expect 0 "1.60x slower than runs 1-5 (median 0.2500 -> 0.4000 ms)" "$vb" history --db history.db --metric e2e
  expect 0 "history: 1 series over 9 runs, 0 change points" "$vb" history --db history.db --filter mesh/device-mesh
  [ "$(wc -l < out)" -eq 1 ] || fail "a flat history prints more than its summary"
  expect 0 "history: 5 series over 14 runs, 0 change points (PELT on log medians, penalty 10*sigma^2*log n, min change 90%)" \
    "$vb" history --db history.db --min-change 90
  expect 0 "penalty 3*sigma^2*log n" "$vb" history --db history.db --penalty 3
  if command -v gnuplot >/dev/null; then # the report's table of changes names them too
    "$vb" report --db history.db -o rep >out 2>&1 || fail "report: $(tail -n 3 out)"
    grep -qF "achieved occupancy (sm__warps_active.avg.pct_of_peak_sustained_active) 90.2% -&gt; 45.2%" rep/index.html ||
      fail "the report's change point does not name its counters"
  fi
  unchanged history.db ;;
history-errors)
  expect 3 "does not exist" "$vb" history --db missing.db
  [ ! -e missing.db ] || fail "history created the database"
  head -c 4096 /dev/urandom > junk.db
  expect 3 "not a database" "$vb" history --db junk.db
  "$vbtest" make_history_fixture "$tmp" >/dev/null || fail "fixture"
  expect 2 "bad --metric 'memset': e2e, gpu, kernel, h2d or d2h" "$vb" history --db history.db --metric memset
  expect 2 "bad --penalty '0'" "$vb" history --db history.db --penalty 0
  expect 2 "bad --min-change 'x'" "$vb" history --db history.db --min-change x
  expect 2 "no case of 'history.db' matches 'calx/*'" "$vb" history --db history.db --filter 'calx/*'
  grep -q "hint: 'varbench list' lists the variants" err || fail "no hint"
  expect 2 "matches 'mesh/cpu-reference' with a gpu median" "$vb" history --db history.db \
    --filter mesh/cpu-reference --metric gpu
  expect 0 "history: 0 series over 0 runs, 0 change points" "$vb" history --db history.db --metric h2d
  grep -qF "history: no complete run of 'history.db' has an ok case with that median" out ||
    fail "history of nothing does not say why"
  # one run: a history needs two, and history says so
  "$vb" run --db one.db --filter mesh/cpu-reference --axis nx=8,16 --quick >/dev/null 2>&1
  expect 0 "history: 0 series over 1 run, 0 change points" "$vb" history --db one.db
  grep -qF "history: 2 series have one run only: a history needs two runs of a case" out ||
    fail "history of one run does not say why it shows nothing"
  expect 2 "unexpected argument 'extra'" "$vb" history --db history.db extra
  no_db ;;
db-paths)
  # --db is a plain path: URIs and paths past SQLite's limit are refused, nothing created
  expect 3 "a URI, not a file path" "$vb" run --filter mesh/cpu-reference --axis nx=8 --db 'file:x.db?mode=memory'
  expect 3 "a URI, not a file path" "$vb" export --db file:ux.db --format csv
  [ ! -e x.db ] && [ ! -e ux.db ] && [ ! -e 'file:x.db?mode=memory' ] || fail "a file was created"
  long=$(printf 'd%.0s' $(seq 600)).db
  expect 3 "SQLite's limit is 511" "$vb" run --filter mesh/cpu-reference --axis nx=8 --db "$long" ;;
concurrent-writers)
  # four runs started together on a new file, and four on a schema-2 file (migrated by whichever
  # takes the write lock first): every run stored, complete, the file intact
  load v2.db schema-v2-h100.sql.gz
  for db in new.db v2.db; do
    for i in 1 2 3 4; do
      "$vb" run --quick --filter mesh/cpu-reference --axis nx=8 --db "$db" >"o$i" 2>&1 &
    done
    wait
    for i in 1 2 3 4; do grep -q "stored in $db" "o$i" || { cat "o$i"; fail "writer $i on $db lost its run"; }; done
    [ "$(sqlite3 "$db" 'PRAGMA integrity_check')" = ok ] || fail "$db is not intact"
  done
  [ "$(sqlite3 new.db "SELECT count(*) FROM runs WHERE status = 'complete'")" = 4 ] || fail "new.db: not 4 complete runs"
  [ "$(sqlite3 v2.db "SELECT count(*) FROM runs WHERE status = 'complete'")" = 6 ] || fail "v2.db: not 2 + 4 complete runs"
  [ "$(sqlite3 v2.db 'PRAGMA user_version')" = "$schema" ] || fail "v2.db not migrated" ;;
writers-stress)
  # 16 runs started together on a new file, 20 rounds, with every CPU kept busy (a writer
  # creating the schema is then slow and easily caught half done): 320 of 320 runs stored,
  # complete, each file intact. VB_WRITERS / VB_ROUNDS choose other counts.
  command -v sqlite3 >/dev/null || { echo "skip: no sqlite3 shell" >&2; exit 77; }
  writers=${VB_WRITERS:-16} rounds=${VB_ROUNDS:-20} lost=0 busy=()
  for i in $(seq $((2 * $(nproc)))); do (while :; do :; done) & busy+=($!); done
  trap 'kill "${busy[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
  for r in $(seq "$rounds"); do
    pids=()
    for i in $(seq "$writers"); do
      "$vb" run --quick --filter mesh/cpu-reference --axis nx=8 --db "r$r.db" >"o$r.$i" 2>&1 &
      pids+=($!)
    done
    for i in $(seq "$writers"); do
      wait "${pids[$((i - 1))]}"; rc=$?
      grep -q "stored in r$r.db" "o$r.$i" && [ "$rc" -eq 0 ] && continue
      lost=$((lost + 1)); echo "round $r, writer $i: exit $rc: $(tail -n 3 "o$r.$i")"
    done
    [ "$(sqlite3 "r$r.db" 'PRAGMA integrity_check')" = ok ] || fail "round $r: the file is not intact"
    n=$(sqlite3 "r$r.db" "SELECT count(*) FROM runs WHERE status = 'complete'")
    [ "$n" = "$((writers - lost))" ] || [ "$lost" -gt 0 ] || fail "round $r: $n complete runs of $writers"
  done
  echo "writers-stress: $((writers * rounds - lost)) of $((writers * rounds)) runs stored ($writers writers x $rounds rounds, $(nproc) CPUs busy)"
  [ "$lost" -eq 0 ] || fail "$lost run(s) lost"
  # the files at rest are single files (a rollback journal); writers starting together on such
  # a file each switch it back to WAL: all store their runs, and it ends a single file again
  [ "$(sqlite3 r1.db 'PRAGMA journal_mode')" = delete ] || fail "a finished file was left in WAL mode"
  pids=()
  for i in $(seq "$writers"); do
    "$vb" run --quick --filter mesh/cpu-reference --axis nx=8 --db r1.db >"o.again.$i" 2>&1 &
    pids+=($!)
  done
  for i in $(seq "$writers"); do wait "${pids[$((i - 1))]}" || fail "writer $i on an existing file: $(tail -n 2 "o.again.$i")"; done
  [ "$(sqlite3 r1.db "SELECT count(*) FROM runs WHERE status = 'complete'")" = $((2 * writers)) ] ||
    fail "not $((2 * writers)) complete runs in the existing file"
  [ "$(ls r1.db* | tr '\n' ' ')" = "r1.db " ] || fail "files left beside it: $(ls r1.db*)"
  echo "writers-stress: $writers more on the existing file: all stored, one file left" ;;
schema-fixtures)
  # one database per past schema, written by this project's own commits
  # (fixtures/make-schema-fixtures.sh): every reader reads each (the exit codes below), none
  # changes a byte of it; migrate rewrites it with the same verdicts; a newer schema is refused
  command -v sqlite3 >/dev/null || { echo "skip: no sqlite3 shell" >&2; exit 77; }
  readers="runs compare export-csv export-json export-trace report history summary merge diagnose"
  printf '%-6s' schema; for c in $readers; do printf ' %s' "$c"; done; printf ' %s\n' "file unchanged"
  for v in $(seq 1 $((schema - 1))); do
    gzip -dc "$fixtures/schema-v$v.db.gz" >v$v.db || fail "fixture v$v"
    sum=$(sha256sum <v$v.db) line=$(printf '%-6s' "v$v")
    for c in $readers; do
      # expected: 0; summary 2 where the version had no trace (v1); diagnose 2 (CPU-only runs:
      # 'no GPU case', its refusal); report needs gnuplot
      want=0
      { [ $c = summary ] && [ $v = 1 ]; } && want=2
      [ $c = diagnose ] && want=2
      if [ $c = report ] && ! command -v gnuplot >/dev/null; then line+=$(printf ' %*s' ${#c} -); continue; fi
      case $c in
      runs) "$vb" runs --db v$v.db ;;
      compare) "$vb" compare v$v.db v$v.db ;;
      export-*) "$vb" export --db v$v.db --format "${c#export-}" -o "x$v.${c#export-}" ;;
      report) "$vb" report --db v$v.db -o "rep$v" ;;
      history) "$vb" history --db v$v.db ;;
      summary) "$vb" summary --db v$v.db ;;
      merge) rm -f "m$v.db"; "$vb" merge "m$v.db" v$v.db ;;
      diagnose) "$vb" diagnose --baseline v$v.db v$v.db ;;
      esac >out 2>err
      rc=$?
      line+=$(printf ' %*s' ${#c} $rc)
      [ $rc = $want ] || { echo "$line"; fail "schema $v: $c exited $rc, expected $want"; }
    done
    [ "$(sha256sum <v$v.db)" = "$sum" ] || fail "schema $v: a reader changed the file"
    echo "$line yes"
    # merge copies what the readers read: no column of a newer schema holds its own name (an old
    # file attached as it was once put 'cupti_client' into every case)
    [ "$(sqlite3 "m$v.db" "SELECT count(*) FROM cases WHERE cupti_client = 'cupti_client' OR floor_bound = 'floor_bound'")" = 0 ] ||
      fail "schema $v: merge wrote column names as values"
    [ "$(sqlite3 "m$v.db" 'SELECT count(*) FROM runs')" = "$(sqlite3 v$v.db 'SELECT count(*) FROM runs')" ] ||
      fail "schema $v: merge lost runs"
    # migrate on disk: today's schema, the old file kept, the same verdicts as the old file's
    cp v$v.db g$v.db
    "$vb" compare g$v.db g$v.db >before 2>&1
    expect 0 "migrated from schema $v to" "$vb" migrate g$v.db
    [ "$(sqlite3 g$v.db 'PRAGMA user_version; PRAGMA integrity_check' | tr '\n' ' ')" = "$schema ok " ] ||
      fail "schema $v: the migrated file is not schema $schema and intact"
    [ -f g$v.db.bak ] && [ ! -e g$v.db-wal ] || fail "schema $v: no .bak, or a -wal left"
    "$vb" compare g$v.db.bak g$v.db >after 2>&1
    diff <(sed 's/g[0-9].db\(.bak\)*//g' before) <(sed 's/g[0-9].db\(.bak\)*//g' after) >/dev/null ||
      fail "schema $v: compare of the old and the migrated file differs from the old file's own"
    expect 0 "schema $schema already: nothing to do" "$vb" migrate g$v.db
    # schema 7 widened floor_bound's CHECK in place: the migrated file takes a latency floor
    sqlite3 g$v.db "UPDATE cases SET floor_bound = 'latency' WHERE id = (SELECT min(id) FROM cases)" ||
      fail "schema $v: the migrated file refuses a latency floor"
  done
  # a schema newer than this varbench: refused with the upgrade hint, the file untouched
  cp v5.db new.db && sqlite3 new.db 'PRAGMA user_version = 99' && cp new.db new.db.orig
  expect 3 "has schema 99, newer than this varbench's $schema" "$vb" runs --db new.db
  grep -q "hint: use a newer varbench" err || fail "no upgrade hint"
  expect 3 "newer than this varbench's" "$vb" migrate new.db
  unchanged new.db ;;
read-only-db)
  # a database in a folder we cannot write (a CI artifact, a read-only mount), and a file we
  # cannot write: every reader reads it, whether the file is in WAL mode (as varbench left files
  # before) or not (as a finished run leaves one now: a single file); a WAL file whose -wal
  # still holds writes and has no -shm cannot be read there: refused, with the fix
  command -v sqlite3 >/dev/null || { echo "skip: no sqlite3 shell" >&2; exit 77; }
  as=()
  if [ "$(id -u)" = 0 ]; then # root writes anywhere: read as nobody
    command -v setpriv >/dev/null || { echo "skip: root without setpriv" >&2; exit 77; }
    as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
  fi
  chmod 755 "$tmp"; cp "$vb" ./vb # where nobody may run it
  ./vb run --quick --filter mesh/cpu-reference --axis nx=8 --db w.db >/dev/null 2>&1 || fail "run"
  ls w.db* | grep -qv '^w.db$' && fail "a finished run left files beside its database: $(ls w.db*)"
  [ "$(sqlite3 w.db 'PRAGMA journal_mode')" = delete ] || fail "a finished run left its file in WAL mode"
  gzip -dc "$fixtures/schema-v5.db.gz" >wal.db
  mkdir rodir && cp w.db wal.db rodir/ && chmod 555 rodir && chmod 444 rodir/*.db
  cp wal.db rofile.db && chmod 444 rofile.db
  for db in rodir/w.db rodir/wal.db rofile.db; do
    for c in runs compare export history merge report; do
      [ $c = report ] && ! command -v gnuplot >/dev/null && continue
      case $c in
      runs) "${as[@]}" ./vb runs --db $db ;;
      compare) "${as[@]}" ./vb compare $db $db ;;
      export) "${as[@]}" ./vb export --db $db --format csv ;;
      history) "${as[@]}" ./vb history --db $db ;;
      merge) rm -rf mo && mkdir -m 777 mo && "${as[@]}" ./vb merge mo/m.db $db ;;
      report) rm -rf ro && mkdir -m 777 ro && "${as[@]}" ./vb report --db $db -o ro/r ;;
      esac >out 2>err || fail "$c on $db: exit $?"
    done
    echo "read-only: $db: runs, compare, export, history, merge, report exit 0"
  done
  ls rodir | grep -qv '\.db$' && fail "a reader left files in the read-only folder"
  # a killed writer's -wal, no -shm, a read-only folder: refused, saying what to do
  VARBENCH_TEST_KILL_IN_WRITE=1 ./vb run --quick --filter mesh/cpu-reference --axis nx=8 --db k.db >/dev/null 2>&1
  [ -s k.db-wal ] || fail "the killed writer left no -wal"
  mkdir kdir && cp k.db k.db-wal kdir/ && chmod 555 kdir && chmod 444 kdir/*
  expect 3 "its last writes are in 'kdir/k.db-wal'" "${as[@]}" ./vb runs --db kdir/k.db
  grep -q "hint: copy the database with its -wal file to a writable folder" err || fail "no hint"
  chmod 755 kdir rodir ;;
migrate-refusals)
  # migrate leaves the file as it was when it cannot finish: a FILE.bak in the way, a run still
  # 'running' (unless --force), another process holding it open, not a varbench database, none
  command -v sqlite3 >/dev/null || { echo "skip: no sqlite3 shell" >&2; exit 77; }
  gzip -dc "$fixtures/schema-v3.db.gz" >a.db && cp a.db a.db.orig
  touch a.db.bak
  expect 2 "a.db.bak' exists: migrate keeps the old file under that name" "$vb" migrate a.db
  unchanged a.db
  rm a.db.bak
  sqlite3 a.db "UPDATE runs SET status = 'running' WHERE id = 3" && cp a.db a.db.orig
  expect 2 "has 1 run(s) still 'running'" "$vb" migrate a.db
  grep -q "hint: wait for the run to end, or pass --force" err || fail "no hint"
  unchanged a.db
  expect 0 "migrated from schema 3 to $schema" "$vb" migrate --force a.db
  # a process holding a WAL file open: the WAL cannot be folded away under it
  gzip -dc "$fixtures/schema-v4.db.gz" >b.db
  sqlite3 b.db "SELECT count(*) FROM runs" >/dev/null # b.db is in WAL mode
  (sqlite3 b.db "BEGIN; SELECT count(*) FROM runs; SELECT max(x) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50000000) SELECT x FROM c);" >/dev/null 2>&1 &)
  sleep 0.5
  expect 3 "is open in another process (a run or a reader)" "$vb" migrate b.db
  [ ! -e b.db.bak ] || fail "a refused migration left a .bak"
  [ "$(sqlite3 b.db 'PRAGMA user_version')" = 4 ] || fail "a refused migration changed the schema"
  sqlite3 c.db "CREATE TABLE x(a)"
  expect 3 "an SQLite file but not a varbench database" "$vb" migrate c.db
  expect 3 "does not exist" "$vb" migrate nosuch.db
  expect 2 "expected at least one FILE" "$vb" migrate ;;
readme-drift)
  # the README held to the code (tests/readme_check.py): the catalog to 'varbench list', the
  # install list to ci/common.sh, the commands to 'varbench --help', the exit codes to
  # include/varbench.h, the 20-line example to examples/minimal.cu, the test labels to ctest's.
  # The README passes; each planted drift fails, named.
  command -v python3 >/dev/null || { echo "skip: no python3" >&2; exit 77; }
  root=$(cd "$fixtures/../.." && pwd) build=$(cd "$(dirname "$vb")" && pwd)
  check() { python3 "$root/tests/readme_check.py" "$1" "$vb" "$root" "$build"; }
  check "$root/README.md" >out 2>err || fail "the README has drifted: $(cat out)"
  cat out
  plant() { # plant WHAT SED-EXPRESSION EXPECTED-FINDING
    sed "$2" "$root/README.md" >planted.md
    cmp -s planted.md "$root/README.md" && fail "planting $1 changed nothing"
    check planted.md >out 2>err && fail "a README with $1 passed"
    grep -qF -- "$3" out || fail "$1 not named: $(cat out)"
    echo "planted $1: $(head -n 1 out)"
  }
  plant "a variant removed from the catalog" 's/, and beyond the seed `tiled-pinned`//' \
    "calx/tiled-pinned is missing from the README"
  plant "a package removed from the install list" 's/ and `munge` for/ for/' \
    "munge is missing from the README (ci/common.sh has it)"
  plant "a command removed from the command list" '/^varbench migrate /d' \
    "commands: migrate is missing from the README"
  plant "an exit code the code does not have" 's/^| 7 |/| 8 |/' \
    "exit codes: the README names 8"
  plant "a test label removed" 's/ and `slurm` (the fleet/ (the fleet/' \
    "labels: slurm is missing from the README"
  plant "the 20-line example edited" 's/y\[i\] = 3 \* x\[i\]/y[i] = 2 * x[i]/' \
    "example: the README's kernel in 20 lines differs from examples/minimal.cu"
  plant "a stale catalog size" 's/The default catalog is [0-9]* cases/The default catalog is 95 cases/' \
    "catalog size: the README says 95 cases" ;;
merge-partial)
  # a run merged while it was being written (here: its copy with the status 'running' and its
  # last case missing, what such a merge takes), then the finished file merged again: the
  # complete copy replaces the partial one; merging into one of the inputs is refused at once
  "$vb" run --quick --filter 'mesh/cpu-reference' --axis nx=8,16,24 --db done.db >/dev/null 2>&1 ||
    fail "run"
  cp done.db live.db
  sqlite3 live.db "UPDATE runs SET status = 'running', end_utc = NULL;
    DELETE FROM samples WHERE case_id = (SELECT max(id) FROM cases);
    DELETE FROM case_axes WHERE case_id = (SELECT max(id) FROM cases);
    DELETE FROM cases WHERE id = (SELECT max(id) FROM cases);" || fail "sqlite3"
  expect 0 "1 run added" "$vb" merge all.db live.db
  grep -q "is 'running': incomplete" out || fail "the partial run is not named"
  expect 0 "1 partial run replaced" "$vb" merge all.db done.db
  grep -q "incomplete" out && fail "a run is still incomplete"
  [ "$(sqlite3 all.db "SELECT status || ' ' || (SELECT count(*) FROM cases) FROM runs")" = "complete 3" ] ||
    fail "the merged run is not the complete copy"
  expect 0 "0 runs added" "$vb" merge all.db done.db
  cp all.db all.db.orig
  expect 2 "is also the input" "$vb" merge all.db done.db all.db
  expect 2 "is also the input" "$vb" merge all.db ./all.db
  cmp -s all.db all.db.orig || fail "a refused merge changed the output" ;;
crash-in-write)
  # a writer killed inside a case's write (SIGKILL, made deterministic by the store's test hook):
  # every read-only command still reads the file and shows the dead run as 'running'
  "$vb" run --quick --filter mesh/cpu-reference --axis nx=8 --db k.db >/dev/null 2>&1 || fail "first run"
  VARBENCH_TEST_KILL_IN_WRITE=1 "$vb" run --quick --filter mesh/cpu-reference --axis nx=8 --db k.db >/dev/null 2>&1
  [ $? -eq 137 ] || fail "the writer was not killed"
  expect 0 "running" "$vb" summary --db k.db --run 2
  expect 0 "cpu-reference" "$vb" export --db k.db --format csv
  expect 0 "run_uuid" "$vb" export --db k.db --run 2 --format csv
  expect 2 "is 'running'" "$vb" compare --cand-run 2 k.db k.db
  expect 0 "no regression" "$vb" compare --base-run 1 --cand-run 1 k.db k.db
  if command -v gnuplot >/dev/null; then expect 0 "report" "$vb" report --db k.db -o rep; fi
  [ "$(sqlite3 k.db "SELECT status FROM runs WHERE id = 2")" = running ] || fail "run 2 is not running"
  [ "$(sqlite3 k.db "SELECT count(*) FROM cases WHERE run_id = 2")" = 0 ] || fail "half a case was kept"
  [ "$(sqlite3 k.db 'PRAGMA integrity_check')" = ok ] || fail "k.db is not intact" ;;
migrate-v2)
  # a database made by the schema-2 code (an H100 quick run of mesh and gufunc, raw records
  # trimmed) opens, migrates to schema 3 with every sample's GPU time filled from its phases,
  # and compares with itself as the same
  load v2.db schema-v2-h100.sql.gz
  [ "$(sqlite3 v2.db 'PRAGMA user_version')" = 2 ] || fail "the fixture is not schema 2"
  cp v2.db v2.orig
  # a reader reads it through a migrated copy in memory, and leaves the file as it was
  expect 0 "no regression (exit 0)" "$vb" compare --base-run 1 --cand-run 1 v2.db v2.db
  cmp -s v2.db v2.orig || fail "a reader changed the schema-2 file"
  expect 0 "run 3 stored" "$vb" run --filter mesh/cpu-reference --axis nx=8 --db v2.db
  [ "$(sqlite3 v2.db 'PRAGMA user_version')" = "$schema" ] || fail "not migrated"
  [ "$(sqlite3 v2.db "SELECT count(*) FROM samples WHERE kernel_ns IS NOT NULL AND
      abs(gpu_ns - (kernel_ns + h2d_ns + d2h_ns + IFNULL(memset_ns, 0))) > 1e-6")" = 0 ] ||
    fail "a sample's GPU time is not the sum of its phases"
  [ "$(sqlite3 v2.db "SELECT count(*) FROM cases WHERE have_records AND gpu_median_ns IS NULL")" = 0 ] ||
    fail "a migrated case has no GPU median"
  expect 0 "no regression (exit 0)" "$vb" compare --base-run 1 --cand-run 1 v2.db v2.db
  grep -qE "^6 same" out || fail "the migrated run is not 6 same with itself"
  expect 0 "no regression (exit 0)" "$vb" compare --base-run 2 --cand-run 2 v2.db v2.db
  grep -qE "^5 same" out || fail "the second migrated run is not 5 same with itself" ;;
help)
  expect 0 "usage: varbench <command>" "$vb" --help
  # git's help CMD: that command's --help, word for word
  expect 0 "usage: varbench run" "$vb" help run
  "$vb" run --help >want 2>&1 && cmp -s out want || fail "'help run' is not 'run --help'"
  expect 2 "hint: did you mean 'run'?" "$vb" help rnu
  expect 2 "expected one command, or none" "$vb" help run list
  expect 0 "exit codes" "$vb" run --help
  expect 0 "--filter GLOB" "$vb" list --help
  expect 2 "usage" "$vb"
  no_db ;;
unknown-command)
  expect 2 "'frobnicate' is not a varbench command" "$vb" frobnicate; no_db
  grep -q "hint:" err && fail "a suggestion for a word near no command"
  # did you mean, as git says it: one edit away (a swap of neighbours counts one)
  expect 2 "hint: did you mean 'run'?" "$vb" rnu; no_db
  expect 2 "hint: did you mean 'compare'?" "$vb" compar
  expect 2 "hint: did you mean 'help'?" "$vb" hlep
  # the version is an option, as git's: said where a user looks for it
  for w in version -V; do expect 2 "hint: 'varbench --version' prints the version" "$vb" $w; done
  expect 0 "varbench " "$vb" --version ;;
unknown-flag)
  expect 2 "unknown option '--frob'" "$vb" run --frob; no_db
  expect 2 "hint: did you mean '--filter'?" "$vb" run --fliter mesh; no_db
  expect 2 "hint: did you mean '--threshold'?" "$vb" compare --treshold=5 a.db b.db
  expect 2 "hint: did you mean '--db'?" "$vb" runs --bd x.db
  expect 2 "unexpected argument 'extra'" "$vb" run extra; no_db
  expect 2 "unknown option" "$vb" list --frob ;;
missing-value)
  expect 2 "needs a value" "$vb" run --axis; no_db
  expect 2 "bad --device 'x'" "$vb" run --device x; no_db
  expect 2 "device 63 does not exist" "$vb" run --filter mesh/cpu-reference --axis nx=8 --device 63; no_db
  expect 2 "bad --timeout '-1'" "$vb" run --timeout -1; no_db
  expect 2 "--min-samples 5 is larger than --max-samples 2" "$vb" run --min-samples 5 --max-samples 2; no_db
  expect 2 "--max-noise is given twice" "$vb" run --precision 1 --max-noise 2; no_db ;;
bad-axis-value)
  expect 2 "bad value 'abc'" "$vb" run --axis nx=abc; no_db
  expect 2 "bad value '1.5'" "$vb" run --axis nx=1.5; no_db
  expect 2 "expected name=v1,v2" "$vb" run --axis nx; no_db ;;
unknown-axis)
  expect 2 "no selected family has an axis 'foo'" "$vb" run --filter 'mesh/*' --axis foo=1; no_db
  expect 2 "hint: did you mean 'model_size'?" "$vb" run --axis size=100; no_db
  expect 2 "hint: did you mean 'nx'?" "$vb" run --filter 'mesh/*' --axis x=10; no_db ;;
axis-out-of-range)
  expect 2 "outside" "$vb" run --axis nx=1; no_db
  expect 2 "outside" "$vb" run --axis nx=1e9; no_db ;;
no-match)
  expect 2 "no variant matches 'nope/*'" "$vb" run --filter 'nope/*'; no_db
  grep -q "did you mean" err && fail "a suggestion for a filter near no variant"
  expect 2 "no variant matches" "$vb" list --filter 'nope/*'
  expect 2 "hint: did you mean 'mesh/device-mesh'?" "$vb" run --filter mesh/devce-mesh; no_db
  expect 2 "hint: did you mean 'mesh/device-mesh'?" "$vb" list --filter mesh/devce-mesh
  expect 2 "hint: did you mean 'gufunc'?" "$vb" list --filter gufnuc ;;
corrupt-db)
  head -c 65536 /dev/urandom > bad.db; cp bad.db bad.db.orig
  expect 3 "not a database" "$vb" run --filter mesh/cpu-reference --axis nx=8 --quick --db bad.db
  grep -q "hint:" err || fail "no hint"
  unchanged bad.db ;;
foreign-db)
  command -v sqlite3 >/dev/null || { echo "sqlite3 CLI not installed"; exit 77; }
  sqlite3 other.db "CREATE TABLE notes(x); INSERT INTO notes VALUES (1);" || fail "sqlite3"
  cp other.db other.db.orig
  expect 3 "not a varbench database" "$vb" run --filter mesh/cpu-reference --axis nx=8 --quick --db other.db
  unchanged other.db ;;
unopenable-db)
  expect 3 "cannot open" "$vb" run --filter mesh/cpu-reference --axis nx=8 --quick --db /nonexistent-dir/x.db
  grep -q "hint:" err || fail "no hint"
  # the database's error alone: nothing about the GPU before it (the run never began)
  grep -q "CUDA" out err && fail "the GPU's lines before the database's error"
  if [ "$(id -u)" -ne 0 ]; then # root writes read-only files, so only a user can test this
    "$vb" run --filter mesh/cpu-reference --axis nx=8 --quick --db ro.db >/dev/null 2>&1
    chmod 444 ro.db; cp ro.db ro.db.orig
    expect 3 "readonly" "$vb" run --filter mesh/cpu-reference --axis nx=8 --quick --db ro.db
    unchanged ro.db
  fi ;;
folder-db)
  mkdir d
  expect 3 "not a regular file" "$vb" run --filter mesh/cpu-reference --axis nx=8 --db d ;;
no-gpu-run)
  "$vb" run --filter 'mesh/*' --axis nx=40 --quick --db r.db >out 2>err; rc=$?
  case $rc in
  4) if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then # a driver, and no GPU or too old
       grep -qE "no CUDA device|older than this varbench's CUDA" err || fail "exit 4 without its reason"
     else # no driver at all (CI): said as such, not as an insufficient one
       grep -q "no CUDA driver: libcuda.so.1 is not installed here" err || fail "no driver, not said so"
       grep -qi "insufficient" err out && fail "a machine without a driver is told it is insufficient"
     fi
     grep -q "no CUDA device: CPU references run" out || fail "no 'no CUDA device' line"
     if ! ldconfig -p 2>/dev/null | grep -q 'libnvidia-ml\.so\.1 '; then # the ledger: once
       [ "$(grep -c '^ledger: no NVML: libnvidia-ml.so.1 cannot be loaded' out)" -eq 1 ] ||
         fail "the ledger's 'no NVML' not said once"
     fi
     grep -q "hint:" err || fail "no hint"
     [ "$(grep -cE '^mesh/[a-z-]+ .* skipped ' out)" -eq 6 ] || fail "expected 6 skipped GPU variants"
     grep -q "mesh/cpu-reference .* ok" out || fail "the CPU reference did not run" ;;
  0) grep -q "device 0:" out || fail "exit 0 but no device line" ;;
  *) fail "exit $rc" ;;
  esac
  [ -s r.db ] || fail "no database written"
  # export's CSV header is the same without a GPU as for a GPU run's (the ladders fixture:
  # floors, crossovers): a script that joins exports joins these
  "$vb" export --db r.db --format csv -o r.csv || fail "export"
  [ "$(head -1 r.csv)" = "$(gzip -dc "$fixtures/export-ladders-h100.csv.gz" | head -1)" ] ||
    fail "a no-GPU run's CSV header is not a GPU run's: $(head -1 r.csv)"
  # a second run appends to the same database
  "$vb" run --filter mesh/cpu-reference --axis nx=8 --quick --db r.db >out 2>err || fail "second run"
  grep -q "varbench run 2 " out || fail "second run is not run 2"
  grep -q "^timing:" err && fail "timing lines without VARBENCH_TIMING"
  # VARBENCH_TIMING: each case that ran, its stages, and their sums beside the run's own
  VARBENCH_TIMING=1 "$vb" run --filter 'calx/cpu-reference' --axis model_size=960,1000 --quick \
    --db t.db >out 2>err || fail "a timed run"
  [ "$(grep -c '^timing: calx/cpu-reference model_size=[0-9]*,smooth_steps=12: setup [0-9.]*, metrics [0-9.]*, verify [0-9.]*, warm-up [0-9.]*, samples [0-9.]*, teardown [0-9.]*, records [0-9.]*, store [0-9.]*; [0-9.]* ms ([0-9]* samples)$' err)" -eq 2 ] ||
    { cat err; fail "not one timing line a case"; }
  grep -q "^timing: 2 cases' stages: setup .*, store [0-9.]* s$" err || fail "no stage sums"
  grep -q "^timing: the run: environment and ceilings [0-9.]* s, cases [0-9.]* s (between them: " err ||
    fail "no run timing"
  if command -v sqlite3 >/dev/null; then
    [ "$(sqlite3 r.db "SELECT count(*) FROM runs WHERE status = 'complete'")" = 2 ] || fail "runs not complete"
    [ "$(sqlite3 r.db "SELECT count(*) FROM cases WHERE run_id = 1")" = 7 ] || fail "run 1 lacks cases"
    [ "$(sqlite3 r.db "SELECT count(*) FROM samples s JOIN cases c ON c.id = s.case_id WHERE c.status = 'ok'")" -gt 0 ] || fail "no samples"
  fi ;;
list)
  expect 0 "mesh/device-mesh-overlap" "$vb" list
  expect 0 "seed: variants/seeds/001_3fd93b66030e3e8a.txt" "$vb" list --filter 'mesh/host-*'
  grep -q "device-mesh-overlap" out && fail "filter not applied"
  true ;;
gpu-mesh-run)
  "$vb" run --filter 'mesh/*' --axis nx=200,500 --quick --db g.db >out 2>err; rc=$?
  [ "$rc" -eq 4 ] && { echo "no GPU: skipped"; exit 77; }
  [ "$rc" -eq 0 ] || fail "exit $rc"
  [ "$(grep -cE '^mesh/.* ok ' out)" -eq 14 ] || fail "not every mesh case ok"
  # the sweep's crossover, under the run's summary
  # ... and again without its graph rung (mesh/device-mesh-graph)
  grep -qE '^  mesh: the GPU wins (from nx ~ [0-9]+ \(between 200 and 500\)|at every size, from nx=200|at no size up to nx=500), without its graph rung (from nx ~ [0-9]+ \(between 200 and 500\)|at every size, from nx=200|at no size up to nx=500)$' out ||
    fail "no crossover line for mesh"
  # issue 57: the board's NVML periods measured at the run's start; --energy runs a 0.1 ms case
  # long enough for its energy within 10% (10 updates of the counter), its uncertainty stored
  grep -q "^NVML: energy counter every [0-9.]* ms" out || fail "no NVML periods with the device line"
  expect 0 "mesh/device-mesh" "$vb" run --filter mesh/device-mesh --axis nx=200 --energy --no-metrics --db e.db
  grep -qE "^    ledger: [0-9.]+ J \+- [0-9.e-]+ over [0-9.]+ s, .* W \+- [0-9]+;" out ||
    fail "--energy: no energy +- its uncertainty: $(grep ledger: out)"
  grep -q "^NVML: idle draw [0-9.]* W +- " out && grep -qE "ledger: .* above the idle draw \([0-9]+ W \+- [0-9]+\): " out ||
    fail "--energy: no idle draw, or no energy above it: $(grep -E '^NVML|ledger:' out)"
  python3 - e.db <<'PY' || fail "--energy: the case's energy not within 10%"
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
e, u, note, per = con.execute(
    "SELECT c.energy_j, c.energy_unc_j, c.ledger_note, g.energyPeriodMs FROM cases c JOIN "
    "TARGET_INFO_GPU g ON g.run_id = c.run_id AND g.id = c.device_id WHERE c.device_id >= 0").fetchone()
print('energy %s J +- %s, counter every %s ms, note %s' % (e, u, per, note))
sys.exit(0 if e and u and per and u <= 0.1 * e else 1)
PY
  ;;
gpu-graph-metrics)
  # the graph rungs' counters: their calls issued one by one outside the graph (the SASS
  # counters under kernel replay, the DRAM and L2 counters in the second sweep, user replay),
  # said on the case; every graph case has them, and its store efficiency is its non-graph
  # sibling's (the same kernels: a graph launch read 0.0% under kernel replay)
  "$vb" run --filter '*/*-graph' --quick --metrics default --db g.db >out 2>err; rc=$?
  [ "$rc" -eq 4 ] && { echo "no GPU: skipped"; exit 77; }
  [ "$rc" -eq 0 ] || fail "exit $rc"
  grep -q "second sweep failed" out && fail "the second sweep failed: $(grep -A2 'second sweep' out)"
  n=$(grep -cE '^(calx/tiled-graph|mesh/device-mesh-graph) .* ok ' out)
  [ "$n" -ge 2 ] || fail "graph cases not ok ($n)"
  grep -q "^metrics pass: $n graph rungs' counters: measured on the graph's calls issued one by one outside the graph" out ||
    fail "no line for the graph rungs' counters: $(grep '^metrics pass' out)"
  for sib in calx/tiled-async mesh/device-mesh-pinned; do
    "$vb" run --filter "$sib" --quick --metrics default --db g.db >out.sib 2>&1 || fail "$sib: $(tail -n 3 out.sib)"
  done
  python3 - g.db "$n" <<'PY' || fail "a graph case lacks its DRAM bytes or its note"
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
rows = con.execute(
    "SELECT c.id, c.metrics_status, c.metrics_reason, "
    " (SELECT count(*) FROM metrics m WHERE m.case_id = c.id AND m.metric = 'dram__bytes_read.sum' AND m.value > 0), "
    " (SELECT count(*) FROM metrics m WHERE m.case_id = c.id AND m.metric LIKE 'smsp__sass%') "
    "FROM cases c JOIN variants v ON v.id = c.variant_id WHERE v.needs_gpu = 1 AND v.name LIKE '%-graph'").fetchall()
assert len(rows) == int(sys.argv[2]), rows
for r in rows:
    assert r[1] == 'ok' and 'outside the graph' in (r[2] or ''), r
    assert r[3] >= 1 and r[4] >= 1, r
print('%d graph cases with DRAM bytes and SASS metrics' % len(rows))
# each graph rung's store efficiency against its sibling's at the same point (within 1 point)
eff = {}
for v, axes, g in con.execute(
        "SELECT v.family || '/' || v.name, c.axes, c.gst_efficiency FROM cases c "
        "JOIN variants v ON v.id = c.variant_id WHERE v.needs_gpu = 1"):
    eff[(v, axes)] = g
    print('%-28s %-24s gst_efficiency %s' % (v, axes, g))
pairs = {'calx/tiled-graph': 'calx/tiled-async', 'mesh/device-mesh-graph': 'mesh/device-mesh-pinned'}
for (v, axes), g in eff.items():
    if v in pairs:
        s = eff.get((pairs[v], axes))
        assert g is not None and s is not None and abs(g - s) <= 1, (v, axes, g, pairs[v], s)
PY
  ;;
worker-usage)
  # --worker is what a --device all run passes its workers: a bad one is a usage error, a
  # worker without a device says so, and neither makes a run
  expect 2 "--worker '1:x': RUN:DEVICE" "$vb" run --worker 1:x
  expect 2 "--worker '0:0': RUN:DEVICE" "$vb" run --worker 0:0
  no_db
  "$vb" run --worker 1:0 --db w.db >out 2>err; rc=$?
  if [ "$rc" -eq 4 ]; then
    grep -q "a worker for device 0, and no CUDA device here" err || fail "no reason"
    [ ! -e w.db ] || fail "a worker without a device made a database"
  else # a GPU here: the run to join does not exist
    [ "$rc" -eq 2 ] || fail "exit $rc"
    grep -q "has no run 1" err || fail "no reason"
  fi ;;
gpu-device-all)
  # every device at once: one worker process each into one run, the CPU case after them
  "$vb" run --device all --filter 'mesh/*' --axis nx=500 --quick --db a.db >out 2>err; rc=$?
  [ "$rc" -eq 4 ] && { echo "no GPU: skipped"; exit 77; }
  [ "$rc" -eq 0 ] || fail "exit $rc"
  ndev=$(grep -oE '^\[gpu [0-9]+\] mesh/' out | sort -u | wc -l)
  [ "$ndev" -ge 1 ] || fail "no worker's case lines"
  [ "$(grep -cE '^\[gpu [0-9]+\] mesh/.* ok ' out)" -eq $((6 * ndev)) ] || fail "GPU cases not ok on every device"
  grep -qE '^mesh/cpu-reference .* ok ' out || fail "the CPU case did not run in the parent"
  grep -q "^workers: gpu 0 " out || fail "no workers line"
  grep -q "stored in a.db: $((6 * ndev + 1)) cases: $((6 * ndev + 1)) ok" out || fail "tally"
  "$vb" runs --db a.db >runs 2>&1 && grep -q " complete " runs || fail "run not complete: $(cat runs)"
  expect 2 "has no run 9" "$vb" run --worker 9:0 --db a.db
  # interrupted: the parent alone gets SIGINT; its workers stop, the run is 'interrupted' (130),
  # and no worker outlives it
  "$vb" run --device all --filter 'mesh/*' --axis nx=4000 --db i.db >out 2>err & pid=$!
  for _ in $(seq 600); do grep -q '^\[gpu 0\] mesh/' out && break; sleep 0.1; done
  grep -q '^\[gpu 0\] mesh/' out || { kill -9 $pid; fail "no case in 60 s"; }
  kill -INT $pid; wait $pid; rc=$?
  [ "$rc" -eq 130 ] || fail "interrupted run exited $rc"
  grep -q "interrupted" out || fail "not stored as interrupted"
  pgrep -f -- "--db i.db --worker" >/dev/null && fail "a worker outlived its parent"
  "$vb" runs --db i.db >runs 2>&1 && grep -q " interrupted " runs || fail "run not interrupted: $(cat runs)"
  true ;;
compare-codes)
  "$vbtest" make_fixtures "$tmp" >/dev/null || fail "fixtures"
  expect 1 "slower" "$vb" compare base.db slow10.db
  grep -qE "^mesh/device-mesh .*\+10\.[0-9]%.* slower" out || fail "the slower case is not named"
  grep -q "REGRESSION (exit 1)" out || fail "no regression line"
  expect 1 "| mesh/device-mesh |" "$vb" compare --format md --junit j.xml base.db slow10.db
  grep -q '<failure message="slower' j.xml || fail "junit has no failure"
  [ "$(grep -c '<testcase' j.xml)" -eq 3 ] || fail "junit lacks cases"
  expect 0 "no regression (exit 0)" "$vb" compare base.db same2.db
  expect 7 "INCONCLUSIVE (exit 7)" "$vb" compare base.db few.db
  grep -qE "^mesh/device-mesh-pinned .* noisy" out || fail "too few samples not called noisy"
  expect 2 "different GPU models" "$vb" compare base.db h100.db
  expect 0 "hardware comparison" "$vb" compare --across-devices base.db h100.db
  expect 1 "slower (D2H +2" "$vb" compare phase.db d2h.db
  expect 2 "candidate run 2 is 'running'" "$vb" compare --cand-run 2 phase.db running.db
  expect 7 "nothing was compared on the GPU" "$vb" compare nogpu.db nogpu.db
  expect 7 "INCONCLUSIVE" "$vb" compare --across-devices nogpu.db nogpu.db
  expect 3 "does not exist" "$vb" compare base.db missing.db
  head -c 4096 /dev/urandom > junk.db
  expect 3 "not a database" "$vb" compare base.db junk.db
  expect 2 "bad --threshold" "$vb" compare --threshold x base.db same2.db
  # a run id that does not exist is an input error, never a pass
  expect 2 "has no run 99" "$vb" compare --base-run 99 --cand-run 98 base.db base.db
  expect 2 "has no run 98" "$vb" compare --cand-run 98 base.db same2.db ;;
exit-codes)
  # one exit-code table for every command: each --help prints the lines of varbench --help's
  # table for the codes it returns, and each kind of failure gets its one code everywhere
  "$vbtest" make_fixtures "$tmp" >/dev/null || fail "fixtures"
  expect 0 "exit codes" "$vb" --help
  sed -n '/^exit codes/,$p' out | grep -E '^  [0-9]' > table || fail "no exit-code table"
  [ "$(wc -l < table)" -eq 9 ] || fail "the table does not have 9 codes"
  for cmd in list run compare history merge migrate export report trace summary runs fleet diagnose; do
    expect 0 "exit codes (one table for every command" "$vb" "$cmd" --help
    sed -n '/^exit codes/,$p' out | grep -E '^  [0-9]' > mine
    [ -s mine ] || fail "$cmd --help lists no exit code"
    while IFS= read -r line; do
      grep -qxF -- "$line" table || fail "$cmd --help's '$line' is not in varbench --help's table"
    done < mine
    expect 2 "unknown option '--frob'" "$vb" "$cmd" --frob
    grep -q "(see 'varbench $cmd --help')" err || fail "$cmd: no pointer to its --help"
  done
  no_db
  # one code for one kind of failure in every command that can meet it, printed as a matrix:
  # 3 the file (missing, not a database), 2 what was asked (a run the file does not hold)
  head -c 4096 /dev/urandom > junk.db
  cell() { # cell EXPECTED CMD...: run CMD, require EXPECTED, print it
    "${@:2}" >out 2>err; local rc=$?
    [ "$rc" -eq "$1" ] || fail "'${*:2}' exited $rc, expected $1"
    printf ' %-12s' "$rc"
  }
  printf '%-8s %-12s %-12s %-12s %-12s\n' command "missing db" "corrupt db" "no run 99" "run id 1e20"
  for cmd in export summary report runs history compare merge; do
    printf '%-8s' "$cmd"
    for db in missing.db junk.db; do
      case $cmd in
        export) cell 3 "$vb" export --db $db --format csv ;;
        summary|runs|history) cell 3 "$vb" $cmd --db $db ;;
        report) cell 3 "$vb" report --db $db --no-plots -o rep ;;
        compare) cell 3 "$vb" compare base.db $db ;;
        merge) cell 3 "$vb" merge out.db $db ;;
      esac
      grep -q "$db" err || fail "$cmd does not name '$db'"
    done
    for id in 99 99999999999999999999; do
      case $cmd in
        export) cell 2 "$vb" export --db base.db --run $id --format csv ;;
        summary) cell 2 "$vb" summary --db base.db --run $id ;;
        report) cell 2 "$vb" report --db base.db --run $id --no-plots -o rep ;;
        compare) cell 2 "$vb" compare --base-run $id base.db base.db ;;
        *) printf ' %-12s' -; : > err ;;
      esac
      [ "$id" != 99 ] || [ ! -s err ] || grep -q "varbench runs" err ||
        fail "$cmd: no hint naming 'varbench runs'"
    done
    echo
  done
  [ ! -e missing.db ] || fail "a reader created the missing database"
  expect 2 "bad --run" "$vb" summary --db base.db --run 0
  expect 2 "is given twice" "$vb" export --db base.db --db base.db --format csv
  # 7: compare's inconclusive, and only compare's
  expect 7 "INCONCLUSIVE (exit 7)" "$vb" compare base.db few.db ;;
merge-export)
  "$vbtest" make_fixtures "$tmp" >/dev/null || fail "fixtures"
  cp base.db base.db.orig
  expect 0 "base.db: 1 run added to all.db" "$vb" merge all.db base.db h100.db
  expect 0 "base.db: 0 runs added to all.db" "$vb" merge all.db base.db
  unchanged base.db
  expect 3 "does not exist" "$vb" merge all.db nope.db
  expect 2 "expected OUT.db" "$vb" merge all.db
  expect 0 "run_uuid,run_id,variant" "$vb" export --db all.db --run 1 --format csv
  [ "$(wc -l < out)" -eq 4 ] || fail "csv: expected a header and 3 rows"
  "$vb" export --db all.db --format json -o b.json || fail "json export"
  if command -v python3 >/dev/null; then
    python3 -c "import json,sys; d=json.load(open('b.json')); b=d['benchmarks']; assert d['context']['gpu']=='NVIDIA H100 80GB HBM3'; assert len(b)==12, len(b); assert b[1]['aggregate_name']=='median' and b[1]['run_name']=='mesh/host-mesh/nx:1000/ny:1000', b[1]" || fail "json layout"
  fi
  expect 2 "--format is needed" "$vb" export --db all.db
  expect 2 "has no run 9" "$vb" export --db all.db --run 9 --format csv ;;
report)
  # the report from two GPU models merged: every plot, escaped names, rendered in Chromium
  command -v gnuplot >/dev/null || { echo "gnuplot not installed"; exit 77; }
  "$vbtest" make_fixtures "$tmp" >/dev/null || fail "fixtures"
  "$vb" merge all.db base.db h100.db >/dev/null || fail "merge"
  expect 0 "report: rep/index.html" "$vb" report --db all.db -o rep
  for f in index.html report.md; do [ -s "rep/$f" ] || fail "no $f"; done
  n=$(grep -o '<img class="plot" src="fig[0-9]*.svg"' rep/index.html | wc -l)
  [ "$n" -ge 3 ] || fail "only $n plots"
  for s in $(grep -o 'fig[0-9]*\.svg' rep/index.html | sort -u); do [ -s "rep/$s" ] || fail "missing $s"; done
  grep -q "Hardware comparison" rep/report.md || fail "no hardware comparison"
  # two runs of one GPU model are no hardware comparison (the spread's section has them)
  "$vb" merge one.db base.db same2.db >/dev/null || fail "merge"
  expect 0 "report: rep1/index.html" "$vb" report --db one.db --run 1 --run 2 -o rep1 --no-plots
  grep -q "Hardware comparison\|, by bound" rep1/report.md && fail "a hardware comparison of one GPU model"
  grep -q "&lt;b&gt;fixture&amp;host&lt;/b&gt;" rep/index.html || fail "host name not escaped"
  grep -q "<b>fixture" rep/index.html && fail "raw HTML from the database"
  grep -q "<b>fixture" rep/report.md && fail "raw HTML in report.md"
  # a database crafted to break out of gnuplot's quotes runs nothing
  if command -v sqlite3 >/dev/null; then
    cp all.db evil.db
    sqlite3 evil.db "UPDATE cases SET axes = 'nx'';system ''touch $tmp/PWNED'';#=' || (id % 2 + 1)" || fail "sqlite3"
    "$vb" report --db evil.db -o evil >/dev/null 2>&1
    [ ! -e "$tmp/PWNED" ] || fail "gnuplot ran a command from the database"
    # the default run is the newest by start time (as export's), not the one merged last
    "$vb" merge new.db same2.db base.db >/dev/null || fail "merge"
    sqlite3 new.db "UPDATE runs SET start_utc = '2020-01-01T00:00:00.000Z' WHERE id = 2" ||
      fail "sqlite3"
    expect 0 "report: newest/index.html" "$vb" report --no-plots --db new.db -o newest
    grep -q "^run 1 (" newest/report.md && ! grep -q "^run 2 (" newest/report.md ||
      fail "the report does not take the newest run"
    # a stored store efficiency is shown, and then not said to be missing
    cp all.db gst.db
    sqlite3 gst.db "UPDATE cases SET gst_efficiency = 87.5, metrics_status = 'ok' WHERE id = 2" ||
      fail "sqlite3"
    expect 0 "report: gst/index.html" "$vb" report --no-plots --db gst.db -o gst
    grep -q "| mesh/device-mesh | nx=1000,ny=1000 | NVIDIA H200 | 1 | 87.5 |" gst/report.md ||
      fail "the stored store efficiency is not shown"
    grep -q "none stored" gst/report.md && fail "'none stored' beside a stored metric"
    # two boards of one model: run 2's GPU cases again on a device 1, 20% slower
    cp all.db two.db
    sqlite3 two.db "CREATE TEMP TABLE g AS SELECT * FROM TARGET_INFO_GPU WHERE run_id = 2;
      UPDATE g SET id = 1, busLocation = '0000:99:00.0'; INSERT INTO TARGET_INFO_GPU SELECT * FROM g;
      CREATE TEMP TABLE k AS SELECT * FROM cases WHERE run_id = 2 AND device_id = 0;
      UPDATE k SET id = id + 100000, device_id = 1, e2e_median_ns = e2e_median_ns * 1.2,
        kernel_median_ns = kernel_median_ns * 1.2; INSERT INTO cases SELECT * FROM k;" ||
      fail "sqlite3"
    expect 0 "Boards of one model" "$vb" report --no-plots --db two.db --run 2 -o two
    grep -q "^### NVIDIA H100 80GB HBM3: 2 boards" two/report.md || fail "no board spread"
    grep -q "The slowest board most often: .*fixture.*host.* run 2 device 1 0000:99:00.0, in 3 of 3 cases" \
      two/report.md || fail "the slow board is not named"
    grep -q "^### mesh on device 1 at nx=1000,ny=1000" two/report.md || fail "no ladder per device"
  fi
  grep -q "global store efficiency): none stored" rep/report.md || fail "no 'none stored'"
  # sweeps come from the structured axes (case_axes): a plot over nx, the zipped ny left out
  "$vb" run --quick --filter mesh/cpu-reference --axis nx=8,16,24 --db sweep.db >/dev/null 2>&1 ||
    fail "run"
  expect 0 "report: sweep/index.html" "$vb" report --db sweep.db -o sweep
  grep -q "^!\[mesh over nx on the CPU: .*(fig[0-9]*.svg)$" sweep/report.md || fail "no sweep over nx"
  if command -v sqlite3 >/dev/null; then # an axis name crafted against gnuplot's quotes
    sqlite3 sweep.db "UPDATE case_axes SET name = 'nx'';system ''touch $tmp/PWNED'';#'
      WHERE name = 'nx'" || fail "sqlite3"
    "$vb" report --db sweep.db -o evil2 >/dev/null 2>&1
    [ ! -e "$tmp/PWNED" ] || fail "gnuplot ran a command from an axis name"
  fi
  expect 2 "has a quote" "$vb" report --db all.db -o "it's"
  expect 2 "no run 99" "$vb" report --db all.db --run 99 -o rep2
  VARBENCH_GNUPLOT=/nonexistent/gnuplot "$vb" report --db all.db -o rep3 >out 2>err
  [ $? -eq 6 ] && grep -q "gnuplot" err || fail "missing gnuplot not reported"
  python3 "$(dirname "$0")/report_check.py" rep --require ladder,hardware \
    --escaped '<b>fixture&host</b>' || fail "chromium check"
  # the timeline of a traced program's records and the history of 15 runs with a step at the 6th
  "$vbtest" make_trace_fixture "$tmp" >/dev/null || fail "fixture"
  expect 0 "report: trep/index.html" "$vb" report --db trace.db -o trep
  python3 "$(dirname "$0")/report_check.py" trep --require timeline,traced || fail "chromium trace"
  "$vbtest" make_history_fixture "$tmp" >/dev/null || fail "fixture"
  expect 0 "History" "$vb" report --db history.db -o hrep
  grep -q "1.85x slower" hrep/report.md || fail "the history's change point is not in the table"
  python3 "$(dirname "$0")/report_check.py" hrep --require history || fail "chromium history" ;;
compare-boards)
  # a 3-board run (node-b, device 1 20% slower) against a one-board run: refused without a
  # device, judged per board with one, the board table under --across-devices
  "$vbtest" make_boards_fixture "$tmp" >/dev/null || fail "fixtures"
  expect 2 "candidate run 1 has cases on 3 devices (0, 1, 2)" \
    "$vb" compare --cand-run 1 boards-one.db boards-fleet.db
  grep -q "hint: pass --cand-device N (or --device N for both sides)" err || fail "no hint"
  expect 2 "no GPU case on device 7 (its devices: 0, 1, 2)" \
    "$vb" compare --cand-run 1 --cand-device 7 boards-one.db boards-fleet.db
  expect 2 "--device 0 names both sides' device" \
    "$vb" compare --device 0 --cand-device 1 boards-one.db boards-fleet.db
  expect 1 "REGRESSION (exit 1)" "$vb" compare --cand-run 1 --cand-device 1 boards-one.db boards-fleet.db
  grep -q "vs candidate run 1 device 1 (NVIDIA H200)" out || fail "the device judged is not named"
  grep -q "^1 same, 3 slower" out || fail "device 1 is not 3 slower"
  expect 0 "no regression (exit 0)" "$vb" compare --cand-run 1 --cand-device 0 boards-one.db boards-fleet.db
  expect 0 "hardware comparison (exit 0)" \
    "$vb" compare --across-devices --cand-run 1 boards-one.db boards-fleet.db
  grep -q "candidate run 1 has cases on 3 devices (0, 1, 2): verdicts on device 0" out ||
    fail "the device chosen is not said"
  grep -q "^boards of NVIDIA H200 in the candidate run 1: 3$" out || fail "no board table"
  grep -qE "^mesh/host-mesh +nx=1000,ny=1000 +3 +[0-9.]+ +[0-9.]+ +24\.[0-9]+ +1\.2[0-9]+  node-b run 1 device 1 0000:28:00\.0$" out ||
    fail "the board row does not name the slow board"
  grep -q "^slowest most often: node-b run 1 device 1 0000:28:00.0, in 3 of 3 cases$" out ||
    fail "no slowest-most-often line"
  grep -q "^boards of .* in the base" out && fail "a board table for a one-board side"
  expect 0 "| mesh/device-mesh | nx=1000,ny=1000 | 3 |" \
    "$vb" compare --across-devices --format md --cand-run 1 boards-one.db boards-fleet.db
  grep -q "^\*\*boards of NVIDIA H200 in the candidate run 1: 3\*\*$" out || fail "no Markdown table"
  # one database both sides: one table
  expect 0 "boards of NVIDIA H200 in the base and candidate run 1: 3" \
    "$vb" compare --across-devices boards-base.db boards-base.db
  [ "$(grep -c "^boards of" out)" -eq 1 ] || fail "the same run's table twice"
  expect 0 "--base-device N" "$vb" compare --help ;;
diagnose)
  # a fleet (node-b: 3 H200, device 1 20% slower; node-c: one H100) against node-a's 3 H200
  "$vbtest" make_boards_fixture "$tmp" >/dev/null || fail "fixtures"
  expect 1 "1 of 3 boards flagged; 1 not judged: model not in the baseline (exit 1)" \
    "$vb" diagnose --baseline boards-base.db boards-fleet.db
  grep -qE "^node-b run 1 device 1 0000:28:00.0 +NVIDIA H200 +3 +1  mesh/device-mesh-pinned .* +\+(19|20|21)\.[0-9]%  FLAGGED$" out ||
    fail "the slow board is not flagged"
  [ "$(grep -c "FLAGGED" out)" -eq 1 ] || fail "more than the slow board flagged"
  grep -qE "^node-c run 2 device 0 .* not judged \(model NVIDIA H100 80GB HBM3 not in baseline\)$" out ||
    fail "the H100 is not listed as not judged"
  grep -qE "^    mesh/device-mesh-pinned nx=1000,ny=1000: 0\.1[01][0-9]+ ms, baseline 0\.09[0-9]+ ms, range .*margin 5\.0%" out ||
    fail "the cases outside are not listed"
  expect 0 "0 of 3 boards flagged (exit 0)" "$vb" diagnose --baseline boards-base.db boards-rerun.db
  expect 0 "0 of 3 boards flagged (exit 0)" "$vb" diagnose --baseline boards-base.db boards-base.db
  expect 0 "0 of 3 boards flagged" "$vb" diagnose --threshold 25 --baseline boards-base.db boards-fleet.db
  expect 1 "| **FLAGGED** |" "$vb" diagnose --format md --baseline boards-base.db boards-fleet.db
  # a one-board baseline: its range is its board widened by the margin (device 2, +4%, is in)
  expect 1 "1 of 3 boards flagged" "$vb" diagnose --baseline boards-one.db boards-fleet.db
  grep -q "baseline 'boards-one.db' run 1 (NVIDIA H200: 1 board)" out || fail "no one-board baseline"
  # an interrupted run: left out and named; named with --run: refused
  expect 0 "not complete, left out of the fleet: run 2 ('interrupted')" \
    "$vb" diagnose --baseline boards-base.db boards-cut.db
  expect 2 "fleet run 2 is a suite run, 'interrupted': diagnose reads complete suite runs" \
    "$vb" diagnose --run 2 --baseline boards-base.db boards-cut.db
  expect 2 "the fleet database has no run 9" "$vb" diagnose --run 9 --baseline boards-base.db boards-cut.db
  expect 2 "no GPU model in common: the baseline has NVIDIA H200: 3 boards, the fleet NVIDIA H100" \
    "$vb" diagnose --baseline boards-base.db boards-h100.db
  grep -q "hint: diagnose boards against a baseline of their own GPU model" err || fail "no hint"
  expect 2 "--baseline B.db is required" "$vb" diagnose boards-fleet.db
  expect 2 "unknown option '--frob'" "$vb" diagnose --frob
  expect 3 "does not exist" "$vb" diagnose --baseline missing.db boards-fleet.db
  head -c 4096 /dev/urandom > junk.db
  expect 3 "not a database" "$vb" diagnose --baseline boards-base.db junk.db
  # its --help: the rule, and exit codes from the one table
  expect 0 "above that range widened by the margin" "$vb" diagnose --help
  "$vb" --help | sed -n '/^exit codes/,$p' | grep -E '^  [0-9]' > table
  sed -n '/^exit codes/,$p' out | grep -E '^  [0-9]' > mine
  [ "$(wc -l < mine)" -eq 5 ] || fail "diagnose --help does not list 5 exit codes"
  while IFS= read -r line; do grep -qxF -- "$line" table || fail "'$line' is not in the table"; done < mine
  expect 0 "diagnose   boards of a fleet" "$vb" --help
  no_db ;;
report-cpu-only)
  # a run without a GPU: skipped is not wrong, each problem's ladder apart, no floor claimed
  command -v gnuplot >/dev/null || { echo "gnuplot not installed"; exit 77; }
  CUDA_VISIBLE_DEVICES= "$vb" run --quick --filter 'ufunc/[gc]*' --axis n=100000,200000 --db cpu.db \
    >/dev/null 2>&1
  [ $? -eq 4 ] || fail "the run without a GPU did not exit 4"
  expect 0 "ladders: none" "$vb" report --db cpu.db -o rep
  grep -q "18 GPU cases skipped: no CUDA device" rep/report.md || fail "the no-GPU reason is not shown"
  # said once a family, not once a rung; what ran (the CPU references) first; no one-bar ladder
  grep -q "gaussian-host was skipped" rep/report.md && fail "a skip said once a rung"
  grep -q "No GPU in this run: its 18 GPU cases were recorded as skipped" rep/report.md ||
    fail "the answer does not say there was no GPU"
  grep -q "| ufunc/gaussian | n=100000 | gaussian-cpu | [0-9.]* | [0-9]* | ok (the oracle) |" \
    rep/report.md || fail "the CPU reference's time is not in the answer"
  grep -q "Per problem at its largest size" rep/report.md && fail "the answer table explained, absent"
  grep -q "the ladder\](fig" rep/report.md && fail "a ladder of one bar"
  grep -q "| gaussian-host | skipped |.* 0.000 |" rep/report.md && fail "a skipped case's time 0.000"
  grep -qi "wrong" rep/report.md && fail "'wrong' in the report of a run with no wrong case"
  grep -q 'class="bad"' rep/index.html && fail "a skipped case marked red"
  grep -q "clamp-cpu against gaussian-cpu" rep/report.md && fail "two problems compared"
  grep -q "floors" rep/report.md && fail "floors claimed where none is drawn"
  grep -q "^### ufunc/clamp at n=100000" rep/report.md || fail "no section of the clamp problem"
  python3 "$(dirname "$0")/report_check.py" rep --require sweep || fail "chromium check" ;;
fleet-usage)
  # fleet submit --dry-run prints both scripts and writes nothing; a folder and options with
  # spaces, quotes, '$', '`' and '\' come back out of the script's shell words byte for byte;
  # what Slurm cannot take is refused by name; a missing sbatch, squeue or sacct is exit 6
  expect 0 "usage: varbench fleet" "$vb" fleet --help
  expect 0 "--gpus-per-node G" "$vb" fleet submit --help
  expect 2 "'frob' is not a fleet subcommand" "$vb" fleet frob
  expect 2 "--dir DIR is needed" "$vb" fleet submit --dry-run
  expect 2 "expected DIR" "$vb" fleet status
  d="$tmp/a b/it's \$HOME \`x\` \\z"
  expect 0 "#SBATCH --array=0-2" "$vb" fleet submit --dry-run --nodes 3 --gpus-per-node 4 \
    --partition gpu --time 1:00:00 --account proj --dir "$d" -- --filter 'mesh/*' --axis nx=8 "it's \$y"
  [ ! -e "$tmp/a b" ] || fail "--dry-run created the folder"
  for l in '#SBATCH --gres=gpu:4' '#SBATCH --partition=gpu' '#SBATCH --time=1:00:00' \
    '#SBATCH --account=proj' '#SBATCH --exclusive' '#SBATCH --output=logs/%A_%a.out' \
    '#SBATCH --output=logs/merge_%j.out'; do
    grep -qxF -- "$l" out || fail "no line '$l'"
  done
  sed -n '/^# .*task.sbatch/,/^# .*merge.sbatch/p' out | sed '1d;$d' > task.sh
  sed -n '/^# .*merge.sbatch/,$p' out | sed 1d > merge.sh
  bash -n task.sh && bash -n merge.sh || fail "a script is not valid bash"
  [ "$(bash -c "$(grep '^dir=' task.sh); printf %s \"\$dir\"")" = "$d" ] || fail "task.sh's dir is not the folder"
  [ "$(bash -c "$(grep '^dir=' merge.sh); printf %s \"\$dir\"")" = "$d" ] || fail "merge.sh's dir is not the folder"
  printf '#!/bin/sh\nprintf "%%s\\n" "$@"\n' > argv.sh && chmod +x argv.sh
  vb="$tmp/argv.sh" db=D bash -c "$(grep '^"$vb" run' task.sh | sed 's/ &$//')" > args ||
    fail "the run line does not run"
  printf '%s\n' run --device all --db D --filter 'mesh/*' --axis nx=8 "it's \$y" > want
  cmp -s args want || { diff want args; fail "the run line's words are not the options given"; }
  grep -q "fleet merge \"\$dir\"" merge.sh || fail "merge.sh does not run fleet merge"
  expect 2 "holds a control character" "$vb" fleet submit --dry-run --dir "$tmp/x
y"
  expect 2 "holds a '%'" "$vb" fleet submit --dry-run --dir "$tmp/x%A"
  expect 2 "run option '--db' is set by fleet" "$vb" fleet submit --dry-run --dir x -- --db y.db
  expect 2 "run option '--device=0' is set by fleet" "$vb" fleet submit --dry-run --dir x -- --device=0
  expect 2 "--partition 'a b' is not a Slurm name" "$vb" fleet submit --dry-run --partition 'a b' --dir x
  expect 2 "unknown option" "$vb" fleet submit --dir x --frob
  expect 6 "sbatch not found on PATH" env PATH=/nonexistent "$vb" fleet submit --dir "$tmp/f" -- --quick
  grep -q "hint: install Slurm's client commands (Debian: apt-get install slurm-client)" err ||
    fail "no hint for a missing sbatch"
  [ ! -e "$tmp/f" ] || fail "a refused submit created the folder"
  expect 2 "holds no fleet" "$vb" fleet status "$tmp"
  mkdir f && printf 'tasks=2\narray_job=7\nmerge_job=8\n' > f/fleet.conf
  expect 6 "squeue and sacct not found on PATH" env PATH=/nonexistent "$vb" fleet status f
  no_db ;;
fleet-fake-slurm)
  # fleet against fake sbatch, squeue and sacct (the real cluster is cpu.slurm.fleet): what
  # submit asks sbatch, and how status and merge judge each task: complete, a run left
  # 'running' by a writer killed mid-write (read and merged from its -wal, never complete, in
  # fleet.db too), a task
  # cancelled before it wrote anything, one still pending; sacct refused (no accounting):
  # squeue's states, array ranges included
  mkdir bin
  cat > bin/sbatch <<'FAKE'
#!/bin/sh
n=$(cat "$FAKE/n" 2>/dev/null || echo 41); echo $((n + 1)) > "$FAKE/n"
echo "$(pwd)|$*" >> "$FAKE/sbatch.log"; echo "$n;cluster"
FAKE
  printf '#!/bin/sh\ncat "$FAKE/squeue.txt" 2>/dev/null; exit 0\n' > bin/squeue
  printf '#!/bin/sh\n[ -f "$FAKE/sacct.txt" ] || { echo "Slurm accounting storage is disabled" >&2; exit 1; }\ncat "$FAKE/sacct.txt"\n' > bin/sacct
  chmod +x bin/*
  export FAKE=$tmp PATH="$tmp/bin:$PATH"
  expect 0 "array job 41 submitted: 4 tasks" "$vb" fleet submit --nodes 4 --dir f -- --filter mesh/cpu-reference
  grep -q "merge job 42 submitted" out || fail "no merge job"
  [ "$(cat sbatch.log)" = "$tmp/f|--parsable task.sbatch
$tmp/f|--parsable --dependency=afterany:41 merge.sbatch" ] || { cat sbatch.log; fail "sbatch was not asked as expected"; }
  grep -qx "array_job=41" f/fleet.conf && grep -qx "merge_job=42" f/fleet.conf && grep -qx "tasks=4" f/fleet.conf ||
    fail "fleet.conf does not record the jobs"
  [ -x f/task.sbatch ] && [ -x f/merge.sbatch ] && [ -d f/runs ] && [ -d f/logs ] || fail "scripts or folders missing"
  expect 2 "holds a fleet already (array job 41)" "$vb" fleet submit --dir f
  "$vb" run --quick --filter mesh/cpu-reference --axis nx=8 --db f/runs/n0-41_0.db >/dev/null 2>&1 || fail "run 0"
  # task 1's writer killed (SIGKILL) inside its case's write: its run stays 'running', its -wal
  # and -shm files are left behind
  VARBENCH_TEST_KILL_IN_WRITE=1 "$vb" run --quick --filter mesh/cpu-reference --axis nx=8 \
    --db f/runs/n1-41_1.db >/dev/null 2>&1
  [ $? -eq 137 ] || fail "task 1's writer was not killed"
  [ -e f/runs/n1-41_1.db-wal ] || fail "the killed writer left no -wal file"
  "$vb" run --quick --filter mesh/cpu-reference --axis nx=8 --db f/runs/n9-40_1.db >/dev/null 2>&1 || fail "run of another job"
  printf '41_0|COMPLETED|n0|0:0\n41_1|NODE_FAIL|n1|0:0\n41_2|CANCELLED by 0|None assigned|0:0\n41_[3]|PENDING|None assigned|0:0\n42|PENDING|None assigned|0:0\n' > sacct.txt
  printf '41_3|PENDING|\n42|PENDING|\n' > squeue.txt
  expect 1 "merge job 42: PENDING" "$vb" fleet status f
  for l in "failed: task 1 (run 'running' with 0 cases, but the task ended: NODE_FAIL (its writer was killed))" \
    "missing: task 2 (no database: CANCELLED)" "running: task 3 (PENDING)" \
    "tasks: 1 complete, 1 running, 1 missing, 1 failed (of 4)"; do
    grep -qxF -- "$l" out || fail "status does not say '$l'"
  done
  grep -qE '^0 +n0 +COMPLETED +complete +1  runs/n0-41_0.db$' out || fail "task 0's row"
  expect 1 "1 run added" "$vb" fleet merge f
  [ "$(sqlite3 f/fleet.db "SELECT group_concat(status, ' ') FROM (SELECT status FROM runs ORDER BY status)")" = "complete running" ] ||
    fail "fleet.db does not hold the complete run and the dead one as 'running'"
  grep -q "missing: task 2 (no database: CANCELLED)" f/report/report.md || fail "the report does not name task 2"
  grep -q "failed: task 1 (run &#39;running&#39;" f/report/index.html || fail "the report does not name task 1"
  grep -q "fewer than two complete runs" f/report/across-devices.txt || fail "across-devices.txt"
  grep -q "tasks: 1 complete, 1 running, 1 missing, 1 failed" f/report/fleet.txt || fail "fleet.txt"
  rm sacct.txt
  printf '41_0|COMPLETED|n0\n41_1|NODE_FAIL|n1\n41_[2-3]|PENDING|\n' > squeue.txt
  expect 1 "sacct: Slurm accounting storage is disabled" "$vb" fleet status f
  grep -qxF "running: task 2 (PENDING)" out && grep -qxF "running: task 3 (PENDING)" out ||
    fail "squeue's range 41_[2-3] is not read"
  grep -q "merge job 42: unknown to Slurm" out || fail "the merge job squeue does not list"
  no_db ;;
gpu-under-ncu)
  # under another CUPTI client (ncu), a run still completes with timings, and every GPU case
  # says why its metrics are missing
  command -v ncu >/dev/null || { echo "ncu not installed"; exit 77; }
  "$vb" run --filter mesh/device-mesh --axis nx=100 --quick --no-metrics --db probe.db >/dev/null 2>&1
  [ $? -eq 4 ] && { echo "no GPU: skipped"; exit 77; }
  ncu --clock-control none -c 2 --metrics gpu__time_duration.sum "$vb" run --filter 'gufunc/column-sliced' --metrics default \
    --axis rows=100000 --quick --db ncu.db >out 2>&1
  rc=$?
  cat out
  [ $rc -eq 0 ] || fail "run under ncu exited $rc"
  grep -q "==PROF== Profiling" out || fail "ncu profiled nothing"
  grep -q "metrics unavailable" out || fail "the run did not say why metrics are missing"
  "$vb" export --db ncu.db --format csv >csv || fail "export failed"
  cat csv
  python3 - csv <<'PY' || fail "a case lacks its timing, is not ok, or its metrics are not marked unavailable"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["variant"] == "gufunc/column-sliced"]
assert len(rows) >= 2, rows
for r in rows:
    assert r["status"] == "ok" and float(r["e2e_median_ms"]) > 0, r
    assert r["metrics_status"] == "unavailable" and r["gst_efficiency_pct"] == "", r
PY
  ;;
gpu-racecheck)
  # compute-sanitizer's racecheck finds the race of calx/naive-inner and none in the others
  command -v compute-sanitizer >/dev/null || { echo "compute-sanitizer not installed"; exit 77; }
  "$vb" run --filter calx/serial-inner --axis model_size=8 --quick --db probe.db >/dev/null 2>&1
  [ $? -eq 4 ] && { echo "no GPU: skipped"; exit 77; }
  for v in naive-inner serial-inner reduce-inner; do
    compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 3 \
      "$vb" run --filter "calx/$v" --axis model_size=960 --quick --min-samples 1 --max-samples 2 \
      --db "san-$v.db" >"out-$v" 2>&1
    summary=$(grep -o "RACECHECK SUMMARY: [0-9]* hazard" "out-$v")
    echo "calx/$v: $summary"
    [ -n "$summary" ] || { cp "out-$v" out; fail "no racecheck summary for $v"; }
    if [ "$v" = naive-inner ]; then
      [ "$summary" != "RACECHECK SUMMARY: 0 hazard" ] || { cp "out-$v" out; fail "racecheck missed the race"; }
    else
      [ "$summary" = "RACECHECK SUMMARY: 0 hazard" ] || { cp "out-$v" out; fail "hazard reported in $v"; }
    fi
  done ;;
trace-usage)
  expect 2 "expected a COMMAND to trace" "$vb" trace; no_db
  expect 2 "unknown option '--frob'" "$vb" trace --frob -- true; no_db
  expect 2 "unknown metric 'gst_eficiency'" "$vb" trace --metrics gst_eficiency -- true; no_db
  expect 2 "empty name" "$vb" trace --metrics gst_efficiency,, -- true; no_db
  expect 2 "needs a value" "$vb" trace --db; no_db
  expect 2 "must be a file" "$vb" trace --db :memory: -- true; no_db
  expect 2 "bad --name" "$vb" trace --name a/b -- true; no_db
  expect 0 "127 COMMAND not found" "$vb" trace --help
  # nvprof's flags: the mapping table, the refused ones with the nearest equivalent
  expect 0 "--print-gpu-trace                        --print-gpu-trace" "$vb" trace --help
  grep -qF -- "-i, --import-profile FILE                refused, use: varbench summary --db FILE" out || fail "no mapping of -i"
  expect 2 "nvprof's --events is not supported by varbench trace" "$vb" trace --events inst_executed -- true; no_db
  grep -qF "hint: instead: --metrics" err || fail "no equivalent named for --events"
  expect 2 "nvprof's --query-metrics is not supported" "$vb" trace --query-metrics; no_db
  grep -qF "varbench list --metrics" err || fail "no equivalent named for --query-metrics"
  expect 2 "nvprof's --concurrent-kernels off is not supported: varbench trace is on" "$vb" trace --concurrent-kernels off -- true; no_db
  expect 2 "-o and --db both name the database" "$vb" trace -o a.db --db b.db -- true; no_db
  expect 2 "-f replaces the file of -o" "$vb" trace -f -- true; no_db
  expect 2 "bad capture range 'nvtx:'" "$vb" trace --capture-range nvtx: -- true; no_db
  expect 2 "give one" "$vb" trace --profile-from-start off --capture-range nvtx:x -- true; no_db
  expect 2 "bad --trace 'cpu'" "$vb" trace --trace cpu -- true; no_db
  # accepted: what varbench always does; -o makes a new database and refuses an existing one
  expect 0 "stored in p1.db" "$vb" trace --profile-child-processes --concurrent-kernels on -o p1.db -- true
  expect 2 "-o 'p1.db': the file exists" "$vb" trace -o p1.db -- true
  expect 0 "stored in p1.db" "$vb" trace -f -o p1.db -- true
  echo "int main;" >src.c
  expect 2 "'src.c' is not replaced" "$vb" trace -f -o src.c -- true
  [ "$(cat src.c)" = "int main;" ] || fail "-f replaced a file that is not a database"
  "$vb" trace --help | grep -q "128+N" || fail "--help does not document the signal exit codes"
  no_db ;;
trace-no-cuda)
  # a program that never initialises CUDA: an empty but valid run, a message, its exit code; on
  # a machine where CUDA cannot start, the message says that instead
  none="the program made no CUDA calls"
  ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 ' || none="CUDA cannot start here (no CUDA driver"
  expect 0 "$none" "$vb" trace --db t.db -- true
  expect 1 "$none" "$vb" trace --db t.db -- false
  expect 3 "run 3 (complete)" "$vb" trace --db t.db -- sh -c 'exit 3'
  "$vb" trace --db t.db -- echo hello >out 2>err || fail "echo exited $?"
  [ "$(cat out)" = hello ] || fail "the program's stdout is not its own"
  expect 0 "$none" "$vb" trace --db t.db -- "$VB_FAKE_DRIVER" none
  expect 0 "0 traced processes" "$vb" summary --db t.db
  grep -q "run 5 (trace, complete, exit code 0)" out || fail "summary is not of the newest traced run"
  # a driver that finds no GPU: reported as CUDA failing to start, not as no CUDA calls
  [ -f "$VB_FAKE_LIBCUDA_DIR/libcuda.so.1" ] || fail "no fake libcuda.so.1"
  LD_LIBRARY_PATH=$VB_FAKE_LIBCUDA_DIR expect 3 "cuInit: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)" \
    "$vb" trace --db t.db -- sh -c 'exit 3'
  grep -q "made no CUDA calls" err && fail "a failed CUDA start reported as no CUDA calls"
  expect 0 "CUDA cannot start here (cuInit: CUDA_ERROR_NO_DEVICE" "$vb" summary --db t.db
  if command -v sqlite3 >/dev/null; then
    [ "$(sqlite3 t.db "SELECT group_concat(exit_code) FROM runs WHERE kind = 'trace' AND status = 'complete'")" = "0,1,3,0,0,3" ] || fail "runs"
    [ "$(sqlite3 t.db "SELECT count(*) FROM cases")" = 0 ] || fail "cases in an empty run"
    [ "$(sqlite3 t.db "SELECT count(*) FROM host_env")" = 6 ] || fail "no host environment"
  fi ;;
trace-not-found)
  expect 127 "cannot run 'no-such-program-xyz': No such file or directory" "$vb" trace --db t.db -- no-such-program-xyz
  grep -q "hint:" err || fail "no hint"
  printf '#!/bin/sh\n' > notexec; chmod 644 notexec
  expect 126 "cannot run './notexec'" "$vb" trace --db t.db -- ./notexec
  expect 0 "run 2 (trace, failed, exit code 126)" "$vb" summary --db t.db
  expect 0 "cannot run 'no-such-program-xyz'" "$vb" summary --db t.db --run 1 ;;
trace-exit-paths)
  # the injection, loaded as the driver loads it, commits however the process ends; without a GPU
  # CUPTI cannot trace and the process is stored untraced, with a GPU traced without records
  [ -x "${VB_FAKE_DRIVER:-}" ] || { echo "trace_fake_driver not built"; exit 77; }
  fd=$VB_FAKE_DRIVER
  n=0
  # mode arg expected-exit run-status stop-reason-prefix
  while read -r mode arg code status how; do
    n=$((n + 1))
    how=${how//-/ }
    "$vb" trace -q --db p.db --name fake -- "$fd" "$mode" "$arg" >out 2>err; rc=$?
    [ "$rc" -eq "$code" ] || fail "$mode $arg: exit $rc, expected $code"
    "$vb" summary --db p.db --run $n >out 2>err || fail "summary of run $n"
    grep -q "run $n (trace, $status, exit code $code)" out || fail "$mode $arg: run is not $status"
    grep -qE "^==varbench== 1 traced process$" out || fail "$mode $arg: not exactly one case"
    grep -qE "^  trace/fake: (ok|skipped)" out || fail "$mode $arg: no case of trace/fake"
    if command -v sqlite3 >/dev/null; then
      got=$(sqlite3 p.db "SELECT stop_reason FROM cases WHERE run_id = $n")
      case $got in "$how (pid "*) ;; *) fail "$mode $arg: stop reason '$got', expected '$how (pid ...)'" ;; esac
    fi
  done <<'CASES'
exit 0 0 complete exit
exit 3 3 complete exit
signal 2 130 interrupted signal-2
signal 15 143 interrupted signal-15
pyint x 130 interrupted python-exit
fork x 0 complete exit
twice x 0 complete exit
CASES
  # loaded by hand, without varbench trace: a message, and the program runs as is
  CUDA_INJECTION64_PATH=$VB_INJECT "$fd" exit 5 >out 2>err; rc=$?
  [ "$rc" -eq 5 ] || fail "a program with the library loaded by hand exited $rc"
  grep -q "loaded without VARBENCH_TRACE_DB" err || fail "no message when loaded by hand" ;;
trace-foreign)
  # another CUDA tool already in charge (nsys, ncu): varbench says so in one line naming it,
  # leaves it in place, passes the exit code on and stores one skipped case with the reason
  CUDA_INJECTION64_PATH=/opt/nvidia/nsight-systems/libToolsInjection64.so "$vb" trace --db f.db -- sh -c 'exit 7' >out 2>err
  [ $? -eq 7 ] || fail "exit $?, expected the program's 7"
  grep -q "^varbench trace: Nsight Systems (nsys) is in charge (CUDA_INJECTION64_PATH=/opt/nvidia/nsight-systems/libToolsInjection64.so): the program runs under it, untraced by varbench$" err || fail "no message naming the tool"
  expect 0 "untraced: it ran under Nsight Systems (nsys)" "$vb" summary --db f.db
  grep -q "trace/sh: skipped" out || fail "no skipped case"
  grep -q "untraced: run under Nsight Systems (nsys)" out || fail "the case does not say why"
  # the tool among varbench's parents (here a process named ncu) without an injection variable
  mkdir -p bin && ln -sf "$(command -v bash)" bin/ncu
  bin/ncu -c '"$0" trace --db f.db -- true; exit $?' "$vb" >out 2>err
  [ $? -eq 0 ] || fail "under a parent ncu: exit $?"
  grep -q "Nsight Compute (ncu) is in charge (ancestor process [0-9]* 'ncu')" err || fail "the parent ncu is not named"
  # an unknown injection is still another tool
  CUDA_INJECTION64_PATH=/opt/x/libother.so expect 0 "another CUDA tool is in charge" "$vb" trace --db f.db -- true ;;
trace-nvtx)
  # NVTX as frameworks make it (the NVTX3 headers' loader, NVTX_INJECTION64_PATH), recorded by
  # varbench itself without CUPTI: push/pop, start/end across threads, marks, a domain with a
  # registered string, a wide string, a range left open; made before CUDA's injection, in a
  # process that never starts CUDA, and in one CUPTI cannot trace (here, no GPU)
  [ -x "${VB_FAKE_DRIVER:-}" ] || { echo "trace_fake_driver not built"; exit 77; }
  expect 0 "NVTX ranges only: the process did not start CUDA" "$vb" trace --db n.db -- "$VB_FAKE_DRIVER" nvtx-only
  "$vb" trace --db n.db -- "$VB_FAKE_DRIVER" nvtx >out 2>err || fail "nvtx: exit $?"
  for run in 1 2; do
    [ "$(sqlite3 n.db "SELECT count(*) || ' ' || sum(e.eventType = 34) || ' ' || sum(e.eventType = 60) || ' ' ||
      sum(e.end IS NULL) FROM NVTX_EVENTS e JOIN cases c ON c.id = e.case_id WHERE c.run_id = $run")" = "8 2 1 1" ] ||
      fail "run $run: not 8 events (2 marks, 1 start/end range, 1 open)"
    [ "$(sqlite3 n.db "SELECT s.value || ' ' || d.value || ' ' || e.category || ' ' || e.color FROM NVTX_EVENTS e
      JOIN StringIds s ON s.id = e.textId JOIN StringIds d ON d.id = e.domainId JOIN cases c ON c.id = e.case_id
      WHERE c.run_id = $run")" = "registered vbdomain 7 4278255360" ] || fail "run $run: the domain's range"
    [ "$(sqlite3 n.db "SELECT count(*) FROM NVTX_EVENTS e JOIN StringIds s ON s.id = e.textId JOIN cases c
      ON c.id = e.case_id WHERE c.run_id = $run AND s.value = 'crossing' AND e.endThreadId != e.threadId
      AND e.end > e.start")" = 1 ] || fail "run $run: the range ended on another thread"
    [ "$(sqlite3 n.db "SELECT count(*) FROM NVTX_EVENTS e JOIN StringIds s ON s.id = e.textId JOIN cases c
      ON c.id = e.case_id WHERE c.run_id = $run AND s.value = 'wide é'")" = 1 ] || fail "run $run: the wide string"
  done
  expect 0 "outer" "$vb" summary --db n.db --run 1
  grep -qE "NVTX ranges: .* 1 .* outer$" out || fail "no NVTX range 'outer' in the summary"
  grep -q "mark one" out && fail "a mark in the ranges' table"
  expect 0 "export: run 1: 0 kernels, 0 copies, 0 memsets, 8 NVTX ranges" \
    "$vb" export --db n.db --run 1 --format trace -o n.json
  python3 "$(dirname "$0")/trace_json_check.py" n.json --expect user_annotation=8 \
    --parent inner=outer >out 2>err || fail "the trace of the NVTX ranges"
  grep -q '"domain":"vbdomain"' n.json || fail "the domain is not in the trace"
  [ "$(grep -o '"ph":"i"' n.json | wc -l)" = 2 ] || fail "not 2 marks as instant events"
  # under a tool of the user's own, NVTX goes to that tool, and varbench says so
  NVTX_INJECTION64_PATH=/nonexistent/libtool.so "$vb" trace --db n.db -- "$VB_FAKE_DRIVER" nvtx-only >out 2>err
  grep -q "NVTX_INJECTION64_PATH=/nonexistent/libtool.so is kept" err || fail "the user's NVTX tool is not named" ;;
trace-samples)
  # a traced program's NVTX ranges as samples (trace/samples.h), with no GPU: fake_driver's
  # training loop without CUDA ("steps N MS": N ranges 'step' of MS ms; sleeps long enough that a
  # loaded CI machine's scheduling, a fraction of a millisecond, stays inside the 5% threshold
  # a traced range is judged at); a slower version, the history of the traces, a job of 3 ranks
  # with a straggler, and bad input
  [ -x "${VB_FAKE_DRIVER:-}" ] || { echo "trace_fake_driver not built"; exit 77; }
  f=$VB_FAKE_DRIVER
  for i in 1 2 3; do "$vb" trace -q --db s.db -- "$f" steps 20 40 2>err || fail "trace $i: exit $?"; done
  expect 0 "range=step" "$vb" summary --db s.db
  grep -qF "trace/trace_fake_driver range=step: 20 samples, e2e" out || fail "the step case in summary"
  grep -qF "==varbench== 1 traced process" out || fail "the sampled case counted as a process"
  expect 0 "1 same, 1 not-compared" "$vb" compare s.db s.db --base-run 1 --cand-run 2
  grep -qE "^trace/trace_fake_driver +range=step .* same$" out || fail "the step case is not the same"
  grep -qF "not-compared (a whole traced process: one sample)" out || fail "the process case was judged"
  "$vb" trace -q --db s.db -- "$f" steps 20 160 2>err || fail "the slow trace: exit $?"
  expect 1 "slower (e2e +" "$vb" compare s.db s.db --base-run 3 --cand-run 4
  grep -qE "^trace/trace_fake_driver +range=step .* slower \(e2e \+" out || fail "not slower by e2e"
  expect 1 "base runs 3, 2, 1 pooled" "$vb" compare s.db s.db --cand-run 4 --base-run 3 --baseline-runs 3
  grep -qE " 60/20 " out || fail "the pooled traces' samples are not 60"
  expect 1 "1 slower" "$vb" compare s.db s.db --base-run 3 --cand-run 4 --filter 'trace/*'
  expect 2 "--filter 'mesh/*' matches no case of either run" "$vb" compare s.db s.db --filter 'mesh/*'
  expect 0 "4 runs" "$vb" history --db s.db --all --filter trace
  grep -qF "trace/trace_fake_driver range=step on no GPU: e2e median" out || fail "history lacks the step case"
  # --range chooses; none takes all away; a name without instances is said
  expect 0 "range 'nope': no instance" "$vb" trace --db r.db --range nope --range setup -- "$f" steps 6 1
  [ "$(sqlite3 r.db "SELECT group_concat(axes) FROM cases WHERE run_id = 1 AND axes <> ''")" = "range=setup" ] ||
    fail "--range setup did not make exactly the setup case"
  "$vb" trace -q --db r.db --range none -- "$f" steps 6 1 2>err || fail "--range none: exit $?"
  [ "$(sqlite3 r.db "SELECT count(*) FROM cases WHERE run_id = 2")" = 1 ] || fail "--range none sampled"
  expect 2 "--range: an empty name" "$vb" trace --db r.db --range '' -- "$f" steps 6 1
  # a job of 3 ranks (RANK, as torchrun sets it), rank 1 the straggler; then rank 1 slower still
  for ms in 40 400; do # 10x: under a loaded ctest -j16 a 20 ms step took up to 80 ms, ranges overlapping at 4x
    "$vb" trace -q --db j.db -- bash -c "RANK=0 '$f' steps 10 10 & RANK=1 '$f' steps 10 $ms & \
      RANK=2 '$f' steps 10 10 & wait" 2>err || fail "the job: exit $?"
  done
  expect 0 "==varbench== 3 traced processes" "$vb" summary --db j.db --run 1
  for r in 0 1 2; do grep -qF "trace/bash rank=$r: ok" out || fail "rank $r is not named"; done
  grep -qE "^==varbench== ranks: trace/bash range 'step': 3 ranks, 10 steps; slowest rank 1 in [0-9]+ of 10 steps" out ||
    fail "no straggler line naming rank 1"
  expect 0 "Profiling result (rank 2)" "$vb" summary --db j.db --run 1 --rank 2
  grep -qE " 10 +[0-9.]+ms .* step$" out || fail "rank 2's table"
  "$vb" export --db j.db --run 1 --format json -o j.json >out 2>err || fail "export: exit $?"
  grep -qF '"varbench_ranks": "trace/bash range '"'"'step'"'"': 3 ranks' j.json || fail "no ranks in export"
  # the straggler's row and the job's (each step as its slowest rank lived it), no other rank's
  expect 1 "2 slower" "$vb" compare j.db j.db --base-run 1 --cand-run 2
  grep -qE "^trace/bash +range=step,rank=1 .* slower" out || fail "rank 1 is not the slower one"
  grep -qE "^trace/bash +range=step,ranks=3 .* slower \(e2e \+" out || fail "the job's step is not slower"
  grep -qE "^trace/bash +range=step,rank=[02] .* slower" out && fail "a rank that did not move is slower"
  true ;;
summary)
  "$vbtest" make_trace_fixture "$tmp" >/dev/null || fail "fixture"
  expect 0 "==varbench== 2 traced processes" "$vb" summary --db trace.db
  grep -q "^ GPU activities:   40.32%  5.0000us         2  2.5000us  2.0000us  3.0000us  \[CUDA memcpy HtoD\]$" out || fail "HtoD line"
  grep -q "  saxpy(int, float, float const\*, float\*)$" out || fail "kernel not demangled"
  grep -q "^      API calls:   89.18%  9.4000us         3  3.1333us  2.2000us  4.0000us  cudaMemcpy$" out || fail "API line"
  bash "$VB_TRACE_DIR/expect.sh" out "processes 2" "copy HtoD 2 8000000" "copy DtoH 1 4000000" \
    "copy memset 1 4000000" "calls 3 saxpy(int" "calls 1 vb_saxpy" "calls 3 cudaLaunchKernel" \
    "calls 1 compute" >exp || { cat exp; fail "expect.sh"; }
  # the suite run of the same database, by id
  expect 0 "==varbench== 1 case" "$vb" summary --db trace.db --run 2
  grep -q "GPU activities:" out || fail "no GPU activities for the suite run" ;;
summary-errors)
  expect 3 "does not exist" "$vb" summary --db missing.db
  no_db
  "$vbtest" make_fixtures "$tmp" >/dev/null || fail "fixtures"
  expect 2 "has no traced run" "$vb" summary --db base.db
  grep -q "hint: trace a program first" err || fail "no hint"
  expect 2 "has no run 99" "$vb" summary --db base.db --run 99
  expect 2 "bad --run 'x'" "$vb" summary --db base.db --run x
  expect 2 "unknown option '--frob'" "$vb" summary --frob
  expect 2 "unexpected argument 'extra'" "$vb" summary extra ;;
summary-gputrace)
  # nvprof's --print-gpu-trace and --print-api-trace on the fixture's traced program: every
  # column of every record (exact bytes, kinds of memory, the device's name or "GPU (N)" for a
  # device the run does not describe), aligned to the widest cell; nvprof's order of sections
  "$vbtest" make_trace_fixture "$tmp" >/dev/null || fail "fixture"
  cp trace.db trace.db.orig
  expect 0 "==7== Profiling result:" "$vb" summary --db trace.db --print-gpu-trace
  sed -n '/^==7== Profiling result:$/,/^==8==/p' out | sed '1d;$d' >table
  cat >want <<'EOF'
   Start  Duration    Grid Size  Block Size  Regs*  SSMem*  DSMem*      Size  Throughput  SrcMemType  DstMemType                     Device  Context  Stream  Name
1.5000us     500ns            -           -      -       -       -  4000000B  8000.0GB/s           -      Device  NVIDIA H100 80GB HBM3 (0)        1       7  [CUDA memset]
2.5000us  2.0000us            -           -      -       -       -  4000000B  2000.0GB/s    Pageable      Device  NVIDIA H100 80GB HBM3 (0)        1       7  [CUDA memcpy HtoD]
5.5000us  3.0000us            -           -      -       -       -  4000000B  1333.3GB/s      Pinned      Device  NVIDIA H100 80GB HBM3 (0)        1       7  [CUDA memcpy HtoD]
10.500us  1.0000us   (3907 1 1)   (256 1 1)     32      0B      0B         -           -           -           -  NVIDIA H100 80GB HBM3 (0)        1       7  saxpy(int, float, float const*, float*)
12.500us  1.2000us   (3907 1 1)   (256 1 1)     32      0B      0B         -           -           -           -  NVIDIA H100 80GB HBM3 (0)        1       7  saxpy(int, float, float const*, float*)
14.500us  1.4000us   (3907 1 1)   (256 1 1)     32      0B      0B         -           -           -           -  NVIDIA H100 80GB HBM3 (0)        1       7  saxpy(int, float, float const*, float*)
16.500us     800ns  (20000 1 1)    (64 1 1)     16   1024B    256B         -           -           -           -                    GPU (1)        1      13  vb_saxpy
20.500us  2.5000us            -           -      -       -       -  4000000B  1600.0GB/s      Device    Pageable  NVIDIA H100 80GB HBM3 (0)        1       7  [CUDA memcpy DtoH]
EOF
  diff want table >&2 || fail "the GPU trace is not the fixture's, exactly"
  # aligned: every column of the header ends where its cells end; Name starts at one offset
  awk 'NR == 1 { p = index($0, "Name"); n = split($0, h, /  +/); next }
       substr($0, p - 2, 2) != "  " || substr($0, p, 1) == " " { bad = 1 }
       END { exit bad }' table || fail "the rows are not aligned under the header"
  grep -qx "==7== Profiling application: trace/t38.py" out || fail "no application line"
  grep -qxF "==8== Warning: No profile data collected (another CUPTI client is attached)." out ||
    fail "the untraced process has no warning"
  grep -q "^Throughput: .*GB/s of 10^9 bytes (decimal)" out || fail "no throughput note"
  grep -q "^Regs: " out && grep -q "^SrcMemType: " out && grep -q "^DstMemType: " out ||
    fail "no notes under the table"
  grep -q "GPU activities:" out && fail "the summary without --print-summary"
  grep -q "tracing cost (pid 7)" out || fail "no tracing cost in the heading"
  # the API trace, then the summary after both traces with --print-summary
  expect 0 "cudaMemcpy" "$vb" summary --db trace.db --print-api-trace --print-gpu-trace --print-summary
  g=$(grep -n "^   Start  Duration    Grid Size" out | cut -d: -f1)
  a=$(grep -n "^   Start  Duration  Name$" out | cut -d: -f1)
  p=$(grep -n "^==varbench== Profiling result:$" out | cut -d: -f1)
  [ -n "$g" ] && [ -n "$a" ] && [ -n "$p" ] && [ "$g" -lt "$a" ] && [ "$a" -lt "$p" ] ||
    fail "not GPU trace ($g), API trace ($a), summary ($p) in that order"
  grep -qx "     0ns     600ns  cudaMalloc" out || fail "the first API call"
  grep -qx "16.400us      20ns  cuLaunchKernel" out || fail "a driver API call"
  [ "$(sed -n "$a,/^==/p" out | grep -c "^ *[0-9.]*[mun]*s  ")" -eq 9 ] || fail "not 9 API calls"
  # a suite run names its cases; a case without records says so
  expect 0 "==case 3== Warning: No profile data collected." "$vb" summary --db trace.db --run 2 --print-gpu-trace
  grep -qx "==case 3== Profiling application: mesh/device-mesh nx=1000,ny=1000" out || fail "suite case"
  unchanged trace.db ;;
summary-csv)
  # --csv: every table as nvprof --csv (a quoted header, a units row, rows in those units), the
  # other lines section lines (==...==); the rows are the stored records, one each
  "$vbtest" make_trace_fixture "$tmp" >/dev/null || fail "fixture"
  expect 0 '"Start","Duration","Grid X"' "$vb" summary --db trace.db --csv --print-gpu-trace \
    --print-api-trace --print-summary
  python3 - out trace.db <<'PY' || fail "the CSV does not hold the records"
import csv, sqlite3, sys
lines = open(sys.argv[1]).read().splitlines()
db = sqlite3.connect(sys.argv[2])
count = lambda t: db.execute("SELECT count(*) FROM %s" % t).fetchone()[0]
tables, cur = [], None
for line in lines:
    if line.startswith("=="):
        cur = None
        continue
    if cur is None:
        cur = []
        tables.append(cur)
    cur.append(line)
kinds = {}
for t in tables:
    rows = list(csv.reader(t))
    head = rows[0]
    assert all(len(r) == len(head) for r in rows), ("ragged rows", t)
    kinds.setdefault(tuple(head[:3]), []).append(rows)
gpu = kinds[("Start", "Duration", "Grid X")]
api = kinds[("Start", "Duration", "Name")]
assert len(gpu) == 1 and len(api) == 1, "one section per process with records"
g, a = gpu[0], api[0]
assert g[1] == ["ms", "us", "", "", "", "", "", "", "", "B", "B", "B", "GB/s", "", "", "", "", "", "", ""], g[1]
assert g[0][-2:] == ["Name", "Correlation_ID"] and g[0][13:16] == ["SrcMemType", "DstMemType", "Device"], g[0]
records = count("CUPTI_ACTIVITY_KIND_KERNEL") + count("CUPTI_ACTIVITY_KIND_MEMCPY") + count("CUPTI_ACTIVITY_KIND_MEMSET")
assert len(g) - 2 == records, (len(g) - 2, records)
assert a[1] == ["ms", "us", "", ""] and len(a) - 2 == count("CUPTI_ACTIVITY_KIND_RUNTIME"), a
rows = [dict(zip(g[0], r)) for r in g[2:]]
assert [r["Start"] for r in rows][:2] == ["0.001500", "0.002500"], rows
h2d = rows[1]
assert (h2d["Size"], h2d["SrcMemType"], h2d["DstMemType"], h2d["Name"]) == ("4000000", "Pageable", "Device", "[CUDA memcpy HtoD]"), h2d
assert float(h2d["Throughput"]) == 2000 and h2d["Device"] == "NVIDIA H100 80GB HBM3 (0)", h2d
k = rows[3]
assert k["Name"] == "saxpy(int, float, float const*, float*)" and k["Grid X"] == "3907" and k["Size"] == "", k
assert rows[6]["Device"] == "GPU (1)" and rows[6]["Static SMem"] == "1024", rows[6]
summ = kinds[("Type", "Time(%)", "Time")][0]
assert summ[1] == ["", "%", "us", "", "us", "us", "us", ""], summ[1]
calls = {}
for r in summ[2:]:
    calls[r[0]] = calls.get(r[0], 0) + int(r[3])
assert calls["GPU activities"] == records and calls["API calls"] == count("CUPTI_ACTIVITY_KIND_RUNTIME"), calls
assert abs(sum(float(r[1]) for r in summ[2:] if r[0] == "GPU activities") - 100) < 1e-3
moved = kinds[("Calls", "Bytes", "Avg bytes")][0]
assert moved[1] == ["", "B", "B", "B", "B", "GB/s", ""] and ["2", "8000000"] == moved[2][:2], moved
cost = kinds[("Process", "CUPTI start", "CUPTI overhead")][0]
assert cost[1][1] == "ms" and cost[2] == ["pid 7", "85.300000", "2.100000", "14", "3.400000", "41.000000", "0"], cost
PY
  # the default summary as CSV: the same tables, no trace
  expect 0 '"Type","Time(%)","Time","Calls","Avg","Min","Max","Name"' "$vb" summary --db trace.db --csv
  grep -q '"Grid X"' out && fail "a GPU trace without --print-gpu-trace"
  grep -qx ',%,us,,us,us,us,' out || fail "no units row"
  grep -vq '^==\|^"\|^[0-9,]\|^,' out && fail "a line that is neither CSV nor a section line"
  true ;;
summary-logfile)
  # --log-file: nvprof's patterns (%p the pid, %q{ENV}, %h, %%), the file created or emptied,
  # nothing on stdout; an unset variable and an unwritable folder are errors that say so
  "$vbtest" make_trace_fixture "$tmp" >/dev/null || fail "fixture"
  "$vb" summary --db trace.db --log-file 'sum-%p.log' >out 2>err || fail "exit $?"
  [ ! -s out ] && [ ! -s err ] || fail "output on stdout or stderr with --log-file"
  f=$(ls sum-*.log 2>/dev/null)
  [[ $f =~ ^sum-[0-9]+\.log$ ]] || fail "--log-file 'sum-%p.log' wrote '$f'"
  grep -q "^==varbench== 2 traced processes$" "$f" || fail "the log file lacks the summary"
  mkdir home
  HOME=$tmp/home "$vb" summary --db trace.db --print-gpu-trace --log-file '%q{HOME}/g.log' >out 2>&1 ||
    fail "%q{HOME}: exit $?"
  grep -q "^==7== Profiling result:$" home/g.log || fail "%q{HOME} did not write home/g.log"
  "$vb" summary --db trace.db --csv --log-file '100%%-%h.csv' >out 2>&1 || fail "%%: exit $?"
  [ -s "100%-$(uname -n).csv" ] || fail "'100%%-%h.csv' did not write '100%-$(uname -n).csv'"
  echo "old content" >t.log
  "$vb" summary --db trace.db --log-file t.log >out 2>&1 || fail "exit $?"
  grep -q "old content" t.log && fail "the log file was appended to, not emptied"
  expect 2 "environment variable 'VB_NO_SUCH_VAR' is not set" \
    env -u VB_NO_SUCH_VAR "$vb" summary --db trace.db --log-file '%q{VB_NO_SUCH_VAR}/x.log'
  expect 2 "unknown '%t'" "$vb" summary --db trace.db --log-file 'x-%t.log'
  expect 6 "cannot write 'no-such-dir/x.log': No such file or directory" \
    "$vb" summary --db trace.db --log-file no-such-dir/x.log
  mkdir ro && chmod 555 ro
  if [ ! -w ro ]; then # root writes anywhere: the check needs an ordinary user
    expect 6 "cannot write 'ro/x.log': Permission denied" "$vb" summary --db trace.db --log-file ro/x.log
  fi
  expect 3 "does not exist" "$vb" summary --db missing.db --log-file m.log
  [ ! -e m.log ] || fail "a log file without a database to read"
  expect 2 "--log-file needs a non-empty value" "$vb" summary --db trace.db --log-file '' ;;
inject-symbols)
  # the injection lives inside programs with their own CUDA runtime, SQLite, Python: it exports
  # its two entry points (CUDA's and NVTX's) only and needs nothing of the runtime, NVRTC or
  # cuFFT; the preload, in every process of the program, exports libcupti's names for the calls
  # it shares and its reader, and loads nothing but libc
  command -v nm >/dev/null || { echo "nm not installed"; exit 77; }
  [ -f "${VB_INJECT:-}" ] || fail "no injection library"
  defined=$(nm -D --defined-only "$VB_INJECT" | awk '{print $3}' | sort -u | tr '\n' ' ')
  [ "$defined" = "InitializeInjection InitializeInjectionNvtx2 " ] || fail "exports '$defined'"
  bad=$(nm -D --undefined-only "$VB_INJECT" | awk '{print $2}' | grep -E '^(cuda|cu[A-Z]|nvrtc|cufft|sqlite3|vb_)' | tr '\n' ' ')
  [ -z "$bad" ] || fail "needs '$bad'"
  [ "$(dirname "$VB_INJECT")" = "$(dirname "$vb")" ] || fail "the library is not next to varbench"
  pre=$(dirname "$VB_INJECT")/libvarbench_preload.so
  [ -f "$pre" ] || fail "no preload library next to the injection"
  defined=$(nm -D --defined-only "$pre" | awk '{print $3}' | sort | tr '\n' ' ')
  want="cuptiActivityDisable cuptiActivityDisableContext cuptiActivityEnable cuptiActivityEnableContext cuptiActivityEnableDriverApi cuptiActivityEnableRuntimeApi cuptiActivityFlushAll cuptiActivityRegisterCallbacks cuptiActivityRegisterTimestampCallback cuptiActivitySetAttribute cuptiFinalize cuptiSubscribe cuptiSubscribe_v2 cuptiUnsubscribe varbench_cupti_mux_read "
  [ "$defined" = "$want" ] || fail "the preload exports '$defined'"
  needed=$(readelf -d "$pre" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -vE '^(libc|libdl|libpthread)\.so' | tr '\n' ' ')
  [ -z "$needed" ] || fail "the preload needs '$needed'"
  # alone in a process (no varbench, no CUDA) it changes nothing
  LD_PRELOAD=$pre sh -c 'echo preloaded' >out 2>err || fail "a preloaded shell failed"
  [ "$(cat out)" = preloaded ] && [ ! -s err ] || fail "the preload spoke: $(cat err)" ;;
report-trace)
  # a traced program and a suite run of one database side by side in the report
  "$vbtest" make_trace_fixture "$tmp" >/dev/null || fail "fixture"
  expect 0 "report: rep/index.html" "$vb" report --no-plots --db trace.db -o rep
  grep -q "Traced programs" rep/report.md || fail "no traced programs section"
  grep -q "| t38\.py | " rep/report.md || fail "the traced program is not in report.md"
  grep -q "| mesh/device-mesh |" rep/report.md || fail "the suite case is not in report.md"
  grep -q "varbench trace -- python3 t38.py" rep/report.md || fail "no command line"
  ls rep/*.svg >/dev/null 2>&1 && fail "plots without gnuplot"
  if command -v gnuplot >/dev/null; then
    expect 0 "report: rep2/index.html" "$vb" report --db trace.db -o rep2
    grep -q "<td>t38.py</td>" rep2/index.html || fail "the traced program is not in index.html"
  fi ;;
export-trace)
  # runs as Chrome trace JSON (Perfetto, chrome://tracing): every stored record one event, on
  # tracks that nest, with arrows that join; the file checked by trace_json_check.py against
  # what the fixture wrote, the summary line against the store's counts, the errors by name
  here=$(dirname "$(readlink -f "$0")")
  "$vbtest" make_export_fixture "$tmp" >fx || fail "fixture"
  want1=$(sed -n 's/^run 1 //p' fx); want2=$(sed -n 's/^run 2 //p' fx)
  [ -n "$want1" ] && [ -n "$want2" ] || fail "the fixture did not say what it wrote"
  expect 0 "export: run 1: 7 kernels, 3 copies, 1 memset, 9 NVTX ranges, 13 API calls -> 33 events (+ 10 flows, 2 case spans) in t1.json; stored records: 7 kernels, 3 copies, 1 memset, 9 NVTX ranges, 13 API calls" \
    "$vb" export --db export.db --run 1 --format trace -o t1.json
  grep -q "^export: 1 GPU record overlapped the one before on its stream, by up to 2 ns" err ||
    fail "the clamped record is not counted"
  grep -q "^export: 1 host event overlapped without nesting" err || fail "the overlap is not counted"
  python3 "$here/trace_json_check.py" t1.json --expect "$want1" --clamped 1 \
    --parent matmul=forward --parent forward=epoch --parent load=epoch \
    --parent "worker step=worker loop" >out 2>err || fail "run 1's trace"
  grep -q '"name":"matmul(float const\*, float const\*, float\*, int)"' t1.json ||
    fail "kernel not demangled"
  # the suite run (the default run: the newest complete suite run) to standard output
  "$vb" export --db export.db --format trace >t2.json 2>err || fail "export to stdout"
  grep -q "^export: run 2: .* in standard output; stored records" err || fail "no summary line"
  python3 "$here/trace_json_check.py" t2.json --expect "$want2" --clamped 0 >out 2>err ||
    fail "run 2's trace"
  expect 0 "export: run 2: 1 kernel, 2 copies, 1 memset, 1 NVTX range, 0 API calls -> 5 events (+ 0 flows, 1 case span" \
    "$vb" export --db export.db --format trace --case 'mesh/host*' -o -
  python3 "$here/trace_json_check.py" out >chk || { cp chk out; fail "the --case trace"; }
  grep -q '"case_glob":"mesh/host\*"' out || fail "the glob is not in the file"
  # the fixture of varbench trace and summary, as it is
  "$vbtest" make_trace_fixture "$tmp" >/dev/null || fail "trace fixture"
  expect 0 "export: run 1:" "$vb" export --db trace.db --run 1 --format trace -o t3.json
  python3 "$here/trace_json_check.py" t3.json >out 2>err || fail "the trace fixture's trace"
  # the picture: from any export; an empty or broken trace fails
  if command -v chromium >/dev/null; then
    python3 "$here/trace_render.py" t1.json t1.png >out 2>err || fail "trace_render"
    [ -s t1.png ] || fail "no picture"
  fi
  echo '{"traceEvents": []}' >empty.json
  python3 "$here/trace_render.py" empty.json e.png >out 2>err && fail "an empty trace rendered"
  grep -q "no complete events" err || fail "no reason for the empty trace"
  echo '{"traceEvents": [' >broken.json
  python3 "$here/trace_render.py" broken.json e.png >out 2>err && fail "a broken trace rendered"
  python3 "$here/trace_json_check.py" broken.json >out 2>err && fail "a broken trace checked"
  # errors: each says what and exits with its code; no file is left behind
  expect 2 "has no run 99" "$vb" export --db export.db --run 99 --format trace -o x.json
  [ ! -e x.json ] || fail "a failed export left x.json"
  echo keep >x.json
  expect 2 "run 1 has no case matching 'nope*'" "$vb" export --db export.db --run 1 \
    --format trace --case 'nope*' -o x.json
  grep -q "hint: the glob is matched on \"family/variant\"" err || fail "no hint for the glob"
  [ "$(cat x.json)" = keep ] || fail "a refused export touched its output file"
  expect 2 "bad --format 'perfetto': csv, json or trace" "$vb" export --db export.db --format perfetto
  # --case in every format: csv and json keep the matching cases only, and refuse a glob of none
  for f in csv json; do
    expect 2 "has no case matching 'nope*'" "$vb" export --db export.db --format $f --case 'nope*'
  done
  "$vb" export --db export.db --run 1 --format csv --case 'trace/*' -o c.csv >out 2>err ||
    fail "export --case trace/* as CSV: exit $?"
  [ "$(tail -n +2 c.csv | wc -l)" -gt 0 ] && [ -z "$(awk -F, 'NR > 1 && $3 !~ /^trace\//' c.csv)" ] ||
    fail "export --case trace/* kept a case of another family"
  expect 3 "does not exist" "$vb" export --db missing.db --format trace
  no_db
  expect 6 "cannot write '$tmp/no/such/dir/t.json'" "$vb" export --db export.db --format trace \
    -o "$tmp/no/such/dir/t.json"
  expect 0 "ui.perfetto.dev" "$vb" export --help
  grep -q "one track per CUDA stream" out || fail "--help does not describe the tracks" ;;
gpu-trace-c)
  # a CUDA C program traced on the GPU: exact copies, memset, launches, NVTX ranges, API calls
  "$vb" trace --db g.db -- "$VB_TRACE_PROG" 1000000 10 >out 2>err; rc=$?
  [ "$rc" -eq 3 ] && grep -q "no CUDA device" err && { echo "no GPU: skipped"; exit 77; }
  [ "$rc" -eq 0 ] || fail "exit $rc"
  grep -q "trace_prog_c: 1000000 floats, 10 launches x 1: ok" out || fail "the program's answer"
  "$vb" summary --db g.db >sum || fail "summary"
  cat sum
  bash "$VB_TRACE_DIR/expect.sh" sum "processes 1" "copy HtoD 2 8000000" "copy DtoH 1 4000000" \
    "copy memset 1 4000000" "calls 10 saxpy(int, int, float, float const*, float*)" \
    "calls 10 cudaLaunchKernel" "calls 3 cudaMemcpy" "calls 1 compute" "calls 1 setup" >exp
  rc=$?
  cat exp
  [ $rc -eq 0 ] || fail "the summary does not match the program"
  grep -q "trace/trace_prog_c: ok" sum || fail "the case is not ok" ;;
gpu-trace-code)
  # trace --metrics hashes the program's kernels as run does: two traces of one build, GPU code
  # unchanged; of a build whose kernel rounds apart what the other fuses, that kernel changed
  # (and only it); export gives each kernel event its hash; a plain trace records none
  for p in "$VB_TRACE_PROG" "$VB_TRACE_PROG" "$VB_TRACE_PROG_ALT"; do
    "$vb" trace --db k.db --metrics gst_efficiency -- "$p" 1000000 10 >out 2>err; rc=$?
    [ "$rc" -eq 3 ] && grep -q "no CUDA device" err && { echo "no GPU: skipped"; exit 77; }
    [ "$rc" -eq 0 ] || fail "exit $rc"
    grep -q "code hash" err && fail "the hashes: $(cat err)"
  done
  "$vb" compare --base-run 1 --cand-run 2 k.db k.db >out 2>err
  cat out
  grep -q "^GPU code: unchanged: each of the [0-9]* kernels\? both runs launched has the same SASS" out ||
    fail "two traces of one build: GPU code not unchanged"
  "$vb" compare --base-run 1 --cand-run 3 k.db k.db >out 2>err
  cat out
  grep -qE "^GPU code: 1 of [0-9]+ kernels changed: saxpy\(int, int, float, float const\*, float\*\) \(SASS [0-9a-f]{16} -> [0-9a-f]{16}\)" out ||
    fail "the changed build: saxpy not named changed"
  "$vb" export --db k.db --run 3 --format trace >t.json || fail "export"
  grep -q '"sass"' t.json || fail "no kernel event with its hash"
  "$vb" trace --db k.db -- "$VB_TRACE_PROG" 1000000 10 >out 2>err || fail "plain trace"
  "$vb" compare --base-run 1 --cand-run 4 k.db k.db >out 2>err
  grep -q "GPU code: not recorded in the candidate run (.*trace without --metrics" out ||
    fail "a plain trace: code not said unrecorded" ;;
gpu-trace-print)
  # nvprof's print modes on a traced C program: one line per activity with its launch
  # configuration, exact bytes and kinds of memory; the same as CSV into --log-file's %p file
  "$vb" trace --db p.db --print-gpu-trace -- "$VB_TRACE_PROG" 1000000 10 >out 2>err; rc=$?
  [ "$rc" -eq 3 ] && grep -q "no CUDA device" err && { echo "no GPU: skipped"; exit 77; }
  [ "$rc" -eq 0 ] || fail "exit $rc"
  cat err
  [ "$(grep -cE '\(3907 1 1\) +\(256 1 1\) .* saxpy\(int, int, float, float const\*, float\*\)$' err)" = 10 ] || fail "not 10 kernel lines with grid (3907 1 1), block (256 1 1)"
  [ "$(grep -cE ' 4000000B .* Pageable +Device .*\[CUDA memcpy HtoD\]$' err)" = 2 ] || fail "not 2 HtoD lines of 4000000B, pageable to device"
  grep -qE ' 4000000B .* Device +Pageable .*\[CUDA memcpy DtoH\]$' err || fail "no DtoH line of 4000000B, device to pageable"
  grep -qE '\[CUDA memset\]$' err || fail "no memset line"
  "$vb" trace --db p.db --print-gpu-trace --csv --log-file 'out.%p.csv' -- "$VB_TRACE_PROG" 1000000 10 >out 2>err || fail "csv exit $?"
  f=$(ls out.*.csv 2>/dev/null | head -n 1)
  [ -n "$f" ] || fail "no out.%p.csv"
  grep -q "the profiling result is in $f" err || fail "varbench does not say where the result is"
  python3 - "$f" <<'PY' || fail "the CSV does not hold the 14 activities"
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if not l.startswith('=')))
head = next(i for i, r in enumerate(rows) if r[:2] == ['Start', 'Duration'])
data = rows[head + 2:]
names = [r[rows[head].index('Name')] for r in data]
assert len(data) == 14, len(data)
assert names.count('[CUDA memcpy HtoD]') == 2 and names.count('[CUDA memset]') == 1, names
assert sum(n.startswith('saxpy(') for n in names) == 10
assert all(r[rows[head].index('Size')] == '4000000' for r in data if r[-2].startswith('[CUDA memcpy'))
PY
  "$vb" trace --db p.db --print-api-trace -- "$VB_TRACE_PROG" 1000000 10 >out 2>err || fail "api exit $?"
  [ "$(grep -cE ' cudaLaunchKernel$' err)" = 10 ] || fail "not 10 cudaLaunchKernel lines" ;;
gpu-trace-capture)
  # only what runs between cudaProfilerStart and Stop, or inside the NVTX ranges "compute"
  "$vb" trace --db c.db --profile-from-start off -- "$VB_TRACE_PROG" 1000000 10 >out 2>err; rc=$?
  [ "$rc" -eq 3 ] && grep -q "no CUDA device" err && { echo "no GPU: skipped"; exit 77; }
  [ "$rc" -eq 0 ] || fail "exit $rc"
  "$vb" summary --db c.db >sum || fail "summary"
  cat sum
  bash "$VB_TRACE_DIR/expect.sh" sum "calls 10 saxpy(int, int, float, float const*, float*)" \
    "calls 10 cudaLaunchKernel" >exp || { cat exp; fail "the launches are not kept"; }
  grep -q "CUDA memcpy" sum && fail "copies outside cudaProfilerStart/Stop were kept"
  grep -q "capture cudaProfilerApi: 1 window" sum || fail "the case does not say what was captured"
  "$vb" trace --db c.db --capture-range nvtx:check -- "$VB_TRACE_PROG" 1000000 10 >out 2>err || fail "nvtx exit $?"
  "$vb" summary --db c.db >sum || fail "summary"
  bash "$VB_TRACE_DIR/expect.sh" sum "copy DtoH 1 4000000" >exp || { cat exp; fail "the DtoH copy in 'check' is not kept"; }
  grep -q "saxpy(" sum && fail "kernels outside the 'check' range were kept"
  "$vb" trace --db c.db --capture-range nvtx:nowhere -- "$VB_TRACE_PROG" 1000 1 >out 2>err || fail "exit $?"
  expect 0 "capture nvtx:nowhere: 0 windows" "$vb" summary --db c.db ;;
gpu-trace-neighbours)
  # a CUPTI client of the program's own, started before CUDA or after, shares CUPTI with
  # varbench trace (the preload, cupti_mux.h): both see the 50 kernels, and the case names it;
  # a GPU hidden from the program is reported as CUDA failing to start
  [ -x "${VB_CUPTI_CLIENT:-}" ] || fail "trace_cupti_client not built"
  "$VB_CUPTI_CLIENT" after 5 >out 2>err; rc=$?
  [ "$rc" -eq 3 ] && { echo "no GPU: skipped"; exit 77; }
  run=0
  for when in before after; do
    "$vb" trace --db n.db -- "$VB_CUPTI_CLIENT" $when 50 >out 2>err; rc=$?
    run=$((run + 1))
    cat out err
    [ "$rc" -eq 0 ] || fail "$when: the program's own CUPTI client did not see its 50 kernels (exit $rc)"
    grep -q "trace_cupti_client: $when: 50 launches, 50 kernel records" out || fail "$when: no answer"
    "$vb" summary --db n.db --run $run >sum 2>&1 || fail "$when: summary"
    grep -q "CUPTI client (pid [0-9]*, trace_cupti_client) shared CUPTI: it was handed 50 kernels" sum ||
      fail "$when: the case does not say what the program's client got"
    bash "$VB_TRACE_DIR/expect.sh" sum "calls 50 inc(float*, int)" >exp || { cat exp; fail "$when: varbench lost kernels"; }
  done
  CUDA_VISIBLE_DEVICES= "$vb" trace --db n.db -- "$VB_TRACE_PROG" 1000 1 >out 2>err; rc=$?
  [ "$rc" -eq 3 ] || fail "the program's exit $rc, expected its 3 (no CUDA device)"
  grep -q "CUDA could not start in the process (cuInit: CUDA_ERROR_NO_DEVICE" err || fail "no CUDA start failure said"
  grep -q "made no CUDA calls" err && fail "reported as no CUDA calls" ;;
gpu-fw-torch|gpu-fw-jax|gpu-fw-cupy|gpu-fw-numba|gpu-fw-triton|gpu-fw-samples|gpu-fw-ddp|gpu-fw-peer)
  # varbench trace on a framework's own program, held against the framework's profiler (or
  # ncu): one row of the matrix (tests/trace/fw_matrix.py), 77 where the framework is missing
  command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
  PYTHONPATH="$VB_TRACE_DIR/pyshim${PYTHONPATH:+:$PYTHONPATH}" \
    python3 "$VB_TRACE_DIR/fw_matrix.py" "${case_name#gpu-fw-}" "$vb" fw; rc=$?
  [ $rc -eq 77 ] && exit 77
  [ $rc -eq 0 ] || fail "the framework's row" ;;
*) echo "unknown case '$case_name'" >&2; exit 2 ;;
esac
echo "pass: $case_name"
