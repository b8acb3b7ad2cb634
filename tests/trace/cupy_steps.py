"""cupy_steps.py: an unmodified CuPy program for varbench trace's framework matrix.

Inside cupyx.profiler.time_range('steps') (NVTX, through CuPy's own NVTX), N steps, each in a
time_range('step'): a RawKernel (saxpy over 16M float32) launched twice, a cuFFT forward and
inverse transform of a 2048x2048 complex64 array, and the result's first element read back
(one device-to-host copy). Before the steps, the inputs go to the device (two host-to-device
copies). The program counts its ranges and RawKernel launches; it checks the FFT round trip.

usage: python3 cupy_steps.py [--steps N] [--out FILE.json]
FILE.json gets "pushes" (ranges pushed), "raw_launches", "copies_in_steps" (its own device-to-
host reads inside 'steps'). Exit 0 when the answers are right, 1 otherwise, 3 without a GPU.
"""
import argparse
import json
import sys

import numpy as np


SAXPY = r'''
extern "C" __global__ void vb_saxpy(const float *x, float *y, float a, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--steps', type=int, default=10)
    ap.add_argument('--out', default=None)
    a = ap.parse_args()
    import cupy as cp
    from cupyx.profiler import time_range
    try:
        cp.cuda.runtime.getDeviceCount()
    except cp.cuda.runtime.CUDARuntimeError:
        print('cupy_steps: no GPU', file=sys.stderr)
        return 3
    n = 1 << 24
    kernel = cp.RawKernel(SAXPY, 'vb_saxpy')
    rng = np.random.default_rng(0)
    x = cp.asarray(rng.standard_normal(n, dtype=np.float32))
    y = cp.asarray(np.ones(n, dtype=np.float32))
    img = cp.asarray((rng.standard_normal((2048, 2048)) +
                      1j * rng.standard_normal((2048, 2048))).astype(np.complex64))
    blocks = (n + 255) // 256
    kernel((blocks,), (256,), (x, y, np.float32(0.0), np.int64(n)))  # warm-up (y unchanged)
    back = cp.fft.ifft2(cp.fft.fft2(img))
    cp.cuda.Device().synchronize()
    pushes = launches = reads = 0
    ok = True
    with time_range('steps'):
        pushes += 1
        for _ in range(a.steps):
            with time_range('step'):
                pushes += 1
                kernel((blocks,), (256,), (x, y, np.float32(0.5), np.int64(n)))
                kernel((blocks,), (256,), (x, y, np.float32(-0.5), np.int64(n)))
                launches += 2
                back = cp.fft.ifft2(cp.fft.fft2(img))
                first = complex(back[0, 0].get())  # one device-to-host copy
                reads += 1
                ok = ok and abs(first - complex(img[0, 0].get())) < 1e-3
                reads += 1
        cp.cuda.Device().synchronize()
    yv = float(y[:4].sum().get())
    ok = ok and abs(yv - 4.0) < 1e-3
    out = {'pushes': pushes, 'raw_launches': launches, 'copies_in_steps': reads}
    if a.out:
        with open(a.out, 'w') as f:
            json.dump(out, f)
    print('cupy_steps: %d steps, %d NVTX pushes, %d RawKernel launches: %s' %
          (a.steps, pushes, launches, 'ok' if ok else 'WRONG'), flush=True)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
