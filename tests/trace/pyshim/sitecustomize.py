"""sitecustomize for the trace step on the GPU machines: the image there pairs numba-cuda with
NumPy 2.5, which removed np.row_stack (an alias of np.vstack) that numba-cuda still registers
at import, so `import numba.cuda` fails before any program runs. Restoring the alias lets the
unmodified test programs import Numba; nothing else is touched. Only tests/trace/device.sh puts
this folder on PYTHONPATH."""
try:
    import numpy

    if not hasattr(numpy, "row_stack"):
        numpy.row_stack = numpy.vstack
except ImportError:
    pass
