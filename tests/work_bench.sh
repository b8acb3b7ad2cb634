#!/usr/bin/env bash
# work_bench.sh CASE VBWORK VARBENCH: compare's verdicts on work planted from outside the code
# (tests/bench/work_bench.cu: its GPU rung w/loop, its CPU reference w/cpu, family m's counter
# plants). Exit 0 pass, 1 fail, 77 skip (no GPU).
#   gpu-verdicts  a run, then: its sample launching its kernel 3 times (other launches a sample:
#                 its code digest changes), its kernel's loop count from the host doubled (the
#                 same SASS and launch: annotated, still slower), its CPU reference given twice
#                 the work: each slower by its phase, exit 1, never noisy; the same run again
#                 beside a co-tenant on the board (work_bench spin): noisy, the co-tenant named,
#                 exit 7. The CPU plant is 2x, not 1.25x: on the shared H200 host this loop's
#                 e2e moved 163-211 ms between unchanged processes (README, "Comparing")
#   gpu-counters  family m with the metrics pass, then six plants each changing one thing:
#                 compare names the counter that is the cause first; an identical rerun names
#                 none; ab on one plant names it too (see the case below)
set -u
case=$1 work=$2 vb=$3
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/expect.sh
. "$here/expect.sh" # fail, expect, have_gpu, in_tmp
in_tmp
case $case in
gpu-verdicts)
  have_gpu || { echo "no GPU: skipped"; exit 77; }
  expect 0 "2 ok" "$work" run --no-metrics --filter 'w/*' --db a.db
  VB_WORK_LAUNCHES=3 expect 0 "1 ok" "$work" run --no-metrics --filter w/loop --db k.db
  expect 1 "REGRESSION (exit 1)" "$vb" compare --filter w/loop a.db k.db
  cat out
  grep -qE "^w/loop .* slower \((kernel|GPU) \+[0-9.]+%\)$" out || fail "3 launches a sample: not slower by the kernel"
  grep -qF "GPU code changed (SASS, launch configuration or launches a sample)" out ||
    fail "3 launches a sample: the code not said changed"
  VB_WORK_ITERS=2 expect 0 "1 ok" "$work" run --no-metrics --filter w/loop --db l.db
  expect 1 "REGRESSION (exit 1)" "$vb" compare --filter w/loop a.db l.db
  cat out
  grep -qE "^w/loop .* slower \((kernel|GPU) \+[0-9.]+%; the same SASS and launch: the work it was given, or the machine\)$" out ||
    fail "the loop count from the host: not slower, annotated"
  VB_WORK_CPU=2 expect 0 "1 ok" "$work" run --filter w/cpu --db c.db
  expect 1 "REGRESSION (exit 1)" "$vb" compare --filter w/cpu a.db c.db
  cat out
  grep -qE "^w/cpu .* slower \(e2e \+([4-9][0-9]|1[0-9][0-9])%" out || fail "the CPU reference given twice the work: not slower"
  # the same run beside a co-tenant: the board's ledger names it
  "$work" spin 60 & spin=$!
  sleep 2
  "$work" run --no-metrics --filter w/loop --db t.db >out 2>err; rc=$?
  kill $spin 2>/dev/null; wait $spin 2>/dev/null
  [ "$rc" -eq 0 ] || fail "the run beside a co-tenant: exit $rc"
  "$vb" compare --filter w/loop a.db t.db >out 2>&1; rc=$?
  cat out
  grep -qE "^w/loop .* noisy \(.*beside another process.*other processes: pid [0-9]+" out ||
    fail "beside a co-tenant: not noisy naming it"
  [ "$rc" -eq 7 ] || fail "beside a co-tenant: exit $rc, not 7" ;;
gpu-counters)
  # the counters that moved, named first (judge/moved.h), on family m's plants, each changing
  # one thing: m/loads' loads and stores 8 elements apart (uncoalesced), a 256th of its blocks
  # (each thread striding over 256 elements: the board mostly idle), a second read of each
  # element n/2 away (DRAM bytes read x2), another build of its kernel given ~170 registers a
  # thread (a path it never takes: occupancy an eighth); m/transpose's tile without its padding
  # (32-way shared-memory bank conflicts); m/chain's 8 chains made one dependent chain. An
  # identical rerun names none. Then ab on the stride plant as a second build (a program that
  # sets the plant and runs vbwork): its two sides' metrics runs name the same cause
  have_gpu || { echo "no GPU: skipped"; exit 77; }
  run_m() { # DB GLOB
    "$work" run --quick --filter "$2" --metrics default --db "$1" >out 2>err || fail "$1: exit $? $(tail -n 3 err)"
  }
  run_m base.db 'm/*'
  run_m same.db 'm/*'
  VB_WORK_STRIDE=8 run_m stride.db m/loads
  VB_WORK_GRID_DIV=256 run_m grid.db m/loads
  VB_WORK_PASSES=2 run_m passes.db m/loads
  VB_WORK_REGS=1 run_m regs.db m/loads
  # each of these two plants changes its own rung only: one run holds both
  VB_WORK_SMEM_PAD=0 VB_WORK_DEPENDENT=1 run_m rest.db 'm/[tc]*'
  "$vb" compare base.db same.db >out 2>&1
  cat out
  grep -q "^counters that moved" out && fail "an identical rerun named counters"
  bad=""
  for plant in "stride m/loads global (load|store) efficiency" \
               "grid m/loads blocks a grid \(launch__grid_size\)" \
               "passes m/loads DRAM bytes read \(dram__bytes_read.sum\)" \
               "regs m/loads (registers a thread \(launch__registers_per_thread\)|achieved occupancy)" \
               "rest m/transpose shared-memory load bank conflicts" \
               "rest m/chain warps stalled on a dependent instruction"; do
    read -r db rung want <<<"$plant"
    "$vb" compare --filter "$rung" base.db "$db.db" >out 2>&1; rc=$?
    cat out
    if [ "$rc" -ne 1 ]; then bad="$bad $rung:$db(exit $rc)"; continue; fi
    grep -A1 "^counters that moved" out | tail -n 1 | grep -qE "^  $rung [^:]*: $want" ||
      bad="$bad $rung:$db(not /$want/ first)"
  done
  [ -z "$bad" ] || fail "plants whose cause was not named first:$bad"
  printf '#!/bin/sh\nVB_WORK_STRIDE=8 exec "%s" "$@"\n' "$work" >planted
  chmod +x planted
  "$vb" ab "$work" ./planted --filter m/loads --rounds 6:10 --budget 1 --db ab.db >out 2>&1; rc=$?
  cat out
  [ "$rc" -eq 1 ] || fail "ab, the stride plant: exit $rc, not 1"
  grep -A1 "^counters that moved" out | tail -n 1 | grep -qE "^  m/loads [^:]*: global (load|store) efficiency" ||
    fail "ab, the stride plant: the load or store efficiency not named first" ;;
*) echo "work_bench.sh: no case '$case'" >&2; exit 2 ;;
esac
exit 0
