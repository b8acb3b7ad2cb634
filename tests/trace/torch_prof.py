"""torch_prof.py: what torch.profiler records of some work, from its own exported trace, for the
test programs (torch_steps.py, torch_ddp.py) to hold varbench's counts against.

profiled(work) runs work() under torch.profiler.profile(activities=[CPU, CUDA]) with a
synchronize after it, and returns (work's result, counts): kernels (nccl_kernels of them NCCL's),
their summed kernel_us, copies, memsets, cpu_ops and annotations (record_function scopes).
timed(work, repeats, under_profiler) times work() repeats times between synchronizes (with
under_profiler, all of them inside one torch.profiler session: its own cost); returns (the last
result, the seconds of each).
"""
import contextlib
import json
import os
import tempfile
import time

import torch


def timed(work, repeats, under_profiler):
    from torch.profiler import ProfilerActivity, profile
    times, result = [], None
    with (profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) if under_profiler
          else contextlib.nullcontext()):
        for _ in range(repeats):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            result = work()
            torch.cuda.synchronize()
            times.append(time.perf_counter() - t0)
    return result, times


def profiled(work):
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        result = work()
        torch.cuda.synchronize()
    fd, path = tempfile.mkstemp(suffix='.json')
    os.close(fd)
    try:
        prof.export_chrome_trace(path)
        with open(path) as f:
            events = json.load(f)['traceEvents']
    finally:
        os.unlink(path)
    ref = {'kernels': 0, 'nccl_kernels': 0, 'copies': 0, 'memsets': 0, 'kernel_us': 0.0,
           'cpu_ops': 0, 'annotations': 0}
    for e in events:
        cat = e.get('cat')
        if e.get('ph') != 'X':
            continue
        if cat == 'kernel':
            ref['kernels'] += 1
            ref['kernel_us'] += float(e.get('dur', 0))
            ref['nccl_kernels'] += e.get('name', '').startswith('nccl')
        elif cat == 'gpu_memcpy':
            ref['copies'] += 1
        elif cat == 'gpu_memset':
            ref['memsets'] += 1
        elif cat == 'cpu_op':
            ref['cpu_ops'] += 1
        elif cat == 'user_annotation':  # record_function scopes (Optimizer.step#SGD.step)
            ref['annotations'] += 1
    return result, ref
