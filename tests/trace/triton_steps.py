"""triton_steps.py: an unmodified Triton program for varbench trace's framework matrix.

A @triton.jit kernel (z = x + 2 y over 16M float32, 1024 elements a program) compiled by a
warm-up launch, then launched N times inside an NVTX range 'steps' (torch.cuda.nvtx), each launch
in a range 'step'. The program counts its launches and ranges and checks the answer.

usage: python3 triton_steps.py [--steps N] [--out FILE.json]
FILE.json gets "pushes" and "launches". Exit 0 when the answer is right, 1 otherwise, 3 without
a GPU.
"""
import argparse
import json
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def axpy2(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(z_ptr + offs, x + 2.0 * y, mask=mask)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--steps', type=int, default=20)
    ap.add_argument('--out', default=None)
    a = ap.parse_args()
    if not torch.cuda.is_available():
        print('triton_steps: no GPU', file=sys.stderr)
        return 3
    n = 1 << 24
    g = torch.Generator(device='cuda').manual_seed(0)
    x = torch.randn(n, device='cuda', generator=g)
    y = torch.randn(n, device='cuda', generator=g)
    z = torch.full((n,), float('nan'), device='cuda')
    grid = (triton.cdiv(n, 1024),)
    axpy2[grid](x, y, z, n, BLOCK=1024)  # compiles and loads the kernel
    torch.cuda.synchronize()
    pushes = launches = 0
    torch.cuda.nvtx.range_push('steps')
    pushes += 1
    for _ in range(a.steps):
        torch.cuda.nvtx.range_push('step')
        pushes += 1
        axpy2[grid](x, y, z, n, BLOCK=1024)
        launches += 1
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    ok = torch.allclose(z, x + 2 * y)
    if a.out:
        with open(a.out, 'w') as f:
            json.dump({'pushes': pushes, 'launches': launches}, f)
    print('triton_steps: %d launches, %d NVTX pushes: %s' % (launches, pushes,
                                                             'ok' if ok else 'WRONG'), flush=True)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
