#!/usr/bin/env python3
"""fw_matrix.py: varbench trace on the programs people run, held against their own profilers.

usage: fw_matrix.py FRAMEWORK VARBENCH WORKDIR
  FRAMEWORK  torch | torch-overhead | jax | cupy | numba | triton
Each runs the framework's program of this folder (unmodified) under `VARBENCH trace` and
without it, and prints its rows of the matrix (fw_check.py): kernels, copies and memsets that
varbench stored inside the program's NVTX window against the framework's own profiler
(torch.profiler, jax.profiler) or, without one, ncu and the program's own counts; NVTX ranges
against the ranges the program pushed; the summed kernel time's ratio; the in-step overhead.
  torch           ResNet-18 training + a CUDA graph (torch_steps.py): the whole process's ranges;
                  the steps under --capture-range nvtx:steps with torch.profiler inside them (both
                  complete, each as when alone); NVTX before CUDA, 5 of 5; emit_nvtx's flood of
                  ranges against torch.profiler's operators; torch.compile (Triton kernels)
  torch-overhead  a benchmark, not a test (ci/device-session trace-overhead): the steps'
                  in-process time, untraced, traced, traced --trace gpu, under a bare CUPTI
                  tracer (cupti_floor.c: GPU records alone, and with the default API set two
                  ways) and under torch.profiler, one of each a round (the traced median held
                  to 1.10x the untraced, or to 1.03x the cheaper bare tracer that records the
                  same calls where that costs more, and below torch.profiler's)
  jax             jitted training steps against jax.profiler's GPU stream events (run alone:
                  it takes CUPTI in a way varbench cannot share; ncu changes what XLA's
                  autotuner picks, and crashes with --nvtx; XLA's autotuning is off so that
                  two processes run the same kernels), and jax.profiler inside
                  a traced run: it keeps its events, and varbench's case says what it lacks
  cupy            RawKernel, cuFFT and cupyx.profiler.time_range against ncu and its own counts
  numba           seed 001's t38.py at 4000 x 4000 against ncu and its known copies
  triton          a @triton.jit kernel against ncu and its own launch count
Exit 0 every row passed, 1 a row failed, 77 the framework (or ncu, or a GPU) is missing.
"""
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fw_check  # noqa: E402

PY = sys.executable
FAILED = []
# A reference from another process (ncu, a profiler run alone) times other runs of the kernels,
# at other GPU clocks. Measured on the H100: ncu against varbench on one Numba kernel 253.0 and
# 260.9 us (3.1%), on 20 Triton launches 1375.9 and 1352.1 us (1.7%); torch.profiler beside
# varbench in the same process, on the same records, 1.0000. In-process references hold
# fw_check's 1%; cross-process ones 5%.
CROSS_PROCESS_TOL = '5'
ROUNDS = 5  # interleaved rounds of the overhead benchmark (VB_OVH_ROUNDS sets another count)


def sh(args, out=None, env=None, ok=(0,)):
    """runs args (output to out.log / out.err when out is given); returns the exit code"""
    e = dict(os.environ, **(env or {}))
    with open((out or 'last') + '.log', 'w') as o, open((out or 'last') + '.err', 'w') as er:
        rc = subprocess.call(args, stdout=o, stderr=er, env=e)
    if rc not in ok:
        with open((out or 'last') + '.err') as er:
            tail = er.read()[-1500:]
        FAILED.append('%s exited %d: %s' % (' '.join(args[:6]), rc, tail))
    return rc


def load(path):
    with open(path) as f:
        return json.load(f)


def dump(path, obj):
    with open(path, 'w') as f:
        json.dump(obj, f)


def last_run(db):
    import sqlite3
    return sqlite3.connect(db).execute('SELECT max(id) FROM runs').fetchone()[0]


def row(name, db, ref, *extra):
    """prints the row (fw_check) of the newest run of db against the reference dict ref"""
    path = 'ref-%d.json' % len(os.listdir('.'))
    dump(path, ref)
    print('', flush=True)
    rc = fw_check.main([name, db, str(last_run(db)), path] + list(extra))
    sys.stdout.flush()
    if rc:
        FAILED.append('row "%s"' % name)


def need(*modules):
    for m in modules:
        if subprocess.call([PY, '-c', 'import ' + m], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL):
            print('fw_matrix: python module %s missing: skipped' % m)
            sys.exit(77)


def check(cond, what):
    if not cond:
        FAILED.append(what)
    return cond


def torch(vb):
    need('torch', 'torchvision')
    prog = os.path.join(HERE, 'torch_steps.py')
    # the whole process: every range it pushed
    if sh([vb, 'trace', '-q', '--db', 'whole.db', '--', PY, prog, '--out', 'whole.json'],
          'whole') == 3:
        print('no GPU: skipped')
        sys.exit(77)
    row('PyTorch, whole process', 'whole.db', {'pushes': load('whole.json')['pushes'],
                                               'source': 'the program\'s pushes'})
    # the steps' window with torch.profiler inside them; the same profiler alone
    sh([vb, 'trace', '-q', '--db', 'steps.db', '--capture-range', 'nvtx:steps', '--', PY, prog,
        '--profile', '--out', 'inside.json'], 'steps')
    sh([PY, prog, '--profile', '--out', 'alone.json'], 'alone')
    inside, alone = load('inside.json'), load('alone.json')
    ref = dict(inside['reference'], pushes=inside['pushes'], source='torch.profiler')
    row('PyTorch eager + CUDA graph', 'steps.db', ref)
    for k in ('kernels', 'copies', 'memsets'):
        check(inside['reference'][k] == alone['reference'][k],
              'torch.profiler inside varbench trace: %d %s, alone %d' %
              (inside['reference'][k], k, alone['reference'][k]))
    keys = ('kernels', 'copies', 'memsets')
    print('torch.profiler inside varbench trace: %d kernels, %d copies, %d memsets; alone: %d, '
          '%d, %d' % (tuple(inside['reference'][k] for k in keys) +
                      tuple(alone['reference'][k] for k in keys)))
    sh([vb, 'summary', '--db', 'steps.db'], 'steps-summary')
    with open('steps-summary.log') as f:
        said = [l.strip() for l in f if 'CUPTI client' in l or 'CUPTI overhead (' in l]
    print('\n'.join(said))
    check(any('libtorch' in l for l in said), 'the case does not name the program\'s CUPTI client')
    # NVTX before CUDA: 5 of 5 traced, with their ranges
    good = 0
    for i in range(5):
        sh([vb, 'trace', '-q', '--db', 'first.db', '--', PY, prog, '--nvtx-first', '--steps', '2',
            '--out', 'first.json'], 'first')
        c = fw_check.varbench_counts('first.db', last_run('first.db'))
        good += c['kernels'] > 0 and c['pushes'] == load('first.json')['pushes'] and \
            all(s.startswith('ok') for s in c['status'])
    print('NVTX before CUDA: %d of 5 traced with all their ranges' % good)
    check(good == 5, 'NVTX before CUDA: %d of 5' % good)
    # emit_nvtx: a range per operator, as many as torch.profiler's operators on the same steps
    sh([vb, 'trace', '-q', '--db', 'emit.db', '--', PY, prog, '--emit-nvtx', '--steps', '3',
        '--out', 'emit.json'], 'emit')
    per_step = (alone['reference']['cpu_ops'] + alone['reference']['annotations']) / alone['steps']
    row('PyTorch emit_nvtx (3 steps)', 'emit.db',
        {'pushes': int(round(per_step * 3)) + load('emit.json')['pushes'],
         'source': 'torch.profiler operators'})
    # torch.compile: Triton kernels, against torch.profiler inside
    sh([vb, 'trace', '-q', '--db', 'compile.db', '--capture-range', 'nvtx:steps', '--', PY, prog,
        '--compile', '--profile', '--out', 'compile.json'], 'compile')
    c = load('compile.json')
    row('PyTorch torch.compile', 'compile.db',
        dict(c['reference'], pushes=c['pushes'], source='torch.profiler'))


def torch_overhead(vb):
    need('torch', 'torchvision')
    prog = os.path.join(HERE, 'torch_steps.py')
    # traced-gpu (--trace gpu: kernels, copies and memsets, no API calls) splits the traced cost
    # into what the GPU records cost and what the API records add. The cupti-floor arms are the
    # least a CUPTI tracer does (tests/trace/cupti_floor.c: records counted, nothing kept): the
    # GPU records alone, then with the default API set recorded as varbench does (API kinds on,
    # the rest switched off: cupti-floor-kinds) or function by function with the kinds off
    # (cupti-floor-set): what CUPTI itself costs, which no CUPTI tracer goes below. traced-kinds
    # is varbench recording its set the way it did before (the kinds on, the rest switched off)
    kinds = tuple(os.environ.get('VB_OVH_KINDS',
                                 'untraced,traced,traced-gpu,cupti-floor,cupti-floor-kinds,'
                                 'cupti-floor-set,profiler').split(','))
    floor_lib = os.environ.get('VB_CUPTI_FLOOR') or os.path.join(
        os.path.dirname(vb), 'tests', 'trace', 'libtrace_cupti_floor.so')
    if not os.path.exists(floor_lib):
        print('no %s: the cupti-floor arms are left out' % floor_lib)
        kinds = tuple(k for k in kinds if not k.startswith('cupti-floor'))
    runs = {k: [] for k in kinds}
    api_calls = {}
    pre = {'untraced': [], 'traced': [vb, 'trace', '-q', '--db', 'ovh.db', '--'],
           'traced-gpu': [vb, 'trace', '-q', '--trace', 'gpu', '--db', 'ovhg.db', '--'],
           'traced-kinds': [vb, 'trace', '-q', '--db', 'ovhk.db', '--'],
           'profiler': []}
    env = {'traced-kinds': {'VARBENCH_TRACE_API_BY_KIND': '1'},
           'cupti-floor': {'CUDA_INJECTION64_PATH': floor_lib, 'VB_FLOOR_API': ''},
           'cupti-floor-kinds': {'CUDA_INJECTION64_PATH': floor_lib, 'VB_FLOOR_API': 'kinds'},
           'cupti-floor-set': {'CUDA_INJECTION64_PATH': floor_lib, 'VB_FLOOR_API': 'set'}}
    rounds = int(os.environ.get('VB_OVH_ROUNDS', ROUNDS))
    for i in range(rounds):  # one of each a round: the machine's drift falls on all of them
        for kind in kinds:
            extra = ['--profile'] if kind == 'profiler' else []
            if sh(pre.get(kind, []) + [PY, prog, '--time', '5', '--out', 'o.json'] + extra, 'ovh',
                  env.get(kind)) == 3:
                sys.exit(77)
            if i == 0 and kind.startswith('cupti-floor'):  # what the bare tracer recorded
                with open('ovh.err') as f:
                    said = [l.strip() for l in f if l.startswith('cupti-floor:')]
                print('  %s: %s' % (kind, said[-1] if said else 'said nothing'), flush=True)
                m = re.search(r'(\d+) API calls', said[-1]) if said else None
                api_calls[kind] = int(m.group(1)) if m else 0
            s = load('o.json')['seconds'][1:]  # the first repeat warms the caches
            runs[kind].append(statistics.median(s))
            print('  round %d %-17s %.4f s' % (i + 1, kind, runs[kind][-1]), flush=True)
    print('10 steps, median of repeats 2-5 per run (s), %d rounds' % rounds)
    u = statistics.median(runs['untraced'])
    for kind in kinds:
        print('  %-17s %s  median %.4f (%.3fx)' % (kind, ' '.join('%.4f' % x for x in runs[kind]),
                                                    statistics.median(runs[kind]),
                                                    statistics.median(runs[kind]) / u))
    # the floor: the cheaper bare tracer of those that recorded the API calls varbench records
    same = [k for k in ('cupti-floor-kinds', 'cupti-floor-set') if api_calls.get(k)]
    floor = min((runs[k] for k in same), key=statistics.median) if same else []
    dump('ovh-ratio.json', {'untraced': runs['untraced'], 'traced': runs['traced'],
                            'profiler': runs.get('profiler', []),
                            'floor': floor, 'limit': 1.10})
    row('PyTorch in-step overhead', 'ovh.db', {'source': 'untraced runs'}, '--overhead',
        'ovh-ratio.json')


def jax(vb):
    need('jax')
    prog = os.path.join(HERE, 'jax_steps.py')
    # XLA takes 75% of the GPU's memory at its start; under ncu, which needs memory of its own
    # to replay kernels, cuBLAS then fails to start and the process crashes (and may hold the
    # memory past its exit). Every run here allocates as it goes: the same kernels.
    os.environ['XLA_PYTHON_CLIENT_PREALLOCATE'] = 'false'
    # XLA's autotuner times candidate kernels in each process and may pick others each time:
    # on an H100 jax.profiler saw 420 kernels in one process and 440 in the next (one a step),
    # so no count from another process could be held to varbench's. With autotuning off, every
    # process runs the same kernels (measured: 300 / 300 kernels, jax.profiler inside a traced
    # run as alone)
    os.environ['XLA_FLAGS'] = (os.environ.get('XLA_FLAGS', '') +
                               ' --xla_gpu_autotune_level=0').strip()
    # ncu is no reference here: it serialises kernels, so the delay kernel of XLA's autotuner
    # times out and the autotuner picks other kernels (H100: 1957 kernels under ncu, 2141
    # traced, ncu's summed time 12.7 s against 42.5 ms); ncu --nvtx crashes in JAX besides
    sh([vb, 'trace', '-q', '--db', 'jax.db', '--capture-range', 'nvtx:steps', '--', PY, prog],
       'jax')
    sh([PY, prog, '--profile', 'prof-alone', '--out', 'alone.json'], 'alone')
    alone = load('alone.json')
    print('jax.profiler alone: %d kernels (%.1f us), %d copies, %d memsets' %
          (alone['kernels'], alone['kernel_us'], alone['copies'], alone['memsets']))
    row('JAX jit (20 steps)', 'jax.db', dict(alone, pushes=alone['pushes']), '--time-tol',
        CROSS_PROCESS_TOL, '--nvtx-names', 'steps,step')
    # jax.profiler inside a traced program: it keeps all its events; varbench says what it lacks
    sh([vb, 'trace', '-q', '--db', 'jaxin.db', '--', PY, prog, '--profile', 'prof-in', '--out',
        'inside.json'], 'jaxin')
    inside = load('inside.json')
    keys = ('kernels', 'copies', 'memsets')
    print('jax.profiler inside varbench trace: %d kernels, %d copies, %d memsets; alone: %d, %d, %d'
          % (tuple(inside[k] for k in keys) + tuple(alone[k] for k in keys)))
    for k in ('kernels', 'copies', 'memsets'):
        check(inside[k] == alone[k], 'jax.profiler inside: %d %s, alone %d' % (inside[k], k,
                                                                               alone[k]))
    c = fw_check.varbench_counts('jaxin.db', last_run('jaxin.db'))
    print('varbench beside it: %s' % '; '.join(c['status']))
    check(any('another CUPTI client took' in s for s in c['status']),
          'varbench does not say that jax.profiler took its records')


def traced_and_ncu(vb, db, prog, window=True, out=None):
    """traces the command prog into db (with window: only its NVTX range 'steps'; with out, by
    default window, the program writing traced.json), then runs it under ncu (ncu_ref.py, the
    same range); returns ncu's reference with the program's own counts of traced.json; exits 77
    without a GPU or ncu"""
    cap = ['--capture-range', 'nvtx:steps'] if window else []
    out = window if out is None else out
    if sh([vb, 'trace', '-q', '--db', db] + cap + ['--'] + prog +
          (['--out', 'traced.json'] if out else []), db) == 3:
        sys.exit(77)
    ncu = [PY, os.path.join(HERE, 'ncu_ref.py'), 'ncu.json']
    ncu += ['--nvtx', 'steps'] if window else []
    ncu += ['--extra', 'traced.json'] if out else []
    if sh(ncu + ['--'] + prog, 'ncu', ok=(0, 77)) == 77:
        sys.exit(77)
    return load('ncu.json')


def cupy(vb):
    need('cupy')
    ref = traced_and_ncu(vb, 'cupy.db', [PY, os.path.join(HERE, 'cupy_steps.py')])
    ref['copies'] = ref.pop('copies_in_steps')
    row('CuPy RawKernel + cuFFT', 'cupy.db', ref, '--time-tol', CROSS_PROCESS_TOL)


def numba(vb):
    need('numba.cuda')
    ref = traced_and_ncu(vb, 'numba.db', [PY, os.path.join(HERE, 'numba_vectorize.py'), '4000'],
                         window=False)
    ref.update(copies=5, memsets=0, pushes=0)  # 4 inputs in, 1 result out (t38.py)
    row('Numba vectorize (t38.py, 4000 x 4000)', 'numba.db', ref, '--time-tol', CROSS_PROCESS_TOL)


def triton(vb):
    need('triton', 'torch')
    ref = traced_and_ncu(vb, 'triton.db', [PY, os.path.join(HERE, 'triton_steps.py')])
    check(ref['kernels'] == ref['launches'], 'ncu saw %d kernels, the program launched %d' %
          (ref['kernels'], ref['launches']))
    ref.update(copies=0, memsets=0)
    row('Triton @jit kernel', 'triton.db', ref, '--time-tol', CROSS_PROCESS_TOL)


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    fw, vb, work = argv
    vb = os.path.abspath(vb) if os.sep in vb else vb  # a path, before the chdir; else on PATH
    os.makedirs(work, exist_ok=True)
    os.chdir(work)
    runs = {'torch': torch, 'torch-overhead': torch_overhead, 'jax': jax, 'cupy': cupy,
            'numba': numba, 'triton': triton}
    if fw not in runs:
        print('fw_matrix: unknown framework %r' % fw, file=sys.stderr)
        return 2
    try:
        runs[fw](vb)
    except (OSError, KeyError, ValueError) as e:  # a step that failed left no output: say so
        FAILED.append('%s: %r' % (type(e).__name__, e))
    for f in FAILED:
        print('FAIL ' + f)
    print('fw_matrix %s: %s' % (fw, 'FAIL' if FAILED else 'PASS'))
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
