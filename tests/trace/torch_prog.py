"""torch_prog.py: an unmodified PyTorch program for varbench trace (informational: PyTorch
brings its own CUPTI for its profiler, which must not get in the way while unused).

Two host tensors of N float32 go to the device (2 [CUDA memcpy HtoD] of N*4 bytes), one
element-wise kernel (torch.add with alpha) runs, and the result comes back (1 [CUDA memcpy DtoH]
of N*4 bytes).

usage: python3 torch_prog.py [N]   (default 1048576)
"""
import sys

import torch


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
    x = torch.arange(n, dtype=torch.float32)
    y = torch.ones(n, dtype=torch.float32)
    dx = x.to('cuda')
    dy = y.to('cuda')
    dz = torch.add(dy, dx, alpha=2.0)
    z = dz.to('cpu')
    ok = torch.equal(z, y + 2.0 * x)
    print('torch_prog: {} floats: {}'.format(n, 'ok' if ok else 'WRONG'), flush=True)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
