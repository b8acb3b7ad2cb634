"""numba_guvectorize.py: seed 000's t2.py as an unmodified program for varbench trace --metrics.

A Numba CUDA gufunc, @guvectorize('(n)->(n)', target='cuda'), computed in place on a device
array of rows x 4 float32 (the seed's workaround): each thread writes its row of 4 floats, so a
warp's store touches 32 rows 16 bytes apart and uses 8 of every 32 bytes of each sector it
writes: store efficiency (nvprof's gst_efficiency) 25%, what the seed's nvprof reported.
Copies: 1 [CUDA memcpy HtoD] and 1 [CUDA memcpy DtoH] of rows*4*4 bytes.

usage: python3 numba_guvectorize.py [ROWS]   (default 1280000, the seed's)
Exit 0 when the result matches NumPy, 1 otherwise.
"""
import sys

import numpy as np
from numba import cuda, guvectorize


@guvectorize(['void(float32[:], float32[:])'], '(n)->(n)', target='cuda')
def my_func(inp, out):
    tmp1 = 0.
    tmp = inp[0]
    for i in range(out.shape[0]):
        tmp1 += tmp
        out[i] = tmp1
        tmp *= inp[0]


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1280000
    cols = 4
    inp = np.zeros(rows * cols, dtype=np.float32).reshape(rows, cols)
    inp[:, 0] = (np.arange(rows) % 4) + 1
    x = inp[:, 0].astype(np.float64)
    dev_inp = cuda.to_device(inp)
    my_func(dev_inp, dev_inp)
    dev_inp.copy_to_host(inp)
    ref = np.cumsum(np.stack([x ** (i + 1) for i in range(cols)], axis=1), axis=1)
    ok = np.allclose(inp, ref, rtol=1e-6)
    print(inp[:4])
    print('numba_guvectorize: {}'.format('ok' if ok else 'WRONG'), flush=True)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
