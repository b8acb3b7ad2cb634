#!/usr/bin/env bash
# store_guard.sh CASE VARBENCH: the store's guards from the command line (store_open.c,
# store_migrate.c). Cases:
#   cut      a database cut short by one byte (the last page holds copies, whose source kind a
#            missing byte turned from 'Device' into 'Unknown') and by a page and a byte: every
#            reader, run and migrate exit 3 naming the file and its sizes; the file untouched
#   migrate  ROUNDS (default 3) rounds of two `varbench migrate` of one schema-7 file of about
#            MB megabytes (default 40) started together: exactly one migrates it, the other exits
#            3 naming the winner's pid; the file then complete (runs, export, row counts equal
#            to the old file's), no temporary or lock file left
#   writer   a run and a reader started during a migration: the run exits 3 naming the
#            migration's pid (nothing stored), the reader reads the old file (exit 0); the
#            migration completes
# ROUNDS=20 MB=300 store_guard.sh migrate VARBENCH is the long form. Needs the sqlite3 shell
# (skips, 77, without it). Exit 0 pass, 1 fail.
set -u
case=${1:-} vb=${2:-}
if [ -z "$case" ] || [ ! -x "$vb" ]; then
  echo "usage: store_guard.sh cut|migrate|writer VARBENCH" >&2
  exit 2
fi
vb=$(cd "$(dirname "$vb")" && pwd)/$(basename "$vb")
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3 shell" >&2; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$here/fixtures
# shellcheck source=tests/expect.sh
. "$here/expect.sh" # fail, expect, in_tmp
in_tmp
# counts FILE: every table's row count, one "table n" line each (for equal-content checks)
counts() {
  local t
  for t in runs cases samples CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_MEMCPY variants; do
    echo "$t $(sqlite3 "$1" "SELECT count(*) FROM $t")"
  done
}
# big_v7 FILE MB: the schema-7 fixture grown to about MB megabytes of kernel records
big_v7() {
  gzip -dc "$fixtures/schema-v7.db.gz" >"$1"
  sqlite3 "$1" "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < $2 * 15600)
    INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL(case_id, start, end, deviceId, contextId, streamId,
      correlationId, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory,
      dynamicSharedMemory, registersPerThread)
    SELECT 1 + x % 4, 1795823894834744953 + x * 1000, 1795823894834745653 + x * 1000, 0, 1, 7, x,
      1024, 1, 1, 256, 1, 1, 0, 0, 32 FROM c" || fail "cannot grow the schema-7 fixture"
}
# leftovers FILE: nothing beside FILE but FILE.bak (and the test's own FILE.orig)
leftovers() {
  local f
  for f in "$1"?* "$1".*; do
    case $f in "$1.bak" | "$1.orig" | "$1?*" | "$1.*") ;; *) fail "left beside $1: $f" ;; esac
  done
}

case $case in
cut)
  gzip -dc "$fixtures/ladders-h100.sql.gz" | sqlite3 a.db
  # copies written last: the file's last page holds copy records
  sqlite3 a.db "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY SELECT * FROM CUPTI_ACTIVITY_KIND_MEMCPY"
  size=$(stat -c %s a.db)
  pages=$((size / 4096))
  for cut in 1 4097; do
    cp a.db c.db && truncate -s -$cut c.db && cp c.db c.db.orig
    want="database 'c.db' is cut short: $((size - cut)) bytes, but its header says $pages pages of 4096 bytes ($size bytes)"
    for cmd in runs "export --format csv" "export --format trace" summary report history; do
      # shellcheck disable=SC2086
      expect 3 "$want" "$vb" $cmd --db c.db
    done
    grep -qF "hint: the file was truncated" err || fail "no hint"
    expect 3 "$want" "$vb" run --quick --filter mesh/cpu-reference --axis nx=8 --db c.db
    expect 3 "is cut short: $((size - cut)) bytes" "$vb" migrate c.db
    expect 3 "is cut short" "$vb" compare a.db c.db
    cmp -s c.db c.db.orig || fail "a refused open changed the file"
    leftovers c.db
  done
  # the file whole: read as before
  expect 0 "Device -> Pinned" "$vb" export --format trace --db a.db ;;
migrate)
  rounds=${ROUNDS:-3} mb=${MB:-40}
  big_v7 old.db "$mb"
  counts old.db >old.counts
  for r in $(seq "$rounds"); do
    rm -f m.db m.db.bak && cp old.db m.db
    "$vb" migrate m.db >o1 2>e1 & p1=$!
    "$vb" migrate m.db >o2 2>e2 & p2=$!
    wait $p1; c1=$?
    wait $p2; c2=$?
    if [ "$c1" -eq 0 ] && [ "$c2" -eq 3 ]; then won=$p1 lost=2
    elif [ "$c1" -eq 3 ] && [ "$c2" -eq 0 ]; then won=$p2 lost=1
    else cat o1 e1 o2 e2 >&2; fail "round $r: exits $c1 and $c2, not one 0 and one 3"; fi
    grep -qF "migrated from schema 7 to" o$((3 - lost)) || fail "round $r: the winner did not migrate"
    grep -qF "varbench migrate: 'm.db' is being migrated by pid $won" e$lost ||
      { cat e$lost >&2; fail "round $r: the loser did not name pid $won"; }
    [ "$(sqlite3 m.db 'PRAGMA quick_check')" = ok ] || fail "round $r: not intact"
    counts m.db | cmp -s - old.counts || fail "round $r: row counts differ from the old file's"
    cmp -s m.db.bak old.db || fail "round $r: the old file was not kept as it was"
    expect 0 "complete" "$vb" runs --db m.db
    expect 0 "" "$vb" export --format csv --db m.db
    leftovers m.db
    echo "round $r: pid $won migrated ($(stat -c %s m.db) bytes), the other exited 3: $(head -1 e$lost)"
  done ;;
writer)
  big_v7 w.db "${MB:-40}"
  counts w.db >old.counts
  "$vb" migrate w.db >mo 2>me & pm=$!
  for _ in $(seq 500); do [ -e w.db.migrate-lock ] && break; sleep 0.01; done
  [ -e w.db.migrate-lock ] || fail "the migration never took its lock"
  expect 3 "'w.db' is being migrated by pid $pm" "$vb" run --quick --filter mesh/cpu-reference --axis nx=8 --db w.db
  grep -qF "hint: wait for 'varbench migrate' to finish" err || fail "no hint"
  expect 0 "complete" "$vb" runs --db w.db
  wait $pm || { cat mo me >&2; fail "the migration failed"; }
  counts w.db | cmp -s - old.counts || fail "the refused run changed the file"
  leftovers w.db
  # after it: the run goes ahead on the migrated file
  expect 0 "stored in w.db" "$vb" run --quick --filter mesh/cpu-reference --axis nx=8 --db w.db ;;
*)
  echo "store_guard.sh: no case '$case'" >&2
  exit 2 ;;
esac
exit 0
