"""ufunc_numba.py: seed 002's own Numba programs ("seven things about Numba") as rungs of
varbench's ufunc ladders.

These rungs compute the catalog's ufunc problems (their n, inputs, C references and
tolerances: variants/ufunc_inputs.h, kernels/ufunc_math.h) beside the C rungs:
  gaussian  numba-vectorize   the seed's @vectorize(['float32(float32, float32, float32)'],
                              target='cuda') gaussian over np.linspace(-3, 3, n) float32, x0 = 0
                              and sigma = 1 broadcast, host arrays in and out
  clamp     numba-gridstride  the seed's @jit clamp called from the @cuda.jit clamp_array
                              grid-stride kernel, a device array out, 64 x 64 threads as its
                              gpu_cos
  cos       numba-do-cos      the seed's do_cos: gpu_cos[64, 64](x, out) on a host array x
                              (which Numba copies in, and back after the kernel), out copied
                              back
and a plain-Python rung of each (CPU rungs: at most 100,000 elements). fft-mask (the seed's
pyculib, gone since) is not among them. Needs numba-cuda and NumPy for the GPU rungs.
Run: PYTHONPATH=build/python python3 python/seeds/ufunc_numba.py run [run's options]
"""
import math
import struct
import sys

import varbench as vb  # first: it lets numba-cuda import beside NumPy 2.5 (varbench/_compat.py)

ufunc = vb.catalog('ufunc')
CLAMP_SEED, COS_SEED = 0xC1A3, 0xC05  # variants/ufunc_inputs.h's
SQRT_TWOPI = 2.5066282746310002
MAX_PY = 100000


def f32(v):
    return struct.unpack('f', struct.pack('f', v))[0]


def gauss_x(i, n):
    return f32(-3.0 + 6.0 * i / (n - 1)) if n > 1 else -3.0


def gaussian_d(x):
    z = (x - 0.0) / 1.0
    return math.exp(-(z * z) / 2.0) / SQRT_TWOPI / 1.0


def clamp_d(x, lo=-1.0, hi=1.0):
    return lo if x < lo else hi if x > hi else x


def small(state):
    if state['n'] > MAX_PY:
        raise vb.Skip('plain Python: at most %d elements (this is %d)' % (MAX_PY, state['n']))
    return state['n']


def elements(p):
    return {'elements': p['n']}


@ufunc.problem('gaussian').variant(name='gaussian-python', gpu=False, traffic=elements)
def gaussian_python(state):
    """the gaussian in plain Python"""
    n = small(state)
    x = [gauss_x(i, n) for i in range(n)]
    state.exec(lambda: [gaussian_d(v) for v in x])


@ufunc.problem('clamp').variant(name='clamp-python', gpu=False, traffic=elements)
def clamp_python(state):
    """the clamp in plain Python"""
    n = small(state)
    x = [f32(vb.data_uniform(CLAMP_SEED, i, -2.0, 2.0)) for i in range(n)]
    state.exec(lambda: [clamp_d(v) for v in x])


@ufunc.problem('cos').variant(name='cos-python', gpu=False, traffic=elements)
def cos_python(state):
    """math.cos in plain Python"""
    n = small(state)
    x = [f32(vb.data_uniform(COS_SEED, i, -10.0, 10.0)) for i in range(n)]
    state.exec(lambda: [math.cos(v) for v in x])


_compiled = {}


def numba_fns():
    """the seed's functions, compiled once: (np, cuda, gaussian, clamp_array, gpu_cos)"""
    if not _compiled:
        try:
            import numba
            import numba.cuda
            import numpy as np
        except ImportError as e:
            raise vb.Skip('needs numba-cuda and NumPy: %s' % e) from None
        sqrt_twopi = np.float32(math.sqrt(2 * math.pi))

        @numba.vectorize(['float32(float32, float32, float32)'], target='cuda')
        def gaussian(x, x0, sigma):
            return math.exp(-((x - x0) / sigma) ** 2 / 2) / sqrt_twopi / sigma

        @numba.jit
        def clamp(x, xmin, xmax):
            if x < xmin:
                return xmin
            elif x > xmax:
                return xmax
            else:
                return x

        @numba.cuda.jit
        def clamp_array(x, xmin, xmax, out):
            start = numba.cuda.grid(1)
            stride = numba.cuda.gridsize(1)
            for i in range(start, x.shape[0], stride):
                out[i] = clamp(x[i], xmin, xmax)

        @numba.cuda.jit
        def gpu_cos(x, out):
            start = numba.cuda.grid(1)
            stride = numba.cuda.gridsize(1)
            for i in range(start, x.shape[0], stride):
                out[i] = math.cos(x[i])
        _compiled.update(np=np, cuda=numba.cuda, gaussian=gaussian, clamp_array=clamp_array,
                         gpu_cos=gpu_cos)
    c = _compiled
    return c['np'], c['cuda'], c['gaussian'], c['clamp_array'], c['gpu_cos']


def copies(h2d, d2h):
    return lambda p: {'h2d_bytes': 4 * p['n'] * h2d, 'h2d_count': h2d,
                      'd2h_bytes': 4 * p['n'] * d2h, 'd2h_count': d2h, 'elements': p['n']}


@ufunc.problem('gaussian').variant(name='numba-vectorize', traffic=copies(1, 1))
def numba_vectorize(state):
    """the seed's @vectorize gaussian on host arrays, x0 and sigma broadcast"""
    np, _, gaussian, _, _ = numba_fns()
    n = state['n']
    x = (-3.0 + 6.0 * np.arange(n, dtype=np.float64) / (n - 1)).astype(np.float32)
    state.exec(lambda: gaussian(x, np.float32(0), np.float32(1)))


@ufunc.problem('clamp').variant(name='numba-gridstride', traffic=copies(1, 1))
def numba_gridstride(state):
    """the seed's clamp_array grid-stride kernel calling its @jit clamp"""
    np, cuda, _, clamp_array, _ = numba_fns()
    n = state['n']
    x = vb.data_uniform_array(CLAMP_SEED, n, -2.0, 2.0).astype(np.float32)
    out = cuda.device_array(n, dtype=np.float32)

    def sample():
        dx = cuda.to_device(x)
        clamp_array[64, 64](dx, np.float32(-1), np.float32(1), out)
        return out.copy_to_host()
    state.exec(sample)


@ufunc.problem('cos').variant(name='numba-do-cos', traffic=copies(1, 2))
def numba_do_cos(state):
    """the seed's do_cos: gpu_cos[64, 64] on a host array (copied in and back), out back"""
    np, cuda, _, _, gpu_cos = numba_fns()
    n = state['n']
    x = vb.data_uniform_array(COS_SEED, n, -10.0, 10.0).astype(np.float32)

    def sample():
        out = cuda.device_array_like(x)
        gpu_cos[64, 64](x, out)
        return out.copy_to_host()
    state.exec(sample)


if __name__ == '__main__':
    sys.exit(vb.main())
