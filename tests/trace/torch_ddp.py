"""torch_ddp.py: an unmodified multi-rank PyTorch training program (DistributedDataParallel over
NCCL, one process a GPU) for varbench trace's multi-process tests and the in-step cost benchmark.

ResNet-18 training steps (batch 32 a rank by default, 224x224, SGD); each step copies its batch in from
pinned host memory, all-reduces the gradients (DDP's buckets, NCCL) and reads the loss back. The
timed steps sit inside torch.cuda.nvtx.range_push('steps') / range_pop(), each step in a range
'step'. Started by torchrun (RANK, LOCAL_RANK, WORLD_SIZE); alone it is one rank of one.

usage: torchrun --nproc_per_node=N torch_ddp.py [--steps N] [--warmup N] [--time R]
           [--out PREFIX] [--profile] [--delay-rank R] [--delay-ms MS] [--extra-kernel]
           [--sleep-ms MS] [--pageable] [--after N] [--batch B]
  --time R         R repeats of the steps, each timed in the process (synchronize, perf_counter)
  --out PREFIX     each rank writes PREFIX.rankR.json: "seconds" (with --time), "steps",
                   "pushes" (NVTX ranges it pushed), "device", "rank" and with --profile
                   "reference": torch.profiler's kernel, NCCL kernel, memcpy and memset counts
                   inside the steps, from its own exported trace
  --profile        torch.profiler.profile(activities=[CPU, CUDA]) around the steps (with --time,
                   around the timed repeats, and no counts)
  --delay-rank R   rank R sleeps --delay-ms (default 30) at the start of every step: a straggler
  --extra-kernel   every rank runs one more matrix product in each step (a planted slowdown),
                   of --extra-size N squared (default 4096; 2560 adds ~10% to a step's kernels)
  --sleep-ms MS    every rank sleeps MS inside each step (a planted host-side slowdown)
  --pageable       every rank copies an extra 64 MiB from pageable host memory in each step
  --after N        N more steps after the steps (after torch.profiler stopped, with --profile),
                   in a range 'after': a tracer must still see their work
  --batch B        images a rank a step (default 32): the same ~440 launches a step over more
                   GPU work, to tell a per-launch cost from a per-work one
Exit 0 when the last loss is finite on this rank, 1 otherwise, 3 without a CUDA device.
"""
import argparse
import json
import math
import os
import sys
import time

import torch

import torch_prof


def parse():
    ap = argparse.ArgumentParser()
    ap.add_argument('--steps', type=int, default=20)
    ap.add_argument('--warmup', type=int, default=3)
    ap.add_argument('--time', type=int, default=0)
    ap.add_argument('--out', default=None)
    ap.add_argument('--profile', action='store_true')
    ap.add_argument('--delay-rank', type=int, default=-1)
    ap.add_argument('--delay-ms', type=float, default=30.0)
    ap.add_argument('--extra-kernel', action='store_true')
    ap.add_argument('--extra-size', type=int, default=4096)
    ap.add_argument('--sleep-ms', type=float, default=0.0)
    ap.add_argument('--pageable', action='store_true')
    ap.add_argument('--after', type=int, default=0)
    ap.add_argument('--batch', type=int, default=32)
    return ap.parse_args()


def build(args, rank, device, world):
    import torchvision
    torch.manual_seed(0)
    model = torchvision.models.resnet18().to(device)
    if world > 1:
        model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[device])
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    host_x = torch.randn(args.batch, 3, 224, 224).pin_memory()
    host_y = torch.randint(0, 1000, (args.batch,)).pin_memory()
    extra_a = (torch.randn(args.extra_size, args.extra_size, device=device) if args.extra_kernel
               else None)
    pageable = torch.randn(16 << 20) if args.pageable else None  # 64 MiB, not pinned

    def step():
        if rank == args.delay_rank:
            time.sleep(args.delay_ms / 1e3)
        if args.sleep_ms:
            time.sleep(args.sleep_ms / 1e3)
        x = host_x.to(device, non_blocking=True)
        y = host_y.to(device, non_blocking=True)
        if pageable is not None:
            pageable.to(device)
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        if extra_a is not None:
            torch.mm(extra_a, extra_a)
        return loss.item()

    return step


def steps(step, n, pushes):
    loss = float('nan')
    for _ in range(n):
        torch.cuda.nvtx.range_push('step')
        pushes[0] += 1
        loss = step()
        torch.cuda.nvtx.range_pop()
    return loss


def profiled(step, n, pushes):
    """the steps under torch.profiler; its own exported trace's GPU counts"""
    return torch_prof.profiled(lambda: steps(step, n, pushes))


def main():
    args = parse()
    if not torch.cuda.is_available():
        print('torch_ddp: no CUDA device', file=sys.stderr)
        return 3
    rank = int(os.environ.get('RANK', '0'))
    world = int(os.environ.get('WORLD_SIZE', '1'))
    device = int(os.environ.get('LOCAL_RANK', '0'))
    torch.cuda.set_device(device)
    if world > 1:
        torch.distributed.init_process_group('nccl', device_id=torch.device('cuda', device))
    step = build(args, rank, device, world)
    for _ in range(args.warmup):
        step()
    torch.cuda.synchronize()
    pushes = [1]
    out = {'steps': args.steps, 'rank': rank, 'device': device, 'world': world}
    torch.cuda.nvtx.range_push('steps')
    if args.time:  # with --profile, timed under torch.profiler (its own cost, for comparison)
        loss, out['seconds'] = torch_prof.timed(lambda: steps(step, args.steps, pushes),
                                                args.time, args.profile)
    elif args.profile:
        loss, out['reference'] = profiled(step, args.steps, pushes)
    else:
        loss = steps(step, args.steps, pushes)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    if args.after:
        torch.cuda.nvtx.range_push('after')
        pushes[0] += 1
        loss = steps(step, args.after, pushes)
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
    out['pushes'] = pushes[0]
    out['loss'] = loss
    if args.out:
        with open('%s.rank%d.json' % (args.out, rank), 'w') as f:
            json.dump(out, f)
    if world > 1:
        torch.distributed.destroy_process_group()
    print('torch_ddp: rank %d of %d, %d steps, loss %.4f: %s' %
          (rank, world, args.steps, loss, 'ok' if math.isfinite(loss) else 'WRONG'), flush=True)
    return 0 if math.isfinite(loss) else 1


if __name__ == '__main__':
    sys.exit(main())
