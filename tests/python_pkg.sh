#!/usr/bin/env bash
# python_pkg.sh CASE VARBENCH PYDIR: the Python package (python/varbench, staged with its
# libvarbench.so in PYDIR = build/python) as a user's program uses it, on the package alone:
# tests/python/bench_cpu.py and small programs written here. Exit 0 pass, 1 fail, 77 skip.
#   good      list; a run stores the CPU rungs verified, the wrong-on-purpose one as such, the
#             GPU rung skipped without a device (exit 4), the rung that skips itself, a summary;
#             export and compare read it; a float axis and --axis; vb.bench, the one-call
#             form, right and wrong
#   broken    the same program with its CPU rung made wrong: run exits 1, compare names it
#   raises    a variant whose function raises: the case fails with the Python message and
#             file:line, the run goes on (exit 1)
#   declared  mistakes in a declaration: exit 2 naming them, nothing run
#   interrupted  SIGINT in the middle of a run: the C library's handler, not Python's, takes it:
#             the run stored 'interrupted', exit 130, no Python traceback
#   library   VARBENCH_LIB at nothing, and a library of another layout: a clear ImportError
#   catalog   python/seeds/*.py: Python rungs in varbench's own mesh, gufunc, ufunc, calx and
#             saxpy families (all_seeds.py: all of them in one program), verified against their C references beside their C rungs
#             (the plain-Python rungs here, on vb.data_uniform's inputs, which equal the C
#             library's bit for bit; the Numba ones skipped without a GPU); catalog() and
#             problem() refusing what is not there
#   gpu-seeds (gpu) the same programs on a GPU: the seeds' Numba rungs verified at the
#             catalog's default sizes, beside the C rungs (77 without numba-cuda)
#   gpu-frameworks  (gpu) tests/python/bench_fw.py: a saxpy kernel of Numba, CuPy, PyTorch,
#             Triton and JAX each a rung (those installed): run twice, compared (exit 0); the torch rung
#             slowed 3x (VB_FW_SLOW), compared (exit 1, naming it); each rung's kernel median
#             at n = 2^26 within 2% of ncu's median kernel over 21 calls outside varbench (both
#             warm), ncu's scaled by what CUPTI's kernel timestamps cost the kernel; what a sample
#             costs beyond its kernel, each rung beside the C catalog's saxpy/device-vec4
#   gpu-inproc  (gpu) tests/python/bench_inproc.py: PyTorch imported before varbench (its libcupti
#             loaded first): one libcupti mapped, a training step's records in every timed
#             sample equal to torch.profiler's of the same step (77 without PyTorch)
#   installed the package as `cmake --install` puts it (<prefix>/lib/varbench/python), a copy of
#             bench_cpu.py run from a folder of its own against it alone
#   pip       `pip install --no-index` into fresh virtual environments, offline: of PYDIR, of the
#             installed prefix's folder, and of the wheel vb_wheel.py writes by hand; each
#             imports its own copy of the library and lists bench_cpu.py, PYTHONPATH unset
#   numpy-compat  a stand-in numba-cuda that registers np.row_stack beside a stand-in NumPy 2.5
#             without it: `import varbench` first makes numba.cuda import (one stderr line naming
#             both versions), a Numba rung runs; VARBENCH_NUMPY_COMPAT=0: the rung fails with one
#             message naming both versions and the fix; a numba-cuda that bounds its overload
#             below 2.5, or no Numba, and NumPy is left alone (not even imported)
set -u
case=$1 vb=$2 pydir=$3
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/expect.sh
. "$here/expect.sh" # fail, expect, have_gpu, nogpu_code, in_tmp
in_tmp
nogpu=$(nogpu_code)
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
export PYTHONPATH=$pydir
bench=$here/python/bench_cpu.py
count() { # count DB SQL: one number
  python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$@"
}
rung() { # rung DB FAMILY VARIANT CONDITION: how many of FAMILY/VARIANT's cases meet CONDITION (on c)
  count "$1" "SELECT count(*) FROM cases c JOIN variants v ON v.id = c.variant_id WHERE v.family = '$2' AND v.name = '$3' AND $4"
}
verified() { # verified DB FAMILY N VARIANT...: each FAMILY/VARIANT ok at N points of DB
  local db=$1 fam=$2 n=$3 v
  shift 3
  for v in "$@"; do
    [ "$(rung "$db" "$fam" "$v" "c.status = 'ok'")" -eq "$n" ] || fail "$fam/$v not verified at $n points"
  done
}
case $case in
good)
  expect 0 "pyex/gpu-stand-in            gpu  needs a device" python3 "$bench" list
  grep -qF 'axes: n=1000,4000 [0..]; mode=plain,twice {plain,twice}' out || fail "list's axes"
  expect $nogpu "run 1 stored in py.db: 16 cases" python3 "$bench" run --quick --db py.db
  grep -qF '4 wrong on purpose, 0 failed' out || fail "the wrong rung is not wrong on purpose"
  grep -qF 'skipped: only at n=1000' out || fail "vb.Skip's reason"
  [ "$(count py.db "SELECT count(*) FROM cases WHERE status = 'ok'")" -eq 6 ] || fail "6 ok cases"
  [ $nogpu -eq 0 ] || [ "$(rung py.db pyex gpu-stand-in "c.status = 'skipped'")" -eq 4 ] ||
    fail "the GPU rung's 4 cases skipped"
  expect 0 "summary:py_n" "$vb" export --db py.db --format csv
  grep -q 'pyex/cpu-loop.*n=4000,mode=twice' out || fail "export's cases"
  # default sampling (hundreds of samples a case): one --quick sample of a Python loop moved 50x
  # once under a loaded CI machine, which compare rightly calls noisy
  expect 0 "" python3 "$bench" run --filter 'pyex/cpu-loop' --db cmp.db
  expect 0 "" python3 "$bench" run --filter 'pyex/cpu-loop' --db cmp.db
  expect 0 "no regression" "$vb" compare cmp.db cmp.db --base-run 1 --cand-run 2 --metric e2e --threshold 900
  # a float axis, --axis over a Python family's axes, a summary in export
  cat >fa.py <<'PY'
import sys, varbench as vb
p = vb.Family('fa').problem('scale', axes={'n': [10], 'k': [0.5, 1.25]},
                            reference=lambda pt: [pt['k'] * i for i in range(pt['n'])], rtol=1e-12)
@p.variant(gpu=False)
def mul(state):
    n, k = state['n'], state['k']
    state.summary('k_seen', k)
    state.exec(lambda: [k * i for i in range(n)])
sys.exit(vb.main())
PY
  expect 0 "k=0.5,1.25 [float]" python3 fa.py list
  expect 0 "1 cases: 1 ok" python3 fa.py run --quick --axis n=7 --axis k=2.5 --db fa.db
  expect 0 'fa/mul,"n=7,k=2.5"' "$vb" export --db fa.db --format csv
  grep -q 'summary:k_seen' out && grep -q ',2.5$' out || fail "the summary of the float axis' value"
  # the one-call form: a verified callable, and one whose answer is wrong
  cat >one.py <<'PY'
import varbench as vb
sq = lambda: [float(i * i) for i in range(1000)]
print(vb.bench(sq, name='squares', db='b.db', gpu=False, reference=sq, args=['--quick']))
print(vb.bench(lambda: sq()[:-1] + [0.0], name='wrong', db='b.db', gpu=False, reference=sq,
               args=['--quick']))
PY
  expect 0 "(0, {'status': 'ok', 'samples': 1," python3 one.py
  grep -qF "(1, {'status': 'wrong-result'" out || fail "bench() of a wrong answer" ;;
broken)
  expect 0 "" python3 "$bench" run --quick --filter 'pyex/cpu-loop' --db py.db
  VB_PY_BREAK=1 expect 1 "wrong-result" python3 "$bench" run --quick --filter 'pyex/cpu-loop' --db py.db
  grep -qF '1 of 1000 values out of tolerance' out || fail "the planted fault's count"
  expect 1 "pyex/cpu-loop" "$vb" compare py.db py.db --base-run 1 --cand-run 2
  grep -q 'broken' out || fail "compare did not call it broken" ;;
raises)
  cat >raises.py <<'PY'
import sys
import varbench as vb
fam = vb.Family('pyr')
p = fam.problem('p', axes={'n': [3]}, reference=lambda pt: [1.0] * pt['n'])
@p.variant(gpu=False)
def boom(state):
    state.exec(lambda: 1 / 0)
@p.variant(gpu=False)
def no_exec(state):
    pass
@p.variant(gpu=False)
def fine(state):
    state.exec(lambda: [1.0, 1.0, 1.0])
sys.exit(vb.main())
PY
  expect 1 "ZeroDivisionError: division by zero [raises.py:7]" python3 raises.py run --quick --db r.db
  grep -qF "variant no-exec: its function did not call state.exec(fn)" out || fail "no exec"
  [ "$(count r.db "SELECT count(*) FROM cases WHERE status = 'ok'")" -eq 1 ] || fail "fine ran" ;;
declared)
  printf '%s\n' 'import sys, varbench as vb' 'f = vb.Family("Bad Name")' >bad1.py
  expect 1 "family name 'Bad Name': use [a-z0-9_-]" python3 bad1.py list
  printf '%s\n' 'import sys, varbench as vb' 'f = vb.Family("f")' \
    'p = f.problem("p", axes={"n": [1]})' '@p.variant(gpu=True)' 'def v(s): s.exec(lambda: 0)' \
    'sys.exit(vb.main())' >bad2.py
  expect 2 "GPU variant 'f/v' states no traffic" python3 bad2.py run --db b.db
  [ ! -e b.db ] || fail "a database made for a wrong declaration"
  printf '%s\n' 'import sys, varbench as vb' 'f = vb.Family("f")' 'sys.exit(vb.main())' >bad3.py
  expect 2 "family f has no variant" python3 bad3.py list
  expect 2 "unknown" python3 "$bench" run --no-such-flag --db b.db
  expect 2 "--device all is for compiled benchmark programs" python3 "$bench" run --device all --db b.db
  [ ! -e b.db ] || fail "a database made for --device all" ;;
interrupted)
  cat >slow.py <<'PY'
import sys, time, varbench as vb
p = vb.Family('slow').problem('p', axes={'n': list(range(1, 21))}, reference=lambda pt: [1.0])
@p.variant(gpu=False)
def nap(state):
    state.exec(lambda: (time.sleep(0.05), [1.0])[1])
sys.exit(vb.main())
PY
  python3 slow.py run --db i.db >out 2>err &
  pid=$!
  for _ in $(seq 200); do grep -q "slow/nap" out 2>/dev/null && break; sleep 0.1; done
  kill -INT $pid
  wait $pid
  rc=$?
  [ $rc -eq 130 ] || fail "an interrupted Python run exited $rc, not 130"
  grep -q "Traceback" out err && fail "a Python traceback on SIGINT"
  [ "$(count i.db "SELECT status FROM runs")" = interrupted ] || fail "the run is not stored 'interrupted'" ;;
library)
  VARBENCH_LIB=/nonexistent/libvarbench.so expect 1 "VARBENCH_LIB=/nonexistent/libvarbench.so: no such file" python3 "$bench" list
  cat >abi.py <<'PY'
import ctypes
import varbench._abi as a
def layout(name):  # a library whose vb_err is 8 bytes longer than the package's mirror
    n = name.decode()
    cls = a.STRUCTS[n.split('.')[0]]
    if '.' in n:
        return getattr(cls, n.split('.')[1]).offset
    return ctypes.sizeof(cls) + (8 if n == 'vb_err' else 0)
class Lib:
    pass
lib = Lib()
lib.vb_py_abi = layout
try:
    a._check(lib, 'fake.so')
except a.LibraryError as e:
    print(e)
PY
  expect 0 "fake.so: struct vb_err is 1548 bytes there, 1540 in varbench/_abi.py" python3 abi.py ;;
catalog)
  seeds=$here/../python/seeds
  expect 0 "11 variants, 22 cases" python3 "$seeds/mesh_numba.py" list
  grep -q "mesh/device-mesh-graph .*gpu" out && grep -q "mesh/python-loop .*cpu" out ||
    fail "the C and the Python rungs in one family"
  # every seed's rungs in one program, beside the whole catalog (one run, one report)
  expect 0 "58 variants, 173 cases" python3 "$seeds/all_seeds.py" list
  for v in mesh/numba-t40 gufunc/numba-guvectorize ufunc/numba-do-cos calx/numba-serial \
      saxpy/cuda-python calx/tiled-graph; do
    grep -q "^ *$v " out || fail "all_seeds.py lists no $v"
  done
  expect $nogpu "22 cases" python3 "$seeds/mesh_numba.py" run --quick --axis nx=60,100 --db c.db
  [ "$(rung c.db mesh python-loop "c.status = 'ok' AND c.max_abs_err <= 1e-12")" -eq 2 ] ||
    fail "the Python rung verified against the C reference at both sizes"
  expect $nogpu "64 cases" python3 "$seeds/gufunc_numba.py" run --quick --axis rows=1000,3000 \
    --axis cols=4,9 --db g.db
  [ "$(rung g.db gufunc python-loop "c.status = 'ok' AND c.max_abs_err = 0")" -eq 8 ] ||
    fail "the gufunc Python rung on the C inputs, verified at 8 points"
  expect 0 "6 cases: 6 ok" python3 "$seeds/ufunc_numba.py" run --quick --filter 'ufunc/*-python' \
    --axis n=1000,50000 --db u.db
  [ "$(count u.db "SELECT count(*) FROM cases WHERE status = 'ok' AND max_abs_err = 0")" -eq 6 ] ||
    fail "the ufunc Python rungs (gaussian, clamp, cos) on the C inputs, exact at 2 sizes"
  expect $nogpu "22 cases" python3 "$seeds/calx_numba.py" run --quick --axis model_size=960,10000 --db cx.db
  [ "$(rung cx.db calx python-loop "c.status = 'ok' AND c.max_abs_err = 0")" -eq 2 ] ||
    fail "the calx Python rung (the seed's loops) exact at 2 sizes"
  expect $nogpu "12 cases" python3 "$seeds/saxpy_cuda_python.py" run --quick --axis n=1000,50000 --db x.db
  [ "$(rung x.db saxpy python-loop "c.status = 'ok'")" -eq 2 ] ||
    fail "the saxpy Python rung on the C inputs, verified at 2 sizes"
  python3 - "$(python3 -c 'import varbench; print(varbench.library_path())')" <<'PY' || fail "vb.data_uniform is not the C library's"
import ctypes, sys, varbench as vb
f = ctypes.CDLL(sys.argv[1]).vb_data_uniform
f.restype, f.argtypes = ctypes.c_double, [ctypes.c_uint64] * 2 + [ctypes.c_double] * 2
bad = [(s, i) for s in (0, 1, 0x6775, 2**63 + 5) for i in (0, 1, 17, 10**6, 2**40)
       if f(s, i, -1.5, 1.5) != vb.data_uniform(s, i, -1.5, 1.5)]
sys.exit(1 if bad else 0)
PY
  printf '%s\n' 'import varbench as vb' 'vb.catalog("nope")' >nope.py
  expect 1 "no catalog family 'nope' (the catalog: calx, gufunc, mesh, saxpy, ufunc)" python3 nope.py
  printf '%s\n' 'import varbench as vb' 'vb.catalog("mesh").problem("mesh", axes={"n": [1]})' >ax.py
  expect 1 "its problems are varbench's" python3 ax.py
  printf '%s\n' 'import varbench as vb' 'vb.catalog("mesh").problem("grid")' >pb.py
  expect 1 "catalog family mesh has no problem 'grid' (it has mesh)" python3 pb.py ;;
gpu-seeds)
  have_gpu || { echo "no GPU: skipped"; exit 77; }
  # the programs as shipped, no shim on the path: beside NumPy 2.5, numba-cuda imports because
  # the package is imported first (varbench/_compat.py), which says so once on stderr
  python3 -c 'import importlib.util as u, sys; sys.exit(not (u.find_spec("numba") and u.find_spec("numpy")))' ||
    { echo "no Numba or NumPy: skipped"; exit 77; }
  expect 0 "NumPy" python3 -c 'import varbench, numba.cuda, numpy; print("NumPy", numpy.__version__)'
  cat out err # NumPy's version, and varbench's line where it gave NumPy np.row_stack back
  expect 0 "22 cases" python3 "$here/../python/seeds/mesh_numba.py" run --quick --db s.db
  cat out
  verified s.db mesh 2 numba-t38 numba-t39 numba-t40 host-mesh broadcast-scalars device-mesh
  expect 0 "32 cases" python3 "$here/../python/seeds/gufunc_numba.py" run --quick --db s.db
  cat out
  verified s.db gufunc 4 numba-guvectorize row-sliced
  expect 0 "" python3 "$here/../python/seeds/ufunc_numba.py" run --quick --filter 'ufunc/[gcn]*' --db s.db
  cat out
  verified s.db ufunc 3 numba-vectorize numba-gridstride numba-do-cos gaussian-host \
    clamp-gridstride cos-64x64
  expect 0 "" python3 "$here/../python/seeds/calx_numba.py" run --quick --db s.db
  cat out
  verified s.db calx 5 numba-serial
  [ "$(rung s.db calx numba-race "c.status = 'wrong-result'")" -ge 1 ] ||
    fail "calx/numba-race (the seed's data race) not caught wrong"
  if python3 -c 'import cuda.bindings' 2>/dev/null || python3 -c 'from cuda import cuda' 2>/dev/null; then
    expect 0 "" python3 "$here/../python/seeds/saxpy_cuda_python.py" run --quick --db s.db
    cat out
    verified s.db saxpy 1 cuda-python nvrtc-driver
    # what Python adds to a sample: the seed's program from Python against the same program in C
    # (the same NVRTC source, copies and launch), printed for the README
    python3 - s.db <<'PY'
import sqlite3, sys
q = ("SELECT v.name, c.e2e_median_ns, c.kernel_median_ns, c.h2d_median_ns, c.d2h_median_ns "
     "FROM cases c JOIN variants v ON v.id = c.variant_id WHERE v.family = 'saxpy' AND "
     "v.name IN ('cuda-python', 'nvrtc-driver') AND c.status = 'ok'")
r = {row[0]: row[1:] for row in sqlite3.connect(sys.argv[1]).execute(q)}
py, c = r['cuda-python'], r['nvrtc-driver']
print('saxpy e2e: cuda-python %.1f us, nvrtc-driver (C) %.1f us: Python adds %.1f us a sample; '
      'kernel %.2f / %.2f us, H2D %.1f / %.1f us, D2H %.1f / %.1f us'
      % (py[0] / 1e3, c[0] / 1e3, (py[0] - c[0]) / 1e3, py[1] / 1e3, c[1] / 1e3,
         py[2] / 1e3, c[2] / 1e3, py[3] / 1e3, c[3] / 1e3))
PY
  else
    echo "no cuda-python: seed 004's rung not run"
  fi
  # the database kept for the merged report (ci/device-session's python step)
  [ -z "${VB_TEST_KEEP:-}" ] || cp s.db "$VB_TEST_KEEP/seeds.db" ;;
gpu-frameworks)
  have_gpu || { echo "no GPU: skipped"; exit 77; }
  python3 -c 'import numpy' 2>/dev/null || { echo "no NumPy: skipped"; exit 77; }
  fw=$here/python/bench_fw.py
  for i in 1 2; do
    expect 0 "5 cases" python3 "$fw" run --no-metrics --db f.db
    cat out
  done
  ok=$(count f.db "SELECT group_concat(v.name) FROM cases c JOIN variants v ON v.id = c.variant_id WHERE c.run_id = 1 AND c.status = 'ok'")
  echo "rungs verified: $ok"
  case ",$ok," in *,torch,*) ;; *) fail "the torch rung did not run (torch is on every GPU machine here)" ;; esac
  expect 0 "no regression" "$vb" compare f.db f.db --base-run 1 --cand-run 2
  cat out
  VB_FW_SLOW=torch expect 0 "5 cases" python3 "$fw" run --no-metrics --db f.db
  expect 1 "pyfw/torch" "$vb" compare f.db f.db --base-run 1 --cand-run 3
  cat out
  grep -q "pyfw/torch.*kernel slower" out || fail "compare did not name the torch rung's kernel"
  # what Python adds to a sample: each rung's e2e beyond its kernel, beside
  # the C catalog's resident saxpy (saxpy/device-vec4, the same n) in the same database
  expect 0 "1 cases" "$vb" run --filter saxpy/device-vec4 --no-metrics --db f.db
  python3 - f.db <<'PY'
import sqlite3, sys
q = ("SELECT v.family || '/' || v.name, c.e2e_median_ns / 1e3, c.kernel_median_ns / 1e3 "
     "FROM cases c JOIN variants v ON v.id = c.variant_id WHERE c.status = 'ok' AND "
     "(c.run_id = 1 OR (c.run_id = 4 AND v.name = 'device-vec4'))")
print('%-18s %9s %9s %12s' % ('rung', 'e2e us', 'kernel us', 'e2e-kernel'))
for name, e2e, k in sqlite3.connect(sys.argv[1]).execute(q):
    print('%-18s %9.2f %9.2f %12.2f' % (name, e2e, k, e2e - k))
PY
  # ncu (--cache-control none) times each launch after the one before it, whose dirty lines
  # are still in L2; varbench's --cache warm samples run the same way (its default flushes L2
  # before each sample: torch's saxpy 43.6 us flushed, 47.8 us under ncu, H200), so run 5 is
  # what ncu is held against, at n = 2^26: ncu's time holds ~1 us more than CUPTI's of the
  # same launch (H200: torch 48.10 against 47.31, cupy 81.82 / 81.06, jax 47.90 / 46.70), 2-3%
  # of a 2^24 saxpy, 0.5% of this one. And on Hopper CUPTI instruments a kernel for its
  # timestamps (cupti_activity.h: Blackwell's hardware events do not), which lengthens some:
  # the Numba saxpy 62.90 us a launch bare, 67.19 traced by varbench, 67.37 by torch.profiler,
  # 63.85 with only the API traced (CUDA events, H200). So ncu's time is held scaled by that
  # cost, measured for each rung without varbench's run: its launches paced back to back, bare
  # and under `varbench trace --trace gpu` (bench_fw.py --paced)
  big=67108864
  expect 0 "5 cases" python3 "$fw" run --cache warm --no-metrics --axis n=$big --db f.db
  off= # the rungs over 2%, every one held before the test fails
  for r in ${ok//,/ }; do
    python3 "$here/trace/ncu_ref.py" "ncu-$r.json" -- python3 "$fw" --standalone "$r" 20 $big >/dev/null 2>&1
    rc=$?
    [ $rc -eq 77 ] && { echo "no ncu: the kernel times not held"; continue; }
    [ $rc -eq 0 ] || fail "ncu on the $r rung"
    bare=$(python3 "$fw" --paced "$r" 100 $big) || fail "the $r rung's paced launches"
    traced=$("$vb" trace -q --trace gpu --db "paced-$r.db" -- python3 "$fw" --paced "$r" 100 $big 2>/dev/null) ||
      fail "the $r rung's paced launches under varbench trace"
    python3 - "$r" "ncu-$r.json" f.db "$bare" "$traced" <<'PY' || off="$off $r"
import json, sqlite3, sys
name, ref, db, bare, traced = sys.argv[1:]
n = json.load(open(ref))
# the median launch (ncu's 21: the warm-up's among them) against varbench's median sample: one
# launch a sample, so its kernel phase is that launch's kernel
ncu_us, cost = n['kernel_median_us'], float(traced) / float(bare)
q = ("SELECT kernel_median_ns / 1e3 FROM cases c JOIN variants v ON v.id = c.variant_id "
     "WHERE c.run_id = 5 AND v.family = 'pyfw' AND v.name = ?")
vb_us = sqlite3.connect(db).execute(q, (name,)).fetchone()[0]
print('%-7s varbench %.2f us, ncu %.2f us (median of %d kernels): %.4f; CUPTI timestamps cost '
      '%.4fx (paced %s us bare, %s traced); against ncu scaled by it: %.4f'
      % (name, vb_us, ncu_us, n['kernels'], vb_us / ncu_us, cost, bare, traced,
         vb_us / (ncu_us * cost)))
sys.exit(0 if abs(vb_us / (ncu_us * cost) - 1) <= 0.02 else 1)
PY
  done
  [ -z "$off" ] || fail "the kernel time against ncu's over 2%:$off" ;;
gpu-inproc)
  have_gpu || { echo "no GPU: skipped"; exit 77; }
  python3 -c 'import torch' 2>/dev/null || { echo "no PyTorch: skipped"; exit 77; }
  ip=$here/python/bench_inproc.py
  expect 0 "libcupti mapped" python3 "$ip" --maps
  cat out
  [ "$(grep -o 'libcupti[^,]*' out | wc -l)" -eq 1 ] || fail "two libcupti in one process"
  expect 0 "1 cases" python3 "$ip" run --db p.db
  cat out
  verified p.db inproc 1 step
  expect 0 "torch.profiler" python3 "$ip" --profile 20 ref.json
  cat out
  python3 - p.db ref.json <<'PY' || fail "varbench's records of the step against torch.profiler's"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
ref = json.load(open(sys.argv[2]))
q = ("SELECT s.id, (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE k.sample_id = s.id), "
     "(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY m WHERE m.sample_id = s.id AND m.copyKind = 1), "
     "(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY m WHERE m.sample_id = s.id AND m.copyKind = 2), "
     "(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET m WHERE m.sample_id = s.id) "
     "FROM samples s WHERE s.kind = 'timed' AND EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_KERNEL k "
     "WHERE k.sample_id = s.id)")
rows = db.execute(q).fetchall()
want = (ref['kernels'], ref['memcpy_h2d'], ref['memcpy_d2h'], ref['memsets'])
same = sum(1 for r in rows if tuple(r[1:]) == want)
print('a step: torch.profiler kernels %g, H2D %g, D2H %g, memsets %g; varbench: %d of %d timed '
      'samples with records the same%s' % (want + (same, len(rows), '' if same == len(rows) else
      ': ' + ', '.join(str(r[1:]) for r in rows if tuple(r[1:]) != want)[:400])))
sys.exit(0 if rows and same == len(rows) else 1)
PY
  cat out ;;
installed)
  command -v cmake >/dev/null || { echo "no cmake: skipped"; exit 77; }
  cmake --install "$(dirname "$pydir")" --prefix "$tmp/prefix" >install.log 2>&1 ||
    { cat install.log; fail "cmake --install"; }
  mkdir proj && cp "$bench" proj/ && cd proj || fail "proj"
  PYTHONPATH=$tmp/prefix/lib/varbench/python expect 0 "4 variants, 16 cases" python3 bench_cpu.py list
  PYTHONPATH=$tmp/prefix/lib/varbench/python expect 0 "$tmp/prefix/lib/varbench/python/varbench/libvarbench.so" \
    python3 -c 'import varbench; print(varbench.library_path())'
  PYTHONPATH=$tmp/prefix/lib/varbench/python expect $nogpu "16 cases" python3 bench_cpu.py run --quick --db i.db
  expect 0 "pyex/cpu-loop" "$vb" export --db i.db --format csv ;;
pip)
  command -v cmake >/dev/null || { echo "no cmake: skipped"; exit 77; }
  python3 -m venv --help >/dev/null 2>&1 || { echo "no venv module: skipped"; exit 77; }
  cmake --install "$(dirname "$pydir")" --prefix "$tmp/prefix" >install.log 2>&1 ||
    { cat install.log; fail "cmake --install"; }
  python3 "$tmp/prefix/lib/varbench/python/vb_wheel.py" "$tmp/dist" >out 2>err || fail "vb_wheel.py"
  whl=$(cat out)
  [ -f "$whl" ] || fail "no wheel at '$whl'"
  mkdir proj && cp "$bench" proj/ && cd proj || fail "proj"
  unset PYTHONPATH
  export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1
  for from in "$pydir" "$tmp/prefix/lib/varbench/python" "$whl"; do
    rm -rf env
    python3 -m venv env >venv.log 2>&1 || { cat venv.log; fail "python3 -m venv"; }
    expect 0 "Successfully installed varbench-" env/bin/python -m pip install --no-index "$from"
    expect 0 "$PWD/env/" env/bin/python -c 'import varbench; print(varbench.library_path())'
    grep -q '/site-packages/varbench/libvarbench.so$' out || fail "$from: the library is not the installed one"
    expect 0 "4 variants, 16 cases" env/bin/python bench_cpu.py list
  done
  expect $nogpu "16 cases" env/bin/python bench_cpu.py run --quick --db w.db
  expect 0 "Successfully uninstalled" env/bin/python -m pip uninstall -y varbench
  [ ! -e env/lib/python3*/site-packages/varbench ] || fail "pip uninstall left the package" ;;
numpy-compat)
  mk() { mkdir -p "$(dirname "$1")" && cat >"$1"; }
  # NumPy 2.5: no row_stack; numba-cuda's arrayobj registers an overload of it at import, as
  # numba-cuda 0.22 does (site/), or only below NumPy 2.5, as numba's own fix does (bounded/)
  for site in site bounded; do
    printf '%s\n' '__version__ = "2.5.0"' 'def vstack(t):' '    return list(t)' | mk $site/numpy/__init__.py
    printf '%s\n' 'Metadata-Version: 2.1' 'Name: numpy' 'Version: 2.5.0' | mk $site/numpy-2.5.0.dist-info/METADATA
    printf '%s\n' 'Metadata-Version: 2.1' 'Name: numba-cuda' 'Version: 0.22.0' |
      mk $site/numba_cuda-0.22.0.dist-info/METADATA
    echo 'import numpy' | mk $site/numba/__init__.py
    echo 'from numba_cuda.numba.cuda.np import arrayobj' | mk $site/numba/cuda/__init__.py
    : | mk $site/numba_cuda/__init__.py
    : | mk $site/numba_cuda/numba/__init__.py
    : | mk $site/numba_cuda/numba/cuda/__init__.py
    : | mk $site/numba_cuda/numba/cuda/np/__init__.py
  done
  guard='if numpy_version >= (2, 0):'
  printf '%s\n' 'import numpy as np' 'numpy_version = (2, 5)' "$guard" '    np.row_stack' |
    mk site/numba_cuda/numba/cuda/np/arrayobj.py
  printf '%s\n' 'import numpy as np' 'numpy_version = (2, 5)' \
    'if numpy_version >= (2, 0) and numpy_version < (2, 5):' '    np.row_stack' |
    mk bounded/numba_cuda/numba/cuda/np/arrayobj.py
  PYTHONPATH=$tmp/site expect 1 "has no attribute 'row_stack'" python3 -c 'import numba.cuda'
  # varbench first: numba.cuda imports, one line says why
  PYTHONPATH=$pydir:$tmp/site expect 0 "imported" python3 -c 'import varbench, numba.cuda; print("imported")'
  [ "$(wc -l <err)" -eq 1 ] || fail "not one line on stderr"
  grep -qF "numba-cuda 0.22.0 registers np.row_stack, which NumPy 2.5.0 removed" err &&
    grep -qF "pip install 'numpy<2.5'" err || fail "the note does not name both versions and the fix"
  cat >rung.py <<'PY'
import sys, varbench as vb
p = vb.Family('nb').problem('one', axes={'n': [3]}, reference=lambda pt: [1.0] * pt['n'])
@p.variant(gpu=False)
def numba_rung(state):
    from numba import cuda  # noqa: F401  (a Numba rung imports it where it needs it)
    state.exec(lambda: [1.0] * state['n'])
sys.exit(vb.main())
PY
  PYTHONPATH=$pydir:$tmp/site expect 0 "1 cases: 1 ok" python3 rung.py run --quick --db n.db
  [ "$(grep -c 'registers np.row_stack' err)" -eq 1 ] || fail "the note not said once"
  # left alone: the rung fails with the two versions and the fix, not NumPy's bare error
  PYTHONPATH=$pydir:$tmp/site VARBENCH_NUMPY_COMPAT=0 expect 1 \
    "numba-cuda 0.22.0 registers np.row_stack, which NumPy 2.5.0 removed, so numba.cuda cannot be imported; fix: pip install 'numpy<2.5'" \
    python3 rung.py run --quick --db n.db
  # a numba-cuda that bounds its overload: NumPy untouched, nothing said
  PYTHONPATH=$pydir:$tmp/bounded expect 0 "False" \
    python3 -c 'import varbench, numba.cuda, numpy; print(hasattr(numpy, "row_stack"))'
  [ ! -s err ] || fail "a note for a numba-cuda that needs none"
  # no Numba imported: NumPy not imported by the package
  PYTHONPATH=$pydir:$tmp/site expect 0 "False" python3 -c 'import sys, varbench; print("numpy" in sys.modules)'
  [ ! -s err ] || fail "a note without Numba" ;;
*) echo "python_pkg.sh: no case '$case'" >&2; exit 2 ;;
esac
exit 0
