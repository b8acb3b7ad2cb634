"""all_seeds.py: the five seeds' Python rungs in one run, beside the whole CUDA C catalog.

Imports python/seeds/{gufunc,mesh,ufunc,calx}_numba.py and saxpy_cuda_python.py, which add
their rungs to varbench's own families, and runs them as one program: one run holds every
family's C rungs and the seeds' Numba and CUDA Python rungs, so one report (`varbench report`)
shows each ladder with both. `run --filter` narrows it as for `varbench run`. Run:
  PYTHONPATH=build/python python3 python/seeds/all_seeds.py run [varbench run's options]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import varbench as vb  # noqa: E402  (first, before any Numba: varbench/_compat.py)
import gufunc_numba  # noqa: E402,F401  (each import adds its rungs)
import mesh_numba  # noqa: E402,F401
import ufunc_numba  # noqa: E402,F401
import calx_numba  # noqa: E402,F401
import saxpy_cuda_python  # noqa: E402,F401

if __name__ == '__main__':
    sys.exit(vb.main())
