#!/usr/bin/env python3
"""fw_matrix.py: varbench trace on the programs people run, held against their own profilers.

usage: fw_matrix.py FRAMEWORK VARBENCH WORKDIR
  FRAMEWORK  torch | torch-overhead | ddp-overhead | samples | ddp | peer | jax | cupy | numba
             | triton
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
  ddp-overhead    a benchmark: the same for a multi-rank job (torch_ddp.py under torchrun, one
                  rank a GPU, VB_DDP_RANKS of them, default every GPU): each rank's median step
                  time, untraced, traced, traced --trace gpu, and arms that take varbench's parts
                  away one at a time (VB_OVH_KINDS chooses: no-nvtx, no-preload, nvtx-only,
                  cupti-floor, cupti-floor-set, cupti-floor-kernel, cupti-floor-memcpy: a bare
                  CUPTI tracer, all its records or one kind), the traced median held to 1.10x
                  the untraced
  samples         a training program (torch_ddp.py, one process, 40 steps) traced five times:
                  three times unchanged (each pair: exit 0, its step case the same), with 20%
                  more host time a step (exit 1, slower by e2e) and 10% more GPU work (exit 1,
                  its kernel slower), history listing the step case; and torch.profiler inside a
                  traced run, then steps after it stopped: their kernels all kept
  ddp             a multi-rank job (torch_ddp.py under torchrun, every GPU, 2 at least): each
                  rank's kernels, NCCL kernels, copies and memsets inside its steps against its
                  own torch.profiler; ranks named in summary, the straggler line; two unchanged
                  traces the same (no NCCL range a case); a delay planted in rank 1 named by the
                  straggler line and by compare: rank 1's step and the job's slower, no other
  peer            torch_peer.py: every copy between GPUs stored with its two devices, their
                  bytes the program's, in summary, gpu-trace and the timeline
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


def gpus():
    """the GPUs this process may use: CUDA_VISIBLE_DEVICES's, else nvidia-smi's (no framework to
    import: a row that needs two says so at once)"""
    vis = os.environ.get('CUDA_VISIBLE_DEVICES')
    if vis is not None:
        return len([d for d in vis.split(',') if d.strip()])
    try:
        out = subprocess.run(['nvidia-smi', '-L'], capture_output=True, text=True)
    except OSError:
        return 0
    return sum(1 for l in out.stdout.splitlines() if l.startswith('GPU ')) if out.returncode == 0 else 0


def ddp_overhead(vb):
    need('torch', 'torchvision')
    prog = os.path.join(HERE, 'torch_ddp.py')
    ranks = int(os.environ.get('VB_DDP_RANKS', 0)) or gpus()
    if ranks < 1:
        print('no GPU: skipped')
        sys.exit(77)
    steps = os.environ.get('VB_DDP_STEPS', '20')
    batch = ['--batch', os.environ['VB_DDP_BATCH']] if os.environ.get('VB_DDP_BATCH') else []
    job = ['torchrun', '--standalone', '--nproc_per_node=%d' % ranks, prog, '--steps', steps,
           '--time', '3', '--out', 'o'] if ranks > 1 else [PY, prog, '--steps', steps, '--time',
                                                            '3', '--out', 'o']
    job += batch
    floor_lib = os.environ.get('VB_CUPTI_FLOOR') or os.path.join(
        os.path.dirname(vb), 'tests', 'trace', 'libtrace_cupti_floor.so')
    kinds = tuple(os.environ.get('VB_OVH_KINDS', 'untraced,traced,traced-gpu').split(','))
    tr = [vb, 'trace', '-q', '--db', 'ddp.db', '--']
    pre = {'untraced': [], 'traced': tr,
           'traced-gpu': [vb, 'trace', '-q', '--trace', 'gpu', '--db', 'ddpg.db', '--'],
           # varbench's parts taken away one at a time: its NVTX recording, the CUPTI preload,
           # everything but the NVTX recording; and CUPTI's records alone (no varbench)
           'no-nvtx': tr + ['env', '-u', 'NVTX_INJECTION64_PATH'],
           'no-preload': tr + ['env', '-u', 'LD_PRELOAD'],
           'nvtx-only': tr + ['env', '-u', 'CUDA_INJECTION64_PATH'],
           'cupti-floor': [], 'cupti-floor-set': [], 'cupti-floor-kernel': [],
           'cupti-floor-memcpy': [], 'profiler': []}  # profiler: torch.profiler's own cost
    # CUPTI's records alone, and one kind of them at a time (cupti_floor.c's VB_FLOOR_KINDS):
    # which records cost a multi-rank job what
    env = {'cupti-floor': {'CUDA_INJECTION64_PATH': floor_lib, 'VB_FLOOR_API': ''},
           'cupti-floor-set': {'CUDA_INJECTION64_PATH': floor_lib, 'VB_FLOOR_API': 'set'},
           'cupti-floor-kernel': {'CUDA_INJECTION64_PATH': floor_lib, 'VB_FLOOR_KINDS': 'kernel'},
           'cupti-floor-memcpy': {'CUDA_INJECTION64_PATH': floor_lib, 'VB_FLOOR_KINDS': 'memcpy'}}
    # and any arm spelled out: floor:KINDS[:NAME=V,...] is the bare tracer with VB_FLOOR_KINDS
    # (all: every kind) and its VB_FLOOR_NAME settings; ARM@VAR=V,... is ARM with more environment
    for kind in kinds:
        base, _, extra = kind.partition('@')
        if base.startswith('floor:'):
            _, only, *sets = base.split(':')
            env[base] = {'CUDA_INJECTION64_PATH': floor_lib,
                         'VB_FLOOR_KINDS': '' if only == 'all' else only.replace('+', ',')}
            for kv in (sets[0].split(',') if sets else []):
                k, _, v = kv.partition('=')
                env[base]['VB_FLOOR_' + k.upper()] = v
            pre[base] = []
        if extra:
            pre[kind] = pre[base]
            env[kind] = dict(env.get(base, {}), **dict(kv.partition('=')[::2]
                                                       for kv in extra.split(',')))
    nvls = {'NCCL_NVLS_ENABLE': '0', 'TORCH_SYMM_MEM_DISABLE_MULTICAST': '1',
            'NVSHMEM_DISABLE_NVLS': '1'}
    runs = {k: [] for k in kinds}
    rounds = int(os.environ.get('VB_OVH_ROUNDS', ROUNDS))
    for i in range(rounds):  # one of each a round: the machine's drift falls on all of them
        for kind in kinds:
            for r in range(ranks):
                if os.path.exists('o.rank%d.json' % r):
                    os.unlink('o.rank%d.json' % r)
            if sh(pre[kind] + job + (['--profile'] if kind.startswith('profiler') else []), 'ddp',
                  dict(nvls, **env.get(kind, {}))) == 3:
                sys.exit(77)
            per_rank = []
            for r in range(ranks):  # repeats 2-3 of each rank, per step
                s = load('o.rank%d.json' % r)['seconds'][1:]
                per_rank.append(statistics.median(s) / int(steps))
            runs[kind].append(statistics.median(per_rank))
            print('  round %d %-16s %.4f s a step (ranks %s)' %
                  (i + 1, kind, runs[kind][-1], ' '.join('%.4f' % x for x in per_rank)),
                  flush=True)
    print('%d rank%s, %s steps%s, median of repeats 2-3 per rank, median of the ranks (s a step), '
          '%d rounds' % (ranks, 's' if ranks > 1 else '', steps,
                         ', batch %s' % batch[1] if batch else '', rounds))
    u = statistics.median(runs['untraced'])
    for kind in kinds:  # and the median of the rounds' own ratios (each round's arms side by side)
        print('  %-16s %s  median %.4f (%.3fx; a round\'s own %.3fx)' % (
            kind, ' '.join('%.4f' % x for x in runs[kind]), statistics.median(runs[kind]),
            statistics.median(runs[kind]) / u,
            statistics.median([x / y for x, y in zip(runs[kind], runs['untraced'])])))
    if 'traced' in runs:
        ratio = statistics.median(runs['traced']) / u
        check(ratio <= 1.10, 'DDP in-step cost %.3fx over the 1.10x limit' % ratio)
        print('DDP in-step cost, %d ranks: %.3fx (limit 1.10x)' % (ranks, ratio))


NVLS_OFF = {'NCCL_NVLS_ENABLE': '0', 'TORCH_SYMM_MEM_DISABLE_MULTICAST': '1',
            'NVSHMEM_DISABLE_NVLS': '1'}


def query(db, q, *args):
    import sqlite3
    return sqlite3.connect('file:%s?mode=ro' % db, uri=True).execute(q, args).fetchall()


def compare(vb, db, base, cand, want_rc, *texts):
    """compare's verdict between two runs of db: its exit code (want_rc: one or a tuple) and the
    texts it must say; returns the step row's lines"""
    name = 'cmp-%d-%d' % (base, cand)
    rc = sh([vb, 'compare', db, db, '--base-run', str(base), '--cand-run', str(cand)], name,
            ok=(0, 1, 7))
    with open(name + '.log') as f:
        out = f.read()
    lines = [l for l in out.splitlines() if 'range=step' in l or l.startswith('verdict')]
    print('compare run %d -> %d: exit %d\n  %s' % (base, cand, rc, '\n  '.join(lines)))
    want = want_rc if isinstance(want_rc, tuple) else (want_rc,)
    check(rc in want, 'compare %d -> %d exited %d, not %s' % (base, cand, rc, want))
    for t in texts:
        check(any(t in l for l in lines), 'compare %d -> %d did not say %r' % (base, cand, t))
    return lines


def samples(vb):
    need('torch', 'torchvision')
    prog = [PY, os.path.join(HERE, 'torch_ddp.py'), '--steps', '40']
    # a step of ResNet-18 at batch 32 on an H200: 10-14 ms on the host (Python launching ~440
    # kernels), ~7.5 ms of kernels. Six unchanged traces on the shared H200 host had step medians
    # of 10.5 to 13.8 ms (GPU 7.45 ms each, within 0.1%): a host-bound step moves 10-30% from one
    # process to the next, and the host's controls explain part of it only (README, "Comparing").
    # So the unchanged pairs must not blame the GPU (kernel same) and may move their e2e; the
    # planted host time is 10 ms a step (+80%, past that spread; 3 ms, +20-30%, lies inside it),
    # and the planted 2560^3 product +10% of the kernels
    planted = [('same', []), ('same again', []), ('same a third time', []),
               ('+10 ms host time', ['--sleep-ms', '10']),
               ('+10% GPU work', ['--extra-kernel', '--extra-size', '2560'])]
    sh(prog + ['--steps', '5'], 'warm')  # the machine's first torch process pays its file cache
    for i, (what, extra) in enumerate(planted):
        if sh([vb, 'trace', '-q', '--db', 'samples.db', '--'] + prog + extra, 'samples%d' % i) == 3:
            sys.exit(77)
        print('run %d: %s' % (i + 1, what))
    for a, b in ((1, 2), (1, 3), (2, 3)):
        lines = compare(vb, 'samples.db', a, b, (0, 1, 7))
        check(not any(t in l for l in lines for t in ('kernel slower', 'GPU slower',
                                                        'slower (kernel', 'slower (GPU')),
              'unchanged %d -> %d: the GPU blamed' % (a, b))
    compare(vb, 'samples.db', 1, 4, 1, 'slower (e2e +')
    compare(vb, 'samples.db', 1, 5, 1, 'slower (', 'kernel slower +')
    sh([vb, 'history', '--db', 'samples.db', '--all', '--filter', 'trace'], 'history')
    with open('history.log') as f:
        hist = f.read()
    print(hist)
    check('range=step' in hist and '5 runs' in hist, 'history does not list the step case')
    # torch.profiler inside a traced run, then 5 steps after it stopped: every step's work kept
    sh([vb, 'trace', '-q', '--db', 'prof.db', '--', PY, os.path.join(HERE, 'torch_ddp.py'),
        '--steps', '20', '--profile', '--after', '5', '--out', 'prof'], 'prof')
    ref = load('prof.rank0.json')['reference']
    cid = query('prof.db', "SELECT id FROM cases WHERE axes = 'range=step'")[0][0]
    k = query('prof.db', 'SELECT kernel_count, kernel_ns FROM samples WHERE case_id = ? '
                         'ORDER BY idx', cid)
    why = ' '.join(r[0] for r in query('prof.db', "SELECT IFNULL(reason, '') FROM cases"))
    print('torch.profiler inside: %d kernels in its 20 steps; varbench: %d in those, per step '
          'after it stopped %s; the case says: %s' % (ref['kernels'], sum(x[0] for x in k[:20]),
                                                     [x[0] for x in k[20:]], why or '-'))
    check(len(k) == 25 and sum(x[0] for x in k[:20]) == ref['kernels'],
          'the profiled steps\' kernels differ')
    # the steps after it: their kernels kept, or the case says exactly what is missing and those
    # steps carry no GPU time (NULL), never a false 0. Measured on an H200: torch.profiler's stop
    # ends CUPTI's API records for varbench, its kernels, copies and memsets go on (then the
    # process's kernel records in the time of those steps must be there)
    kept = all(x[0] == k[19][0] and x[0] > 0 for x in k[20:])
    said = ('the program\'s own CUPTI client (libtorch' in why and 'API records end' in why and
            all(x[1] is None for x in k[20:]))
    t = query('prof.db', 'SELECT start FROM samples WHERE case_id = ? AND idx = 20', cid)[0][0]
    later = query('prof.db', "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN cases c ON "
                             "c.id = k.case_id WHERE c.axes NOT LIKE '%range=%' AND k.start >= ?",
                  t)[0][0]
    print('kernels recorded from the first step after it on: %d' % later)
    check(kept != said, 'after torch.profiler: kept %s, said %s' % (kept, said))
    check(later >= 5 * k[19][0] or not said, 'the case says the kernels are here; %d are' % later)


def ddp(vb):
    ranks = gpus()
    if ranks < 2:
        print('%d GPU: a job of ranks needs 2: skipped' % ranks)
        sys.exit(77)
    need('torch', 'torchvision')
    job = ['torchrun', '--standalone', '--nproc_per_node=%d' % ranks,
           os.path.join(HERE, 'torch_ddp.py'), '--steps', '20']
    sh([vb, 'trace', '-q', '--db', 'ddp.db', '--capture-range', 'nvtx:steps', '--'] + job +
       ['--profile', '--out', 'p'], 'ddp-prof', NVLS_OFF)
    print('%d ranks, inside each rank\'s steps: varbench / torch.profiler' % ranks)
    for r in range(ranks):
        ref = load('p.rank%d.json' % r)['reference']
        cid = query('ddp.db', "SELECT id FROM cases WHERE run_id = 1 AND axes = 'rank=%d'" % r)
        cid = cid[0][0] if cid else -1
        got = {
            'kernels': query('ddp.db', 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL '
                             'WHERE case_id = ?', cid)[0][0],
            'nccl_kernels': query('ddp.db', 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k '
                                  "JOIN StringIds s ON s.id = k.mangledName WHERE case_id = ? "
                                  "AND s.value LIKE '%nccl%'", cid)[0][0],
            'copies': query('ddp.db', 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY '
                            'WHERE case_id = ?', cid)[0][0],
            'memsets': query('ddp.db', 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET '
                             'WHERE case_id = ?', cid)[0][0]}
        print('  rank %d: %s' % (r, ', '.join('%s %d / %d' % (k, got[k], ref[k]) for k in got)))
        for k in got:
            check(got[k] == ref[k], 'rank %d: %s %d, torch.profiler %d' % (r, k, got[k], ref[k]))
    sh([vb, 'trace', '-q', '--db', 'ddp.db', '--'] + job, 'ddp-plain', NVLS_OFF)
    sh([vb, 'trace', '-q', '--db', 'ddp.db', '--'] + job, 'ddp-plain2', NVLS_OFF)
    sh([vb, 'trace', '-q', '--db', 'ddp.db', '--'] + job + ['--delay-rank', '1', '--delay-ms',
                                                               '20'], 'ddp-delay', NVLS_OFF)
    # NCCL's own ranges (its collectives) are no cases: their time is waiting for the others
    nccl = query('ddp.db', "SELECT count(*) FROM cases WHERE axes LIKE 'range=nccl%'")[0][0]
    print('cases of NCCL\'s ranges: %d' % nccl)
    check(nccl == 0, '%d cases of NCCL\'s ranges' % nccl)
    # unchanged: the same; rank 1 stalled 20 ms a step: its own row and the job's step slower,
    # no rank that waited for it
    compare(vb, 'ddp.db', 2, 3, 0, 'same')
    compare(vb, 'ddp.db', 2, 4, 1, 'range=step,rank=1', 'range=step,ranks=%d' % ranks)
    with open('cmp-2-4.log') as f:
        slow = [l.split()[1] for l in f if ' slower (' in l and 'range=step' in l]
    print('slower: %s' % ', '.join(slow))
    check(sorted(slow) == sorted(['range=step,rank=1', 'range=step,ranks=%d' % ranks]),
          'the slower rows are %s, not rank 1 and the job' % slow)
    for run in (2, 4):
        sh([vb, 'summary', '--db', 'ddp.db', '--run', str(run)], 'ddp-sum%d' % run)
        with open('ddp-sum%d.log' % run) as f:
            said = [l.rstrip() for l in f if l.startswith(('  trace/', '==varbench== ranks'))]
        print('run %d (%s):\n  %s' % (run, 'rank 1 delayed 20 ms a step' if run == 4 else 'plain',
                                      '\n  '.join(said)))
        for r in range(ranks):
            check(any(' rank=%d: ok' % r in l for l in said), 'run %d: rank %d not named' % (run, r))
        check(any(l.startswith('==varbench== ranks:') for l in said), 'run %d: no straggler line'
              % run)
    check(any('slowest rank 1 in' in l for l in said), 'the delayed rank 1 is not the straggler')


def peer(vb):
    if gpus() < 2:
        print('one GPU: peer copies need 2: skipped')
        sys.exit(77)
    need('torch')
    sh([vb, 'trace', '-q', '--db', 'peer.db', '--', PY, os.path.join(HERE, 'torch_peer.py'),
        '--out', 'peer.json'], 'peer')
    want = load('peer.json')
    rows = query('peer.db', 'SELECT srcDeviceId, dstDeviceId, count(*), sum(bytes) FROM '
                 'CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 10 GROUP BY 1, 2 ORDER BY 1, 2')
    got = {'%s->%s' % (a, b): n for a, b, n, _ in rows}
    nbytes = sum(r[3] for r in rows)
    print('peer copies: varbench %d (%d bytes) %s; the program %d (%d bytes) %s' %
          (sum(got.values()), nbytes, got, want['copies'], want['bytes'], want['pairs']))
    check(got == want['pairs'] and nbytes == want['bytes'], 'the peer copies differ')
    sh([vb, 'summary', '--db', 'peer.db', '--print-gpu-trace', '--print-summary'], 'peer-sum')
    with open('peer-sum.log') as f:
        text = f.read()
    lines = [l for l in text.splitlines() if 'PtoP' in l]
    print('\n'.join(lines[:3] + ['...'] + [l for l in lines if 'memcpy PtoP] GPU' in l]))
    check(any('[CUDA memcpy PtoP] GPU 0 -> GPU 1' in l for l in lines), 'summary: no 0 -> 1 line')
    check(any('[CUDA memcpy PtoP] (GPU 0 -> GPU 1)' in l for l in lines), 'gpu-trace: no devices')
    sh([vb, 'export', '--db', 'peer.db', '--format', 'trace', '-o', 'peer-trace.json'], 'peer-exp')
    with open('peer-trace.json') as f:
        tl = f.read()
    check(tl.count('"src device":0,"dst device":1') == want['pairs'].get('0->1'),
          'the timeline\'s peer copies 0 -> 1')


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
    runs = {'torch': torch, 'torch-overhead': torch_overhead, 'ddp-overhead': ddp_overhead,
            'samples': samples, 'ddp': ddp, 'peer': peer, 'jax': jax, 'cupy': cupy,
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
