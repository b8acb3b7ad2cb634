"""torch_steps.py: an unmodified PyTorch training program for varbench trace's framework matrix.

ResNet-18 training steps (batch 32, 224x224, SGD; each step copies its batch in from pinned host
memory and reads the loss back) plus a small MLP captured once as a CUDA graph and replayed each
step. The timed steps sit inside torch.cuda.nvtx.range_push('steps') / range_pop(), each step in
a range 'step'; the program counts every range it pushes.

usage: python3 torch_steps.py [--steps N] [--warmup N] [--out FILE.json] [--profile]
           [--emit-nvtx] [--compile] [--time REPEATS] [--nvtx-first]
  --profile     torch.profiler.profile(activities=[CPU, CUDA]) around the steps (inside 'steps',
                after a synchronize): FILE.json gets its kernel, memcpy and memset counts and its
                summed kernel time, from its own exported trace
  --emit-nvtx   torch.autograd.profiler.emit_nvtx() around the steps (a range per operator)
  --compile     the MLP through torch.compile (Triton kernels) instead of a CUDA graph
  --time R      R repeats of the steps, each timed in the process (synchronize, perf_counter);
                FILE.json gets the seconds of each (with --profile: all under torch.profiler)
  --nvtx-first  an NVTX range pushed (and popped) before the first CUDA call
FILE.json always gets "pushes": the ranges the program pushed, and "steps".
Exit 0 when the last loss is finite, 1 otherwise, 3 without a CUDA device.
"""
import argparse
import json
import math
import sys

import torch

import torch_prof


def parse():
    ap = argparse.ArgumentParser()
    ap.add_argument('--steps', type=int, default=10)
    ap.add_argument('--warmup', type=int, default=3)
    ap.add_argument('--out', default=None)
    ap.add_argument('--profile', action='store_true')
    ap.add_argument('--emit-nvtx', action='store_true')
    ap.add_argument('--compile', action='store_true')
    ap.add_argument('--time', type=int, default=0)
    ap.add_argument('--nvtx-first', action='store_true')
    return ap.parse_args()


class Counter:
    """NVTX pushes made by this program (torch.cuda.nvtx is the program's own NVTX instance)."""

    def __init__(self):
        self.n = 0

    def push(self, name):
        self.n += 1
        torch.cuda.nvtx.range_push(name)

    def pop(self):
        torch.cuda.nvtx.range_pop()


def build(args):
    import torchvision
    torch.manual_seed(0)
    model = torchvision.models.resnet18().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    host_x = torch.randn(32, 3, 224, 224).pin_memory()
    host_y = torch.randint(0, 1000, (32,)).pin_memory()
    mlp = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.ReLU(),
                              torch.nn.Linear(1024, 512)).cuda()
    mlp_in = torch.randn(64, 512, device='cuda')
    if args.compile:
        compiled = torch.compile(mlp)

        def extra():
            return compiled(mlp_in)
    else:
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side), torch.no_grad():
            for _ in range(3):
                mlp(mlp_in)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph), torch.no_grad():
            static_out = mlp(mlp_in)

        def extra():
            graph.replay()
            return static_out

    def step():
        x = host_x.to('cuda', non_blocking=True)
        y = host_y.to('cuda', non_blocking=True)
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        extra()
        return loss.item()

    return step


def steps(step, n, nvtx):
    loss = float('nan')
    for _ in range(n):
        nvtx.push('step')
        loss = step()
        nvtx.pop()
    return loss


def profiled(step, n, nvtx):
    """the steps under torch.profiler; its own exported trace's GPU counts"""
    return torch_prof.profiled(lambda: steps(step, n, nvtx))


def main():
    args = parse()
    nvtx = Counter()
    out = {'steps': args.steps}
    if args.nvtx_first:
        nvtx.push('before cuda')  # NVTX's first call: before CUDA starts
        nvtx.pop()
    if not torch.cuda.is_available():
        print('torch_steps: no CUDA device', file=sys.stderr)
        return 3
    step = build(args)
    for _ in range(args.warmup):
        step()
    torch.cuda.synchronize()
    nvtx.push('steps')
    torch.cuda.synchronize()
    if args.time:
        loss, out['seconds'] = torch_prof.timed(lambda: steps(step, args.steps, nvtx), args.time,
                                                args.profile)
    elif args.profile:
        loss, ref = profiled(step, args.steps, nvtx)
        out['reference'] = ref
    elif args.emit_nvtx:
        with torch.autograd.profiler.emit_nvtx():
            loss = steps(step, args.steps, nvtx)
    else:
        loss = steps(step, args.steps, nvtx)
    torch.cuda.synchronize()
    nvtx.pop()
    out['pushes'] = nvtx.n
    out['loss'] = loss
    if args.out:
        with open(args.out, 'w') as f:
            json.dump(out, f)
    print('torch_steps: %d steps, %d NVTX pushes, loss %.4f: %s' %
          (args.steps, nvtx.n, loss, 'ok' if math.isfinite(loss) else 'WRONG'), flush=True)
    return 0 if math.isfinite(loss) else 1


if __name__ == '__main__':
    sys.exit(main())
