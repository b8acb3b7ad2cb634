"""jax_steps.py: an unmodified JAX program for varbench trace's framework matrix.

A jitted MLP training step (1024 wide, batch 512, SGD through jax.grad) run N times after a
warm-up; each step puts its batch on the device (jax.device_put of a NumPy array: a host-to-
device copy) and reads its loss back (a device-to-host copy). JAX has no NVTX API of its own: the
steps are marked through the NVTX v2 ABI of libnvtx3interop (NVIDIA's wheel, or the toolkit's),
loaded with ctypes, a range 'steps' around them and one 'step' each, all counted.

usage: python3 jax_steps.py [--steps N] [--out FILE.json] [--profile DIR] [--time R]
  --profile DIR  jax.profiler.trace(DIR, create_perfetto_trace=True) around the steps: FILE.json
                 gets the GPU events of its own trace (kernels, copies, memsets, summed kernel
                 time), counted from DIR's perfetto_trace.json.gz
  --time R       R repeats of the steps, timed in the process; FILE.json gets the seconds
Exit 0 when the loss is finite, 1 otherwise, 3 without a GPU.
"""
import argparse
import ctypes
import glob
import gzip
import json
import math
import os
import sys
import time

import numpy as np


def nvtx_library():
    """libnvtx3interop: the NVTX v2 ABI, from NVIDIA's wheel beside JAX's CUDA, else the toolkit"""
    cands = []
    try:
        import nvidia
        for base in nvidia.__path__:
            cands += glob.glob(os.path.join(base, '*', 'lib', 'libnvtx3interop.so.1'))
    except ImportError:
        pass
    cands += ['libnvtx3interop.so.1', '/usr/local/cuda/lib64/libnvtx3interop.so.1']
    for c in cands:
        try:
            lib = ctypes.CDLL(c)
            lib.nvtxRangePushA.argtypes = [ctypes.c_char_p]
            return lib
        except OSError:
            continue
    raise SystemExit('jax_steps: no libnvtx3interop.so.1')


class Nvtx:
    def __init__(self):
        self.lib = nvtx_library()
        self.n = 0

    def push(self, name):
        self.n += 1
        self.lib.nvtxRangePushA(name.encode())

    def pop(self):
        self.lib.nvtxRangePop()


def gpu_events(d):
    """kernels, copies, memsets and summed kernel time of jax.profiler's trace in d: the events
    of its GPU's stream lines (the GPU's other lines, XLA's module per step among them, are
    spans over those, not GPU work); prints the events per line"""
    ref = {'kernels': 0, 'copies': 0, 'memsets': 0, 'kernel_us': 0.0, 'source': 'jax.profiler'}
    paths = glob.glob(os.path.join(d, '**', 'perfetto_trace.json.gz'), recursive=True)
    if not paths:
        raise SystemExit('jax_steps: no perfetto_trace.json.gz under %s' % d)
    with gzip.open(paths[0]) as f:
        doc = json.load(f)
    events = doc['traceEvents'] if isinstance(doc, dict) else doc
    gpu = {e['pid'] for e in events if e.get('ph') == 'M' and e.get('name') == 'process_name'
           and '/device:GPU' in str(e.get('args', {}).get('name', ''))}
    lines = {(e.get('pid'), e.get('tid')): str(e.get('args', {}).get('name', ''))
             for e in events if e.get('ph') == 'M' and e.get('name') == 'thread_name'}
    per_line = {}
    for e in events:
        if e.get('ph') != 'X' or e.get('pid') not in gpu:
            continue
        line = lines.get((e.get('pid'), e.get('tid')), '?')
        per_line[line] = per_line.get(line, 0) + 1
        if 'stream' not in line.lower():
            continue
        name = str(e.get('name', ''))
        if name.startswith('Memcpy') or 'memcpy' in name.lower():
            ref['copies'] += 1
        elif name.startswith('Memset') or 'memset' in name.lower():
            ref['memsets'] += 1
        else:
            ref['kernels'] += 1
            ref['kernel_us'] += float(e.get('dur', 0))
    print('jax_steps: jax.profiler GPU events per line: %s' %
          ', '.join('%s %d' % kv for kv in sorted(per_line.items())), flush=True)
    return ref


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--steps', type=int, default=20)
    ap.add_argument('--out', default=None)
    ap.add_argument('--profile', default=None)
    ap.add_argument('--time', type=int, default=0)
    a = ap.parse_args()
    import jax
    import jax.numpy as jnp
    if not any(d.platform == 'gpu' for d in jax.devices()):
        print('jax_steps: no GPU', file=sys.stderr)
        return 3
    nvtx = Nvtx()
    rng = np.random.default_rng(0)
    params = [jnp.asarray(rng.standard_normal((1024, 1024), dtype=np.float32) * 0.03)
              for _ in range(3)]
    host_x = rng.standard_normal((512, 1024), dtype=np.float32)
    host_y = rng.standard_normal((512, 1024), dtype=np.float32)

    def loss_fn(p, x, y):
        h = x
        for w in p[:-1]:
            h = jnp.tanh(h @ w)
        return jnp.mean((h @ p[-1] - y) ** 2)

    @jax.jit
    def update(p, x, y):
        loss, g = jax.value_and_grad(loss_fn)(p, x, y)
        return [w - 0.01 * gw for w, gw in zip(p, g)], loss

    def step(p):
        x = jax.device_put(host_x)
        y = jax.device_put(host_y)
        p, loss = update(p, x, y)
        return p, float(loss)

    for _ in range(3):
        params, loss = step(params)
    out = {}
    nvtx.push('steps')
    if a.time:
        times = []
        for _ in range(a.time):
            t0 = time.perf_counter()
            for _ in range(a.steps):
                nvtx.push('step')
                params, loss = step(params)
                nvtx.pop()
            times.append(time.perf_counter() - t0)
        out['seconds'] = times
    else:
        prof = jax.profiler.trace(a.profile, create_perfetto_trace=True) if a.profile else None
        if prof:
            prof.__enter__()
        for _ in range(a.steps):
            nvtx.push('step')
            params, loss = step(params)
            nvtx.pop()
        if prof:
            prof.__exit__(None, None, None)
            out.update(gpu_events(a.profile))
    nvtx.pop()
    out['pushes'] = nvtx.n
    out['loss'] = loss
    if a.out:
        with open(a.out, 'w') as f:
            json.dump(out, f)
    print('jax_steps: %d steps, %d NVTX pushes, loss %.5f: %s' %
          (a.steps, nvtx.n, loss, 'ok' if math.isfinite(loss) else 'WRONG'), flush=True)
    return 0 if math.isfinite(loss) else 1


if __name__ == '__main__':
    sys.exit(main())
