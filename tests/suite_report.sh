#!/usr/bin/env bash
# suite_report.sh VARBENCH: ci/suite reports the run it just made, whatever its status, and says
# so when it is not complete (issue: it reported an older complete run, silently). Without a
# GPU and without building: ci/suite runs in a copy of ci/ (VARBENCH_SKIP_BUILD=1) whose
# build/varbench stands in for `varbench run` (it leaves a complete run 1 and an interrupted
# run 2 in the database, and exits 130 as an interrupted run does) and hands every other command
# to VARBENCH. Exit 0 pass, 1 fail, 77 skip (no sqlite3 shell).
set -u
vb=$(readlink -f "${1:?usage: suite_report.sh VARBENCH}")
here=$(dirname "$(readlink -f "$0")")
case=interrupted # expect.sh's
. "$here/expect.sh"
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3 shell"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in 1 2; do
  "$vb" run --db "$tmp/made.db" --filter mesh/cpu-reference --axis nx=8 --quick >/dev/null 2>&1
done
sqlite3 "$tmp/made.db" "UPDATE runs SET status = 'interrupted' WHERE id = 2" || fail "fixture"
stand_in "$tmp/s" "$vb" "$tmp/made.db" suite
export STUB_RUN_RC=130 # as an interrupted run exits
cd "$tmp/s" || exit 1
VARBENCH_SKIP_BUILD=1 VARBENCH_DB=./v.db VARBENCH_REPORT=./rep expect 130 \
  "run 2 is interrupted: the report shows what it stored" ci/suite --no-plots
grep -qF "varbench report --db ./v.db --run 2 -o ./rep" out || fail "the report is not of run 2"
grep -q "^### run 2" rep/report.md || fail "report.md is not run 2's"
grep -q ", interrupted: GPU" rep/report.md || fail "report.md does not say the run was interrupted"
echo "pass: interrupted"
