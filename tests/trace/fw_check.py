#!/usr/bin/env python3
"""fw_check.py: one row of varbench trace's framework matrix, held against a reference.

usage: fw_check.py NAME DB RUN REF.json [--time-tol PCT] [--overhead OVH.json]
                   [--nvtx-names A,B]

  NAME      the row's name ("PyTorch eager+graph", ...)
  DB RUN    the varbench database and the traced run (a --capture-range run holds the window)
  REF.json  what the reference recorded for the same work: {"kernels": N, "copies": N,
            "memsets": N, "kernel_us": X, "pushes": N, "source": "torch.profiler"}; a key left
            out (or null) is not checked and shows "-"; "pushes" is the NVTX ranges the program
            pushed (varbench must store exactly that many, marks and ranges of other domains
            included when the program counts them)
  --time-tol  the summed kernel time must be within PCT % of the reference's (default 1)
  --overhead  {"untraced": [s...], "traced": [s...], "profiler": [s...], "floor": [s...],
            "limit": X}: the medians' ratio, <= limit, and below the program's own profiler's
            (when given); "floor" is a bare CUPTI tracer's runs recording what varbench records
            (cupti_floor.c): where CUPTI's own records cost more than the limit allows,
            varbench may add at most 3% to them
  --nvtx-names  count only the ranges of these names (XLA pushes ranges of its own)

Prints the header and the row, then PASS or the FAIL lines; exit 0 pass, 1 fail, 2 usage.
Reads the database with Python's sqlite3 (standard library only).
"""
import argparse
import json
import sqlite3
import statistics
import sys

# what varbench may add (its NVTX route, its bookkeeping) to a bare CUPTI tracer recording the
# same kernels, copies, memsets and API calls, where CUPTI's own records cost more than the limit
FLOOR_MARGIN = 1.03


def varbench_counts(db, run, names=None):
    con = sqlite3.connect('file:%s?mode=ro' % db, uri=True)
    cases = [r[0] for r in con.execute('SELECT id FROM cases WHERE run_id = ?', (run,))]
    if not cases:
        raise SystemExit('fw_check: run %d of %s has no case' % (run, db))
    ids = ','.join(str(c) for c in cases)

    def one(q):
        return con.execute(q % ids).fetchone()[0] or 0

    return {
        'kernels': one('SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE case_id IN (%s)'),
        'copies': one('SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE case_id IN (%s)'),
        'memsets': one('SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE case_id IN (%s)'),
        'kernel_us': one('SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL '
                         'WHERE case_id IN (%s)') / 1e3,
        'pushes': one('SELECT count(*) FROM NVTX_EVENTS WHERE case_id IN (%s)' + (
            ' AND textId IN (SELECT id FROM StringIds WHERE value IN (%s))' % ','.join(
                "'%s'" % n.replace("'", "''") for n in names) if names else '')),
        'status': [r[0] for r in con.execute('SELECT status || IFNULL(": " || reason, "") FROM '
                                             'cases WHERE run_id = ?', (run,))],
    }


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument('name')
    ap.add_argument('db')
    ap.add_argument('run', type=int)
    ap.add_argument('ref')
    ap.add_argument('--time-tol', type=float, default=1.0)
    ap.add_argument('--overhead', default=None)
    ap.add_argument('--nvtx-names', default=None,
                    help='count only the NVTX ranges of these names (the program\'s own, beside '
                    'a framework\'s internal ranges)')
    a = ap.parse_args(argv)
    with open(a.ref) as f:
        ref = json.load(f)
    vb = varbench_counts(a.db, a.run, a.nvtx_names.split(',') if a.nvtx_names else None)
    fails = []
    cells = [a.name]
    for key in ('kernels', 'copies', 'memsets', 'pushes'):
        want = ref.get(key)
        if want is None:
            cells.append('%d / -' % vb[key])
            continue
        cells.append('%d / %d' % (vb[key], want))
        if vb[key] != want:
            fails.append('%s: varbench %d, %s %d' % (key, vb[key], ref.get('source', 'reference'),
                                                      want))
    if ref.get('kernel_us'):
        ratio = vb['kernel_us'] / ref['kernel_us']
        cells.append('%.4f' % ratio)
        if abs(ratio - 1) * 100 > a.time_tol:
            fails.append('summed kernel time: varbench %.1f us, %s %.1f us (ratio %.4f, over %g%%)'
                         % (vb['kernel_us'], ref.get('source', 'reference'), ref['kernel_us'],
                            ratio, a.time_tol))
    else:
        cells.append('-')
    if a.overhead:
        with open(a.overhead) as f:
            o = json.load(f)
        u, t = statistics.median(o['untraced']), statistics.median(o['traced'])
        limit = o['limit']
        if o.get('floor'):
            f = statistics.median(o['floor'])
            limit = max(limit, FLOOR_MARGIN * f / u)
            print('a bare CUPTI tracer: %.3fx; the limit: %.3fx (%.2fx, or %.2fx the bare '
                  'tracer\'s)' % (f / u, limit, o['limit'], FLOOR_MARGIN))
        cells.append('%.3fx' % (t / u))
        if t / u > limit:
            fails.append('in-step overhead %.3fx over %.3fx (untraced median %.4f s, traced %.4f s)'
                         % (t / u, limit, u, t))
        if o.get('profiler') and t >= statistics.median(o['profiler']):
            fails.append('in-step overhead %.3fx not below the program\'s own profiler\'s %.3fx'
                         % (t / u, statistics.median(o['profiler']) / u))
    else:
        cells.append('-')
    cells.append(ref.get('source', '-'))
    print('| framework | kernels vb / ref | copies vb / ref | memsets vb / ref | NVTX ranges vb / '
          'pushed | kernel time vb / ref | in-step overhead | reference |')
    print('| ' + ' | '.join(cells) + ' |')
    for s in vb['status']:
        if not s.startswith('ok'):
            fails.append('case: %s' % s)
    for f in fails:
        print('FAIL ' + f)
    if not fails:
        print('PASS')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
