"""fw_ncu.py: each bench_fw.py rung's saxpy kernel timed five ways, side by side (a benchmark,
ci/device-session's fw-ncu step; not a test):

  vb cold    varbench run, L2 flushed before each sample (its default)
  vb warm    varbench run --cache warm
  trace      varbench trace of the standalone launches (CUPTI's kernel records, back to back,
             no sampling harness: what varbench's records say outside its run loop)
  ncu all    ncu --cache-control all (caches flushed before each kernel), --clock-control none
  ncu none   ncu --cache-control none

Each a median kernel in us (the standalone: 41 launches); then the SM clock each ran at (MHz):
varbench's median over the timed samples (cold, warm) and ncu's sm__cycles_elapsed.avg.per_second
(median kernel, each cache mode), for a kernel that is not bandwidth-bound follows the clock. The question it answers: where a rung's
kernel differs from ncu's, whether it is the records (trace agrees with vb) or the harness
(trace agrees with ncu).

usage: fw_ncu.py VARBENCH OUTDIR
"""
import json
import os
import sqlite3
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FW = os.path.join(HERE, 'bench_fw.py')
NCU_REF = os.path.join(HERE, '..', 'trace', 'ncu_ref.py')
RUNGS = ['numba', 'cupy', 'torch', 'triton', 'jax']
LAUNCHES = 40


def median_run(db, run, name, col='kernel_median_ns / 1e3'):
    q = ("SELECT " + col + " FROM cases c JOIN variants v ON v.id = c.variant_id "
         "WHERE c.run_id = ? AND v.family = 'pyfw' AND v.name = ?")
    row = sqlite3.connect(db).execute(q, (run, name)).fetchone()
    return row[0] if row else float('nan')


def median_trace(db):
    """the median of the standalone's most launched kernel (the saxpy: 1 + LAUNCHES), its first
    (the warm-up) left out"""
    try:
        con = sqlite3.connect(db)
        name = con.execute("SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY shortName "
                           "ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
        ks = [r[0] for r in con.execute("SELECT (end - start) / 1e3 FROM CUPTI_ACTIVITY_KIND_KERNEL "
                                        "WHERE shortName = ? ORDER BY start", (name,))]
    except (sqlite3.Error, TypeError):
        return float('nan')
    return statistics.median(ks[1:]) if len(ks) > 1 else float('nan')


def ncu(name, cache, out):
    """(median kernel us, its median SM clock MHz)"""
    ref = os.path.join(out, 'ncu-%s-%s.json' % (name, cache))
    rc = subprocess.call([sys.executable, NCU_REF, ref, '--cache', cache, '--clock', '--', sys.executable, FW,
                          '--standalone', name, str(LAUNCHES)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    if rc != 0:
        return float('nan'), float('nan')
    j = json.load(open(ref))
    return j['kernel_median_us'], j.get('sm_clock_median_mhz', float('nan'))


def main(vb, out):
    os.makedirs(out, exist_ok=True)
    db = os.path.join(out, 'fw.db')
    for args in ([], ['--cache', 'warm']):
        subprocess.check_call([sys.executable, FW, 'run', '--no-metrics', '--db', db] + args,
                              stdout=subprocess.DEVNULL)
    rows, clocks = [], []
    for name in RUNGS:
        tdb = os.path.join(out, 'trace-%s.db' % name)
        subprocess.call([vb, 'trace', '-q', '--db', tdb, '--', sys.executable, FW,
                         '--standalone', name, str(LAUNCHES)], stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL)
        (na, ca), (nn, cn) = ncu(name, 'all', out), ncu(name, 'none', out)
        rows.append((name, median_run(db, 1, name), median_run(db, 2, name), median_trace(tdb),
                     na, nn))
        clk = 'clock_median_mhz'
        clocks.append((name, median_run(db, 1, name, clk), median_run(db, 2, name, clk), ca, cn))
    print('%-7s %8s %8s %8s %8s %8s %9s %9s %10s' % ('rung', 'vb cold', 'vb warm', 'trace',
                                                      'ncu all', 'ncu none', 'cold/all',
                                                      'warm/none', 'trace/none'))
    for r in rows:
        print('%-7s %8.2f %8.2f %8.2f %8.2f %8.2f %9.4f %9.4f %10.4f'
              % (r + (r[1] / r[4], r[2] / r[5], r[3] / r[5])))
    print('\nSM clock, MHz')
    print('%-7s %8s %8s %8s %8s' % ('rung', 'vb cold', 'vb warm', 'ncu all', 'ncu none'))
    for c in clocks:
        print('%-7s %8.0f %8.0f %8.0f %8.0f' % c)
    return 0


if __name__ == '__main__':
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
