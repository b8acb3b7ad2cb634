#!/usr/bin/env bash
# device.sh OUT: the `trace` step of ci/device-session, issue 6's "done when" on a GPU machine.
# From the repository root, with the build in ./build (VB, PROG and PYTHON override the
# varbench binary, trace_prog_c and the Python). Writes OUT/trace.log (everything below, and the
# summaries), OUT/trace.db (the traced runs and a suite run together) and OUT/trace-report/.
#   1. three unmodified programs traced, their summaries held against their known copies and
#      kernels: CUDA C (trace_prog_c), Numba (a vectorize(target='cuda') ufunc on four host
#      arrays, seed 001's t38.py), CuPy; PyTorch as well, for information
#   2. interrupted programs (C and Python, SIGINT to varbench, passed on) still store their trace
#   3. another CUPTI client in the program (and ncu around varbench, when ncu is installed)
#   4. the overhead of tracing on a program of at least 1 s (tests/trace/overhead.sh): 3 s checked,
#      1 s for information
#   5. a suite run into the same database, the report (no gnuplot here: --no-plots) and the
#      summary of the suite run
# Ends with one line per check; exit 0 when every required check passed.
set -u
out=${1:?usage: tests/trace/device.sh OUTDIR}
vb=${VB:-./build/varbench}
prog=${PROG:-./build/tests/trace/trace_prog_c}
py=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
# numba-cuda on the GPU image still registers np.row_stack, which its NumPy 2.5 removed: the
# alias comes back through pyshim/sitecustomize.py (the programs themselves are unmodified)
export PYTHONPATH="$here/pyshim${PYTHONPATH:+:$PYTHONPATH}"
db=$out/trace.db
log=$out/trace.log
verdicts=()
required_failed=0
rm -f "$db"
: >"$log"

say() { echo "$*" | tee -a "$log"; }
# verdict REQUIRED NAME OK: records one check
verdict() {
  if [ "$3" = 0 ]; then verdicts+=("PASS  $2"); else
    verdicts+=("FAIL  $2$([ "$1" = 1 ] || echo ' (informational)')")
    [ "$1" = 1 ] && required_failed=1
  fi
}

# traced REQUIRED NAME EXPECTED_EXIT CHECKS... -- COMMAND...: traces COMMAND into the database,
# logs its output and summary, and holds the summary against the CHECKS (expect.sh)
traced() {
  local required=$1 name=$2 want=$3 checks=() rc ok=0
  shift 3
  while [ $# -gt 0 ] && [ "$1" != -- ]; do checks+=("$1"); shift; done
  shift
  say ""
  say "==== $name: varbench trace -- $*"
  "$vb" trace -q --db "$db" -- "$@" >"$out/trace-$name.out" 2>"$out/trace-$name.err"
  rc=$?
  cat "$out/trace-$name.out" "$out/trace-$name.err" | tail -n 20 | tee -a "$log"
  [ "$rc" = "$want" ] || { say "exit $rc, expected $want"; ok=1; }
  "$vb" summary --db "$db" >"$out/trace-$name.summary" 2>&1 || ok=1
  tee -a "$log" <"$out/trace-$name.summary"
  if [ ${#checks[@]} -gt 0 ]; then
    bash "$here/expect.sh" "$out/trace-$name.summary" "${checks[@]}" | tee -a "$log"
    [ "${PIPESTATUS[0]}" = 0 ] || ok=1
  fi
  verdict "$required" "$name" "$ok"
}

# interrupted NAME READY_TEXT CHECKS... -- COMMAND...: traces COMMAND in the background, sends
# SIGINT to varbench once the program prints READY_TEXT, and expects exit 130 and a stored trace
interrupted() {
  local name=$1 ready=$2 checks=() pid rc ok=0 k
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do checks+=("$1"); shift; done
  shift
  say ""
  say "==== $name: varbench trace -- $*, then SIGINT to varbench"
  "$vb" trace -q --db "$db" -- "$@" >"$out/trace-$name.out" 2>"$out/trace-$name.err" &
  pid=$!
  for ((k = 0; k < 1200; k++)); do
    grep -q "$ready" "$out/trace-$name.out" && break
    kill -0 "$pid" 2>/dev/null || break # it ended before it was ready
    sleep 0.1
  done
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
  rc=$?
  cat "$out/trace-$name.out" "$out/trace-$name.err" | tail -n 20 | tee -a "$log"
  [ "$rc" = 130 ] || { say "exit $rc, expected 130"; ok=1; }
  "$vb" summary --db "$db" >"$out/trace-$name.summary" 2>&1 || ok=1
  tee -a "$log" <"$out/trace-$name.summary"
  grep -q "(trace, interrupted, exit code 130)" "$out/trace-$name.summary" || { say "the run is not interrupted"; ok=1; }
  bash "$here/expect.sh" "$out/trace-$name.summary" "${checks[@]}" | tee -a "$log"
  [ "${PIPESTATUS[0]}" = 0 ] || ok=1
  verdict 1 "$name" "$ok"
}

say "varbench trace on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
say "python: $($py -c 'import sys; print(sys.version.split()[0])' 2>&1)"
for m in numba numba_cuda cupy torch; do
  say "  $m: $($py -c "import $m; print($m.__version__)" 2>&1 | tail -n 1)"
done

# 1. three unmodified programs (and PyTorch)
traced 1 cuda-c 0 "processes 1" "copy HtoD 2 32000000" "copy DtoH 1 16000000" "copy memset 1 16000000" \
  "calls 20 saxpy(int, int, float, float const*, float*)" "calls 20 cudaLaunchKernel" "calls 3 cudaMemcpy" \
  "calls 1 compute" "calls 1 setup" "calls 1 check" -- "$prog" 4000000 20
traced 1 numba-vectorize 0 "processes 1" "copy HtoD 4 32000000" "copy DtoH 1 8000000" "calls 1 a_cuda" \
  -- "$py" "$here/numba_vectorize.py" 1000
traced 1 cupy 0 "processes 1" "copy HtoD 2 8388608" "copy DtoH 1 4194304" "calls 1 vb_saxpy" \
  -- "$py" "$here/cupy_prog.py" 1048576
traced 0 torch 0 "processes 1" "copy HtoD 2 8388608" "copy DtoH 1 4194304" \
  -- "$py" "$here/torch_prog.py" 1048576

# 2. interrupted: a C program (our signal handler) and a Python one (Python's KeyboardInterrupt,
# then Py_AtExit before Python re-raises SIGINT)
interrupted interrupted-c "sleeping" "processes 1" "copy HtoD 2 8000000" "copy DtoH 1 4000000" \
  "calls 5 saxpy(int" -- "$prog" 1000000 5 1 60
interrupted interrupted-python "sleeping" "processes 1" "copy HtoD 4 2880000" "copy DtoH 1 720000" \
  "calls 1 a_cuda" -- "$py" "$here/numba_vectorize.py" 300 60

# 3. another CUPTI client: in the program, then (when installed) ncu around varbench
say ""
say "==== cupti-client: a program that subscribes to CUPTI itself"
"$vb" trace -q --db "$db" -- "$py" "$here/cupti_client.py" >"$out/trace-cupti-client.out" 2>&1
rc=$?
tee -a "$log" <"$out/trace-cupti-client.out"
ok=0
[ "$rc" = 0 ] || { say "exit $rc, expected 0 (the program must run on, untraced)"; ok=1; }
"$vb" summary --db "$db" 2>&1 | sed -n '1,8p' | tee -a "$log"
verdict 1 cupti-client-runs-on "$ok"
# CUPTI 13.0 allows one subscriber (DESIGN.md): the injection must say so and store the process
# as untraced; a CUPTI that allowed two would trace it, which this check reports
ok=0
grep -q "another CUPTI client" "$out/trace-cupti-client.out" || { say "no message about another CUPTI client"; ok=1; }
"$vb" summary --db "$db" 2>&1 | grep -q "trace/cupti_client.py: skipped" || { say "the process is not stored as untraced"; ok=1; }
verdict 1 cupti-client-message "$ok"
if command -v ncu >/dev/null; then
  say ""
  say "==== under-ncu: ncu around varbench trace"
  ncu --clock-control none -c 1 --metrics gpu__time_duration.sum "$vb" trace -q --db "$db" -- \
    "$prog" 1000000 2 >"$out/trace-ncu.out" 2>&1
  rc=$?
  tail -n 30 "$out/trace-ncu.out" | tee -a "$log"
  ok=0
  [ "$rc" = 0 ] || ok=1
  grep -qE "another CUDA tool is injected|another CUPTI client" "$out/trace-ncu.out" || ok=1
  verdict 0 under-ncu "$ok"
fi

# 3b. counters of a traced program: varbench trace --metrics gst_efficiency on seed 000's t2.py
# (a Numba guvectorize kernel writing rows of 4 float32), against ncu on the same kernel
say ""
say "==== metrics: varbench trace --metrics gst_efficiency on numba_guvectorize.py (seed 000's t2.py)"
"$vb" trace -q --metrics gst_efficiency --db "$db" -- "$py" "$here/numba_guvectorize.py" \
  >"$out/trace-metrics.out" 2>&1
rc=$?
tail -n 8 "$out/trace-metrics.out" | tee -a "$log"
"$vb" summary --db "$db" >"$out/trace-metrics.summary" 2>&1
tee -a "$log" <"$out/trace-metrics.summary"
ncu --clock-control none --csv --page raw --log-file "$out/ncu-guvectorize.csv" -k regex:gufunc \
  --metrics smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct \
  "$py" "$here/numba_guvectorize.py" >/dev/null 2>&1
ok=0
[ "$rc" = 0 ] || { say "exit $rc, expected 0"; ok=1; }
"$py" - "$out/trace-metrics.summary" "$out/ncu-guvectorize.csv" <<'PY' 2>&1 | tee -a "$log"
import csv, re, sys
vb = [float(m.group(1)) for m in re.finditer(r"gst_efficiency\s+\S+%\s+\S+%\s+([0-9.]+)%", open(sys.argv[1]).read())]
rows = list(csv.reader([l for l in open(sys.argv[2]) if l.startswith('"')]))
col = rows[0].index("smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct")
nc = [float(r[col].replace(",", "")) for r in rows[2:]]
print(f"gst_efficiency of the guvectorize kernel: varbench trace {vb}, ncu {nc}")
ok = len(vb) == 1 and len(nc) >= 1 and all(abs(vb[0] - x) <= 0.5 for x in nc) and abs(vb[0] - 25) <= 0.5
print("metrics: " + ("varbench equals ncu (25%)" if ok else "MISMATCH"))
sys.exit(0 if ok else 1)
PY
[ "${PIPESTATUS[0]}" = 0 ] || ok=1
verdict 1 trace-metrics "$ok"

# 4. overhead on a program of at least 1 s: 3 s (the check) and 1 s (for information: CUPTI's
# start in the program and storing the trace are a fixed cost, a larger share of a short program)
say ""
say "==== overhead: trace_prog_c of about 3 s, untraced and traced, median of 5 each"
bash "$here/overhead.sh" "$vb" "$prog" 3 5 2>&1 | tee -a "$log"
verdict 1 overhead-3s "${PIPESTATUS[0]}"
say ""
say "==== overhead: trace_prog_c of about 1 s, untraced and traced, median of 5 each"
bash "$here/overhead.sh" "$vb" "$prog" 1 5 2>&1 | tee -a "$log"
verdict 0 overhead-1s "${PIPESTATUS[0]}"

# 5. a suite run into the same database; report and summary read both
say ""
say "==== suite run, report and summary in the same database"
"$vb" run --filter mesh/device-mesh --axis nx=1000 --quick --db "$db" 2>&1 | tail -n 4 | tee -a "$log"
rm -rf "$out/trace-report"
"$vb" report --no-plots --db "$db" -o "$out/trace-report" 2>&1 | tee -a "$log"
ok=0
# report.md escapes Markdown: trace/trace\_prog\_c
sed 's/\\_/_/g' "$out/trace-report/report.md" | grep -q "trace/trace_prog_c" || { say "no traced program in report.md"; ok=1; }
grep -q "mesh/device-mesh" "$out/trace-report/report.md" || { say "no suite case in report.md"; ok=1; }
grep -E "^(## |\| (trace|mesh)/)" "$out/trace-report/report.md" | tee -a "$log"
verdict 1 report "$ok"
# the suite run is the newest complete run: export's default
last=$("$vb" export --db "$db" --format csv 2>/dev/null | awk -F, 'NR == 2 { print $2 }')
[ -n "$last" ] && "$vb" summary --db "$db" --run "$last" 2>&1 | sed -n '1,16p' | tee -a "$log"

say ""
say "==== verdicts"
for v in "${verdicts[@]}"; do say "$v"; done
exit $required_failed
