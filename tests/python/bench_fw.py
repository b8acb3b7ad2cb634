"""bench_fw.py: one problem, out = a*x + y over n float32 elements resident on the GPU, computed
by a kernel of each Python GPU framework the machine has: a Numba @cuda.jit kernel, a CuPy
ElementwiseKernel, a PyTorch op (torch.add with alpha: one kernel), a Triton @jit kernel, a
jax.jit function (XLA's fused kernel; JAX told not to preallocate the GPU's memory). Each
sample launches once and synchronizes; the answer stays on the device (fetched for the
verified sample only). A framework that is not installed skips its rung, saying so.

  VB_FW_SLOW=NAME    the planted slowdown: rung NAME (numba, cupy, torch, triton, jax) launches its
                     kernel 3 times a sample (the answer unchanged, the kernel phase 3x)
  --standalone NAME K [N]  no varbench: rung NAME's kernel (n = N, default 2^24) launched K
                     times after one warm-up, for ncu to time (tests/trace/ncu_ref.py) against
                     varbench's kernel time
  --paced NAME K [N]  the same K launches back to back, 5 times, each batch timed on the host to
                     its synchronize: prints the median batch's time a launch in us. Run bare and
                     under a CUPTI tracer, their ratio is what the tracer's kernel timestamps cost
                     the kernel (on Hopper CUPTI instruments each kernel for them; Blackwell's
                     hardware events do not): the queue stays full when a kernel outlasts a
                     launch, so the time a launch is the kernel's and the gap after it

usage: python3 bench_fw.py run|list [varbench run's options] | --standalone|--paced NAME K [N]
"""
import os
import sys

import varbench as vb

A = 2.0
fam = vb.Family('pyfw', summary='one saxpy kernel from each Python GPU framework')


def inputs(n):
    import numpy as np
    rng = np.random.default_rng(0x5a)
    return (rng.uniform(-1, 1, n).astype(np.float32), rng.uniform(-1, 1, n).astype(np.float32))


def reference(p):
    import numpy as np
    x, y = inputs(p['n'])
    return A * x.astype(np.float64) + y.astype(np.float64)


saxpy = fam.problem('saxpy', axes={'n': [1 << 24]}, reference=reference, rtol=1e-6, atol=1e-6)


def traffic(p):
    return {'gmem_read_bytes': 8 * p['n'], 'gmem_write_bytes': 4 * p['n'], 'elements': p['n'],
            'flops': 2 * p['n']}


def times(name):
    return 3 if os.environ.get('VB_FW_SLOW') == name else 1


def need(module):
    try:
        return __import__(module)
    except ImportError as e:
        raise vb.Skip('%s is not installed here: %s' % (module, e)) from None


def numba_launcher(n):
    need('numba')
    from numba import cuda
    import numpy as np

    @cuda.jit
    def k(a, x, y, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a * x[i] + y[i]
    x, y = (cuda.to_device(v) for v in inputs(n))
    out = cuda.device_array(n, dtype=np.float32)
    blocks = (n + 255) // 256

    def launch():
        k[blocks, 256](np.float32(A), x, y, out)
    return launch, cuda.synchronize, lambda: out


def cupy_launcher(n):
    cp = need('cupy')
    k = cp.ElementwiseKernel('float32 a, float32 x, float32 y', 'float32 out',
                             'out = a * x + y', 'vb_saxpy')
    x, y = (cp.asarray(v) for v in inputs(n))
    out = cp.empty(n, dtype=cp.float32)
    return (lambda: k(cp.float32(A), x, y, out), cp.cuda.get_current_stream().synchronize,
            lambda: out)


def torch_launcher(n):
    torch = need('torch')
    x, y = (torch.from_numpy(v).cuda() for v in inputs(n))
    out = torch.empty_like(x)
    return (lambda: torch.add(y, x, alpha=A, out=out), torch.cuda.synchronize, lambda: out)


def triton_launcher(n):
    torch = need('torch')
    triton = need('triton')
    import triton.language as tl

    @triton.jit
    def k(x_ptr, y_ptr, out_ptr, a, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(out_ptr + offs, a * tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m),
                 mask=m)
    x, y = (torch.from_numpy(v).cuda() for v in inputs(n))
    out = torch.empty_like(x)
    grid = (triton.cdiv(n, 1024),)
    return (lambda: k[grid](x, y, out, A, n, BLOCK=1024), torch.cuda.synchronize, lambda: out)


def jax_launcher(n):
    os.environ.setdefault('XLA_PYTHON_CLIENT_PREALLOCATE', 'false')  # leave the others memory
    jax = need('jax')
    import jax.numpy as jnp
    if not any(d.platform == 'gpu' for d in jax.devices()):
        raise vb.Skip('jax sees no GPU (%s)' % jax.devices())
    x, y = (jnp.asarray(v) for v in inputs(n))
    f = jax.jit(lambda x, y: jnp.float32(A) * x + y)
    box = [None]

    def launch():
        box[0] = f(x, y)
    return launch, lambda: box[0].block_until_ready(), lambda: box[0]


LAUNCHERS = {'numba': numba_launcher, 'cupy': cupy_launcher, 'torch': torch_launcher,
             'triton': triton_launcher, 'jax': jax_launcher}


def rung(name):
    def fn(state):
        launch, sync, answer = LAUNCHERS[name](state['n'])
        launch()  # compiled (Numba, Triton) and loaded outside the samples
        sync()
        k = times(name)

        def sample():
            for _ in range(k):
                launch()
            sync()
            return answer()
        state.exec(sample)
    fn.__name__ = name
    fn.__doc__ = 'saxpy by %s' % name
    return fn


for _name in LAUNCHERS:
    saxpy.variant(gpu=True, traffic=traffic, resident=True)(rung(_name))


def standalone(name, k, n=1 << 24, batches=1):
    """the rung's kernel launched k times a batch after one warm-up; each batch's host time to
    its synchronize, in us a launch"""
    import time
    launch, sync, _ = LAUNCHERS[name](n)
    launch()
    sync()
    per = []
    for _ in range(batches):
        t = time.perf_counter()
        for _ in range(k):
            launch()
        sync()
        per.append((time.perf_counter() - t) * 1e6 / k)
    return per


if __name__ == '__main__':
    if len(sys.argv) in (4, 5) and sys.argv[1] in ('--standalone', '--paced'):
        paced = sys.argv[1] == '--paced'
        per = standalone(sys.argv[2], int(sys.argv[3]),
                         int(sys.argv[4]) if len(sys.argv) == 5 else 1 << 24, 5 if paced else 1)
        if paced:
            import statistics
            print('%.3f' % statistics.median(per))
        sys.exit(0)
    sys.exit(vb.main())
