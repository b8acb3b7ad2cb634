#!/usr/bin/env bash
# tests/slurm/fleet.sh VARBENCH: `varbench fleet` on a real Slurm cluster. Starts a one-node
# cluster on localhost (munged, slurmctld and slurmd in the foreground, the config made from
# slurm.conf.in, all state in a temporary folder), then:
#   1. a fleet of 2 tasks (CPU only here: GPU cases skipped, the CPU references stored) in a
#      folder with spaces, quotes and '$': both runs merged into fleet.db, the report written,
#      `fleet status` exit 0;
#   2. the fault: a fleet of 3 tasks, task 1 cancelled with scancel while it runs: its run is
#      'interrupted', `fleet status` (exit 1) and the report name it, tasks 0 and 2 merged.
# Tears the cluster down whatever happens. Exit 0 pass, 1 fail, 77 skip: the cluster cannot
# start here (Slurm or munge not installed, a daemon failing), said with the daemons' logs;
# with CI=true that is a failure, not a skip (CI must run this test). Every wait has a limit.
set -u
if [ $# -ne 1 ]; then echo "usage: fleet.sh VARBENCH" >&2; exit 2; fi
vb=$(readlink -f "$1")
here=$(dirname "$(readlink -f "$0")")
tmp=$(mktemp -d /tmp/vbslurm.XXXXXX) || exit 1
chmod 755 "$tmp"
pids=()

tails() {
  local f
  for f in "$tmp"/log/*.log; do
    [ -f "$f" ] && { echo "--- tail of $f"; tail -n 15 "$f"; }
  done
}
teardown() {
  local p
  [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ] && timeout 10 scancel --user="$(id -un)" >/dev/null 2>&1
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do timeout 15 tail --pid="$p" -f /dev/null 2>/dev/null || kill -9 "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap teardown EXIT
cant_start() {
  if [ "${CI:-}" = true ]; then echo "FAIL: the cluster cannot start, and CI=true: $*"; tails; exit 1; fi
  echo "skip: the cluster cannot start: $*"; tails; exit 77
}
fail() { echo "FAIL: $*"; tails; exit 1; }

for c in munged slurmctld slurmd sbatch squeue sacct scancel sinfo sqlite3; do
  command -v "$c" >/dev/null || PATH=$PATH:/usr/sbin command -v "$c" >/dev/null ||
    cant_start "'$c' is not installed (Debian: apt-get install slurm-wlm munge sqlite3)"
done
PATH=$PATH:/usr/sbin

# munge with its own key and socket in the folder
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/log"
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 2>/dev/null && chmod 400 "$tmp/munge.key"
munged -F -f --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" --pid-file="$tmp/munged.pid" \
  --log-file="$tmp/log/munged.log" --seed-file="$tmp/munged.seed" >"$tmp/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/munge.sock" ] && break; sleep 0.1; done
[ -S "$tmp/munge.sock" ] || cant_start "munged made no socket"

# two free ports (nothing answers on either)
free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for _ in $(seq 20); do
  port=$((20000 + RANDOM % 20000))
  free "$port" && free $((port + 1)) && break
done
sed -e "s|@TMP@|$tmp|g" -e "s|@USER@|$(id -un)|g" -e "s|@CPUS@|$(nproc)|g" \
  -e "s|@CTLD_PORT@|$port|g" -e "s|@SLURMD_PORT@|$((port + 1))|g" \
  "$here/slurm.conf.in" > "$tmp/slurm.conf" || fail "cannot write slurm.conf"
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -c -i >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N localhost >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
state=
for _ in $(seq 60); do
  state=$(timeout 5 sinfo -h -n localhost -o %T 2>/dev/null)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || cant_start "the node is not idle after 30 s (sinfo: '${state:-no answer}')"
echo "cluster up: slurmctld on port $port, node localhost idle, $(nproc) CPUs"

# wait_job ID LIMIT: wait until Slurm has ended job ID (at most LIMIT s); prints its state
wait_job() {
  local s
  for _ in $(seq "$2"); do
    s=$(timeout 10 squeue -h --states=all -j "$1" -o %T 2>/dev/null | head -1)
    case $s in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) echo "$s"; return 0 ;; esac
    sleep 1
  done
  echo "${s:-unknown}"; return 1
}
conf() { sed -n "s/^$2=//p" "$1/fleet.conf"; }

# 1. two tasks, every run merged
dir="$tmp/fleet a 'q' \$x"
"$vb" fleet submit --nodes 2 --time 10 --dir "$dir" -- --filter 'mesh/*' --quick --axis nx=64 \
  || fail "fleet submit exited $?"
merge=$(conf "$dir" merge_job)
s=$(wait_job "$merge" 180) || fail "the merge job $merge has not ended in 180 s ($s)"
[ "$s" = COMPLETED ] || { cat "$dir"/logs/merge_*.out; fail "the merge job $merge is $s"; }
"$vb" fleet status "$dir" >"$tmp/status.out" 2>&1; rc=$?
cat "$tmp/status.out"
[ $rc -eq 0 ] || fail "fleet status exited $rc, expected 0"
grep -q "tasks: 2 complete, 0 running, 0 missing, 0 failed" "$tmp/status.out" || fail "not 2 complete tasks"
for db in "$dir"/runs/*.db; do
  uuid=$(sqlite3 "$db" "SELECT uuid FROM runs") || fail "cannot read $db"
  [ "$(sqlite3 "$dir/fleet.db" "SELECT status FROM runs WHERE uuid = '$uuid'")" = complete ] ||
    fail "fleet.db lacks the complete run $uuid of $db"
done
[ "$(ls "$dir"/runs/*.db | wc -l)" -eq 2 ] || fail "not 2 task databases"
[ "$(sqlite3 "$dir/fleet.db" "SELECT count(*) FROM runs WHERE status = 'complete'")" = 2 ] ||
  fail "fleet.db does not hold 2 complete runs"
for f in index.html report.md fleet.txt across-devices.txt; do
  [ -s "$dir/report/$f" ] || fail "no report/$f"
done
grep -q "^## Fleet: 2 tasks" "$dir/report/report.md" || fail "the report has no Fleet section"
echo "fleet 1: 2 tasks merged into fleet.db, report written"

# 2. the fault: task 1 of 3 cancelled while it runs (the node is exclusive: one task at a time)
dir="$tmp/fleet b"
"$vb" fleet submit --nodes 3 --time 10 --dir "$dir" -- --filter mesh/cpu-reference \
  --axis nx=2000,3000,4000,5000,6000,7000 || fail "fleet submit exited $?"
job=$(conf "$dir" array_job)
merge=$(conf "$dir" merge_job)
st=
for _ in $(seq 600); do # 0.2 s each: task 0 runs first, ~20 s
  db=$(ls "$dir"/runs/*-"${job}"_1.db 2>/dev/null | head -1)
  [ -n "$db" ] && st=$(sqlite3 "$db" "SELECT status FROM runs" 2>/dev/null)
  [ "$st" = running ] && break
  sleep 0.2
done
[ "$st" = running ] || fail "task 1 of job $job never ran (its run: '${st:-none}')"
scancel "${job}_1" || fail "scancel ${job}_1 exited $?"
echo "task 1 (${job}_1) cancelled while its run was '$st'"
s=$(wait_job "$merge" 240) || fail "the merge job $merge has not ended in 240 s ($s)"
[ "$s" = COMPLETED ] || { cat "$dir"/logs/merge_*.out; fail "the merge job $merge is $s"; }
"$vb" fleet status "$dir" >"$tmp/status.out" 2>&1; rc=$?
cat "$tmp/status.out"
[ $rc -eq 1 ] || fail "fleet status exited $rc, expected 1 (a task failed)"
grep -q "^failed: task 1 (run 'interrupted' with [0-9]* cases\?: CANCELLED)" "$tmp/status.out" ||
  fail "fleet status does not name task 1 as failed and cancelled"
grep -q "tasks: 2 complete, 0 running, 0 missing, 1 failed" "$tmp/status.out" || fail "not 2 complete, 1 failed"
grep -q "failed: task 1 (run 'interrupted'" "$dir/report/report.md" || fail "the report does not name task 1"
grep -q "failed: task 1 (run 'interrupted'" "$dir/report/fleet.txt" || fail "fleet.txt does not name task 1"
echo "report/report.md, its Fleet section:"
sed -n '/^## Fleet/,/^## [^F]/p' "$dir/report/report.md" | sed '$d' | sed 's/^/  /'
[ "$(sqlite3 "$dir/fleet.db" "SELECT group_concat(status, ' ') FROM (SELECT status FROM runs ORDER BY status)")" = \
  "complete complete interrupted" ] || fail "fleet.db does not hold 2 complete runs and the interrupted one"
for t in 0 2; do
  uuid=$(sqlite3 "$dir"/runs/*-"${job}_$t".db "SELECT uuid FROM runs") || fail "no database of task $t"
  [ "$(sqlite3 "$dir/fleet.db" "SELECT status FROM runs WHERE uuid = '$uuid'")" = complete ] ||
    fail "task $t's run is not merged complete"
done
echo "fleet 2: task 1 cancelled and named; tasks 0 and 2 merged"
echo "pass: fleet on Slurm"
