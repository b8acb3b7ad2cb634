"""calx_numba.py: seed 003's own Numba kernels ("Numba + GPU notes", a Lorenz-04 model step's
smoothing) as rungs of varbench's calx ladder.

The seed parallelises calx's two loops: first the inner sum too, a block per output and a
thread per term each adding into x with an unsynchronised read-modify-write (a data race: its
answer differs by 1e-2), then only the outer loop, the inner sum serial in each thread (correct,
but no faster than the @jit CPU function at its size). These rungs compute the catalog's calx
problem (model_size, smooth_steps; a the triangular kernel, z = sin(0.0647 k) + noise from
vb_data_uniform's stream 0xca1c; the C reference, tolerance 1e-12) beside the C rungs, with the
seed's zwrap offset ss2 = smooth_steps and its column arrays as vectors:
  numba-race    the seed's first gpu_calx: grid model_size, block 2S+1, += per thread (wrong on
                purpose, as the C naive-inner)
  numba-serial  the seed's device function in a kernel of a thread per output (the seed indexes
                by threadIdx.x alone, which holds model_size <= 1024; cuda.grid(1) here)
  python-loop   the seed's calx in plain Python (a CPU rung: at most 100,000 outputs)
Each GPU sample is the seed's GPU call: z and a copied in, the kernel, x copied back.
Run: PYTHONPATH=build/python python3 python/seeds/calx_numba.py run [run's options]
"""
import math
import sys

import varbench as vb  # first: it lets numba-cuda import beside NumPy 2.5 (varbench/_compat.py)

calx = vb.catalog('calx').problem('calx')
Z_SEED = 0xCA1C  # variants/calx.c's


def inputs(m, S):
    """a (2S+1) and z (m+2S+2) as variants/calx.c's fill_inputs, in plain Python"""
    a = [float(S + 1) - abs(float(k) - S) for k in range(2 * S + 1)]
    total = 0.0
    for v in a:
        total += v
    a = [v / total for v in a]
    z = [math.sin(0.0647 * k) + vb.data_uniform(Z_SEED, k, -0.1, 0.1) for k in range(m + 2 * S + 2)]
    return a, z


def calx_py(x, ss2, model_size, a, zwrap, S):
    """the seed's calx, its loops and its order of terms"""
    for i in range(ss2, ss2 + model_size):
        v = a[0] * zwrap[i + 1 - (-S)] / 2.00
        for j in range(-S + 1, S):
            v = v + a[j + S] * zwrap[i + 1 - j]
        x[i - ss2] = v + a[2 * S] * zwrap[i + 1 - S] / 2.00
    return x


@calx.variant(gpu=False, traffic=lambda p: {'elements': p['model_size']})
def python_loop(state):
    """the seed's calx in plain Python"""
    m, S = state['model_size'], state['smooth_steps']
    if m > 100000:
        raise vb.Skip('plain Python: at most 100,000 outputs (this is %d)' % m)
    a, z = inputs(m, S)
    state.exec(lambda: calx_py([0.0] * m, S, m, a, z, S))


_k = {}


def kernels():
    if not _k:
        try:
            import numpy as np
            from numba import cuda
        except ImportError as e:
            raise vb.Skip('needs numba-cuda and NumPy: %s' % e) from None

        @cuda.jit
        def gpu_calx_race(x_device, ss2, model_size, a_device, zwrap_device, smooth_steps):
            a = a_device
            zwrap = zwrap_device
            i = cuda.blockIdx.x + ss2
            j = cuda.threadIdx.x - smooth_steps
            if j == (- smooth_steps):
                x_device[i - ss2] = x_device[i - ss2] + a[0] * zwrap[i + 1 - (- smooth_steps)] / 2.00
            elif j == smooth_steps:
                x_device[i - ss2] = x_device[i - ss2] + a[2 * smooth_steps] * zwrap[i + 1 - smooth_steps] / 2.00
            else:
                x_device[i - ss2] = x_device[i - ss2] + a[j + smooth_steps] * zwrap[i + 1 - j]

        @cuda.jit(device=True)
        def gpu_calx(x_device, ss2, i, a, zwrap, smooth_steps):
            x_device[i - ss2] = a[0] * zwrap[i + 1 - (- smooth_steps)] / 2.00
            for j in range(- smooth_steps + 1, smooth_steps):
                x_device[i - ss2] = x_device[i - ss2] + a[j + smooth_steps] * zwrap[i + 1 - j]
            x_device[i - ss2] = x_device[i - ss2] + a[2 * smooth_steps] * zwrap[i + 1 - smooth_steps] / 2.00

        @cuda.jit
        def gpu_calx_serial(x_device, ss2, model_size, a, zwrap, smooth_steps):
            i = cuda.grid(1) + ss2
            if i < ss2 + model_size:
                gpu_calx(x_device, ss2, i, a, zwrap, smooth_steps)
        _k.update(np=np, cuda=cuda, race=gpu_calx_race, serial=gpu_calx_serial)
    return _k['np'], _k['cuda'], _k['race'], _k['serial']


def copies(p):
    m, S = p['model_size'], p['smooth_steps']
    return {'h2d_bytes': 8 * (m + 2 * S + 2 + 2 * S + 1), 'h2d_count': 2, 'd2h_bytes': 8 * m,
            'd2h_count': 1, 'elements': m}


def gpu_rung(which):
    def fn(state):
        np, cuda, race, serial = kernels()
        m, S = state['model_size'], state['smooth_steps']
        if which == 'race' and 2 * S + 1 > 1024:
            raise vb.Skip('the race needs 2*smooth_steps+1 <= 1024 threads')
        k = np.arange(m + 2 * S + 2, dtype=np.float64)
        z = np.sin(0.0647 * k) + vb.data_uniform_array(Z_SEED, m + 2 * S + 2, -0.1, 0.1)
        a = np.array(inputs(0, S)[0], dtype=np.float64)
        dx = cuda.to_device(np.zeros(m))
        x = np.empty(m)

        def sample():
            dz, da = cuda.to_device(z), cuda.to_device(a)
            if which == 'race':
                race[m, 2 * S + 1](dx, S, m, da, dz, S)
            else:
                serial[(m + 127) // 128, 128](dx, S, m, da, dz, S)
            dx.copy_to_host(x)
            return x
        state.exec(sample)
    return fn


calx.variant(name='numba-race', gpu=True, traffic=copies, expect_wrong=True,
             summary="the seed's first gpu_calx: a thread per term, += unsynchronised")(
                 gpu_rung('race'))
calx.variant(name='numba-serial', gpu=True, traffic=copies,
             summary="the seed's fix: a thread per output, the inner sum serial")(
                 gpu_rung('serial'))


if __name__ == '__main__':
    sys.exit(vb.main())
