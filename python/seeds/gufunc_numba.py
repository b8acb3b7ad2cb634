"""gufunc_numba.py: seed 000's own Numba programs as rungs of varbench's gufunc ladder.

The seed (variants/seeds/000_*.txt) asks how to write a function that turns each scalar into a
row of N values with Numba; its answer is @guvectorize('(n)->(n)') over a [rows][cols] float32
array, in place, one thread a row (25% store efficiency at cols = 4). These rungs compute the
catalog's gufunc problem (func in {powsum, hermite}, rows, cols; the inputs are
vb_data_uniform's stream 0x6775 in [-1.5, 1.5), rounded to float32; the C reference and
tolerance), in the same run as the C rungs:
  numba-guvectorize  the seed's t2.py (powsum) and t3.py (hermite): the row-major array with x
                     in its rows (and 1 before x for hermite), H2D, the gufunc in place, D2H
  python-loop        the rows in plain Python (a CPU rung, no NumPy: at most 20,000 rows)
Run: PYTHONPATH=build/python python3 python/seeds/gufunc_numba.py run [varbench run's options]
"""
import math
import struct
import sys

import varbench as vb  # first: it lets numba-cuda import beside NumPy 2.5 (varbench/_compat.py)

gufunc = vb.catalog('gufunc').problem('gufunc')
X_SEED = 0x6775  # variants/gufunc.c's stream of x values


def f32(v):
    return struct.unpack('f', struct.pack('f', v))[0]


def row(func, x, cols):
    """the row of x in double (the reference's formula; x already rounded to float32)"""
    out = []
    if func == 'powsum':
        acc, p = 0.0, x
        for _ in range(cols):
            acc += p
            out.append(acc)
            p *= x
        return out
    h0, h1 = 1.0, x
    out = [h0, h1][:cols]
    for i in range(2, cols):
        h2 = (x * h1 - math.sqrt(i - 1) * h0) / math.sqrt(i)
        out.append(h2)
        h0, h1 = h1, h2
    return out


@gufunc.variant(gpu=False, traffic=lambda p: {'elements': p['rows']})
def python_loop(state):
    """the rows in plain Python"""
    func, rows, cols = state['func'], state['rows'], state['cols']
    if rows > 20000:
        raise vb.Skip('plain Python: at most 20,000 rows (this is %d)' % rows)
    xs = [f32(vb.data_uniform(X_SEED, r, -1.5, 1.5)) for r in range(rows)]
    state.exec(lambda: [v for x in xs for v in row(func, x, cols)])


_kernels = {}


def kernel(func):
    """the seed's gufunc for func (t2.py: powsum; t3.py: hermite), compiled once"""
    if func not in _kernels:
        try:
            from numba import guvectorize
        except ImportError as e:
            raise vb.Skip('needs numba-cuda and NumPy: %s' % e) from None
        if func == 'powsum':
            @guvectorize(['void(float32[:], float32[:])'], '(n) ->(n)', target='cuda')
            def my_func(inp, out):
                tmp1 = 0.
                tmp = inp[0]
                for i in range(out.shape[0]):
                    tmp1 += tmp
                    out[i] = tmp1
                    tmp *= inp[0]
        else:
            @guvectorize(['void(float32[:], float32[:])'], '(n) ->(n)', target='cuda')
            def my_func(inp, out):
                for i in range(2, out.shape[0]):
                    out[i] = out[1] * out[i - 1] - (i - 1) * out[i - 2]
                c = 1.
                for i in range(2, out.shape[0]):
                    c *= i
                    out[i] /= math.sqrt(c)
        _kernels[func] = my_func
    return _kernels[func]


def copies(p):
    b = 4 * p['rows'] * p['cols']
    return {'h2d_bytes': b, 'h2d_count': 1, 'd2h_bytes': b, 'd2h_count': 1,
            'elements': p['rows']}


@gufunc.variant(gpu=True, traffic=copies)
def numba_guvectorize(state):
    """the seed's @guvectorize('(n)->(n)') in place on [rows][cols] float32"""
    my_func = kernel(state['func'])
    import numpy as np
    from numba import cuda
    rows, cols = state['rows'], state['cols']
    x = vb.data_uniform_array(X_SEED, rows, -1.5, 1.5).astype(np.float32)
    inp = np.zeros((rows, cols), dtype=np.float32)
    if state['func'] == 'powsum':
        inp[:, 0] = x
    else:
        inp[:, 0] = 1.0
        inp[:, 1] = x
    out = np.empty_like(inp)

    def sample():
        dev = cuda.to_device(inp)  # alloc and copy input data, as the seed
        my_func(dev, dev)          # the gufunc, in place
        dev.copy_to_host(out)      # the result back
        return out
    state.exec(sample)


if __name__ == '__main__':
    sys.exit(vb.main())
