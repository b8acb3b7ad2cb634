"""numba_vectorize.py: seed 001's t38.py as an unmodified program for varbench trace.

A Numba ufunc, @vectorize(target='cuda'), called on four float64 host arrays: Numba copies each
input to the device, launches one kernel and copies the result back, so a trace must show
4 [CUDA memcpy HtoD] of N*N*8 bytes each, 1 [CUDA memcpy DtoH] of N*N*8 bytes and one kernel
whose name holds "a_cuda" (what nvprof showed for t38.py).

usage: python3 numba_vectorize.py [N [SLEEP]]   (N*N points, default 1000; then sleep SLEEP s,
                                                 for a test to interrupt it)
Exit 0 when the result matches NumPy, 1 otherwise.
"""
import math
import sys
import time

import numpy as np
from numba import float64, vectorize


@vectorize([float64(float64, float64, float64, float64)], target='cuda')
def a_cuda(lat1, lon1, lat2, lon2):
    return (math.sin(0.008726645 * (lat2 - lat1))**2) + \
        math.cos(0.01745329 * lat1) * math.cos(0.01745329 * lat2) * \
        (math.sin(0.008726645 * (lon2 - lon1))**2)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    pause = float(sys.argv[2]) if len(sys.argv) > 2 else 0
    xv, yv = np.meshgrid(np.linspace(29, 31, n), np.linspace(99, 101, n))
    x = np.ascontiguousarray(xv.reshape(n * n))
    y = np.ascontiguousarray(yv.reshape(n * n))
    x2 = np.full(n * n, 30.0)
    y2 = np.full(n * n, 101.0)
    start = time.time()
    a = a_cuda(x, y, x2, y2)
    print('{:d} total evaluations in {:.3f} seconds'.format(n * n, time.time() - start), flush=True)
    ref = np.sin(0.008726645 * (x2 - x))**2 + \
        np.cos(0.01745329 * x) * np.cos(0.01745329 * x2) * np.sin(0.008726645 * (y2 - y))**2
    ok = np.allclose(a, ref, rtol=1e-12, atol=1e-14)
    print('numba_vectorize: {}'.format('ok' if ok else 'WRONG'), flush=True)
    if pause > 0:
        print('numba_vectorize: sleeping {:g} s'.format(pause), flush=True)
        time.sleep(pause)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
