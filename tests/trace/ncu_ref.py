#!/usr/bin/env python3
"""ncu_ref.py: the kernels of a command inside an NVTX range, as Nsight Compute measures them.

usage: ncu_ref.py OUT.json [--nvtx RANGE] [--extra FILE.json] [--cache all|none] [--clock]
                  -- COMMAND [ARGS...]

Runs COMMAND under `ncu --clock-control none --cache-control none --metrics
gpu__time_duration.sum` (every kernel, or only those inside the push/pop range RANGE; --cache
all: `--cache-control all` instead, ncu's caches flushed before each kernel) and writes
OUT.json: {"kernels": N, "kernel_us": X, "kernel_median_us": M, "source": "ncu"} (X the sum, M
the median of one kernel) plus the keys of --extra (what the
program itself wrote: its pushes, copies); --clock adds sm__cycles_elapsed.avg.per_second, each
kernel's mean SM clock, and "sm_clock_median_mhz" (the median over the kernels). Exit 0, 1 when ncu or the command failed, 77 without
ncu (a test then skips). ncu crashing (SIGSEGV) is tried again, up to 3 runs.
"""
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

# ncu 2025.3 has crashed a JAX process (exit 139 after cuBLAS failed to start for lack of
# memory) and a crash of the reference is cheap to try again
TRIES = 3


def main(argv):
    if '--' not in argv or argv.index('--') < 1:
        print(__doc__, file=sys.stderr)
        return 2
    cmd = argv[argv.index('--') + 1:]
    opts = argv[:argv.index('--')]
    out, nvtx, extra = opts[0], None, None
    if '--nvtx' in opts:
        nvtx = opts[opts.index('--nvtx') + 1]
    if '--extra' in opts:
        extra = opts[opts.index('--extra') + 1]
    cache = opts[opts.index('--cache') + 1] if '--cache' in opts else 'none'
    metrics = ['gpu__time_duration.sum'] + (['sm__cycles_elapsed.avg.per_second']
                                            if '--clock' in opts else [])
    ncu = shutil.which('ncu')
    if not ncu:
        print('ncu_ref: ncu not found', file=sys.stderr)
        return 77
    fd, log = tempfile.mkstemp(suffix='.csv')
    os.close(fd)
    args = [ncu, '--clock-control', 'none', '--cache-control', cache, '--metrics',
            ','.join(metrics), '--csv', '--print-units', 'base', '--log-file', log]
    if nvtx:
        args += ['--nvtx', '--nvtx-include', nvtx + '/']
    for attempt in range(1, TRIES + 1):
        rc = subprocess.call(args + cmd, stdout=subprocess.DEVNULL)
        with open(log) as f:
            text = f.read()
        if rc != 139 or attempt == TRIES:
            break
        print('ncu_ref: ncu crashed (SIGSEGV, exit 139), try %d of %d' % (attempt, TRIES),
              file=sys.stderr)
    os.unlink(log)
    rows = [r for r in csv.DictReader(l for l in text.splitlines() if l.startswith('"'))]
    times = [float(r['Metric Value'].replace(',', '')) for r in rows
             if r.get('Metric Name') == 'gpu__time_duration.sum']
    clocks = [float(r['Metric Value'].replace(',', '')) for r in rows
              if r.get('Metric Name') == 'sm__cycles_elapsed.avg.per_second']
    if rc != 0:
        print('ncu_ref: ncu exited %d:\n%s' % (rc, text[-2000:]), file=sys.stderr)
        return 1
    ref = {'kernels': len(times), 'kernel_us': sum(times) / 1e3,
           'kernel_median_us': statistics.median(times) / 1e3 if times else None, 'source': 'ncu'}
    if clocks:
        ref['sm_clock_median_mhz'] = statistics.median(clocks) / 1e6
    if extra:
        with open(extra) as f:
            for k, v in json.load(f).items():
                ref.setdefault(k, v)
    with open(out, 'w') as f:
        json.dump(ref, f)
    print('ncu_ref: %d kernels, %.1f us' % (ref['kernels'], ref['kernel_us']))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
