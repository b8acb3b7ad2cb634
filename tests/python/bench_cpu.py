"""bench_cpu.py: a Python benchmark program on the varbench package alone (no framework, no GPU
needed): one problem, out[i] = x_i * x_i / 2 over n elements, with a CPU rung, a CPU rung wrong on
purpose (expect_wrong: verified and stored as wrong, not a failure) and a GPU rung (skipped and
recorded without a device; with one, a CPU loop standing in for work: the test of the path, not
of a GPU). VB_PY_BREAK=1 makes the CPU rung wrong (the regression test's planted fault).

usage: python3 bench_cpu.py run|list [varbench run's options]
"""
import os
import sys

import varbench as vb

fam = vb.Family('pyex', summary='a Python family over the C library')


def ref(p):
    return [0.5 * (i % 97) * (i % 97) for i in range(p['n'])]


sq = fam.problem('half-square', axes={'n': [1000, 4000], 'mode': ['plain', 'twice']},
                 reference=ref, rtol=1e-12, summary='x*x/2, x = i mod 97')


@sq.variant(gpu=False, traffic=lambda p: {'elements': p['n']})
def cpu_loop(state):
    """a Python loop"""
    n, broken = state['n'], os.environ.get('VB_PY_BREAK') == '1'
    state.summary('py_n', n, 'elements')
    torn = []
    state.teardown(lambda: torn.append(1))

    def sample():
        out = [0.5 * (i % 97) * (i % 97) for i in range(n)]
        if broken:
            out[-1] += 1
        return out
    state.exec(sample)


@sq.variant(gpu=False, expect_wrong=True)
def cpu_off_by_one(state):
    """wrong on purpose: the last element missing"""
    n = state['n']
    state.exec(lambda: [0.5 * (i % 97) * (i % 97) for i in range(n - 1)])


@sq.variant(gpu=True, traffic=lambda p: {'gmem_read_bytes': 8 * p['n'],
                                          'gmem_write_bytes': 8 * p['n'], 'elements': p['n']})
def gpu_stand_in(state):
    """needs a device"""
    n = state['n']
    state.exec(lambda: ref({'n': n}))


@sq.variant(gpu=False)
def cpu_skip(state):
    """skips itself at the larger size"""
    if state['n'] > 1000:
        raise vb.Skip('only at n=1000')
    state.exec(lambda: ref({'n': state['n']}))


if __name__ == '__main__':
    sys.exit(vb.main())
