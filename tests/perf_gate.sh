#!/usr/bin/env bash
# perf_gate.sh CASE VARBENCH: ci/perf-gate's exit codes, which are compare's (README, Performance
# regression CI), without a GPU: the gate runs in a copy of ci/ whose build/varbench stands in
# for `varbench run` (it writes a prepared candidate database and exits as the run would) and
# hands every other command to VARBENCH. The baseline and the candidates come from the mesh
# fixtures of two H100 runs (compare: no regression between them).
#   missing  no baseline file                               -> 3
#   same     the second H100 run                            -> 0
#   wrong    a case wrong in the candidate (the run exits 1) -> 1, the case broken
#   noisy    a case throttled in the candidate              -> 7
#   nogpu    the run finds no GPU (its exit 4)               -> 2
# Exit 0 pass, 1 fail, 77 skip (no sqlite3 shell).
set -u
case_name=${1:?usage: perf_gate.sh CASE VARBENCH}
case=$case_name # expect.sh's
vb=$(readlink -f "${2:?usage: perf_gate.sh CASE VARBENCH}")
here=$(dirname "$(readlink -f "$0")")
. "$here/expect.sh"
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3 shell"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gzip -dc "$here/fixtures/mesh-h100-a.sql.gz" | sqlite3 "$tmp/base.db" || fail "fixture a"
gzip -dc "$here/fixtures/mesh-h100-b.sql.gz" | sqlite3 "$tmp/cand.db" || fail "fixture b"
stand_in "$tmp/gate" "$vb" "$tmp/cand.db" perf-gate
cd "$tmp/gate" || exit 1
gate() { VARBENCH_SKIP_BUILD=1 ci/perf-gate "$@"; }
case $case_name in
missing) expect 3 "no baseline 'nope.db'" gate nope.db ;;
same) expect 0 "no regression" gate "$tmp/base.db" ;;
wrong)
  sqlite3 "$tmp/cand.db" "UPDATE cases SET status = 'wrong-result', reason = 'max err 1' WHERE id =
    (SELECT c.id FROM cases c JOIN variants v ON v.id = c.variant_id WHERE v.name = 'device-mesh'
     LIMIT 1)" || fail "planting the wrong case"
  export STUB_RUN_RC=1
  expect 1 "broken" gate "$tmp/base.db"
  grep -q "mesh/device-mesh " perf-compare.md || fail "the broken case is not named" ;;
noisy)
  sqlite3 "$tmp/cand.db" "UPDATE cases SET dropped_samples = 2 WHERE id = (SELECT c.id FROM cases
    c JOIN variants v ON v.id = c.variant_id WHERE v.name = 'device-mesh' LIMIT 1)" ||
    fail "planting the throttled case"
  expect 7 "throttled" gate "$tmp/base.db" ;;
nogpu)
  export STUB_RUN_RC=4
  expect 2 "no CUDA device here" gate "$tmp/base.db" ;;
*) echo "unknown case '$case_name'" >&2; exit 2 ;;
esac
echo "pass: $case_name"
