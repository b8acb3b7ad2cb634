"""cupy_prog.py: an unmodified CuPy program for varbench trace.

Two host arrays of N float32 go to the device with cupy.asarray (2 [CUDA memcpy HtoD] of N*4
bytes), one ElementwiseKernel named vb_saxpy runs once, and .get() brings the result back
(1 [CUDA memcpy DtoH] of N*4 bytes).

usage: python3 cupy_prog.py [N]   (default 1048576)
Exit 0 when the result matches NumPy, 1 otherwise.
"""
import sys

import cupy as cp
import numpy as np


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    saxpy = cp.ElementwiseKernel('float32 x, float32 y, float32 a', 'float32 z',
                                 'z = a * x + y', 'vb_saxpy')
    dx = cp.asarray(x)
    dy = cp.asarray(y)
    dz = saxpy(dx, dy, np.float32(2.0))
    z = dz.get()
    ok = np.array_equal(z, np.float32(2.0) * x + y)
    print('cupy_prog: {} floats: {}'.format(n, 'ok' if ok else 'WRONG'), flush=True)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
