"""_abi: libvarbench.so through ctypes: the library found and loaded, the public structs of
include/varbench.h mirrored, and the mirrors checked against the layout the library was compiled
with (vb_py_abi, python/abi.c), so that a header change without this file's fails at import,
naming the field, instead of corrupting memory.

The library is looked up in this order: $VARBENCH_LIB (a path), beside this file (the staged or
installed package: build/python/varbench/libvarbench.so), the dynamic linker's search path.
"""
import ctypes
import ctypes.util
import os

MAX_AXES = 8
MAX_AXIS_VALUES = 32

# enum vb_code: the exit codes of include/varbench.h's VB_ERRORS table, in its order
CODES = ('OK', 'WRONG', 'USAGE', 'DB', 'NODEV', 'CUDA', 'SYS', 'INCONCLUSIVE', 'INTERRUPTED')
CODE = {name: i for i, name in enumerate(CODES)}

# enum vb_variant_flags
GPU, REFERENCE, EXPECT_WRONG, RESIDENT, LIBRARY, GRAPH = (1 << i for i in range(6))
AXIS_INT, AXIS_FLOAT = 0, 1


class Err(ctypes.Structure):
    _fields_ = [('code', ctypes.c_int), ('msg', ctypes.c_char * 1024),
                ('hint', ctypes.c_char * 512)]


class Axis(ctypes.Structure):
    _fields_ = [('name', ctypes.c_char_p), ('doc', ctypes.c_char_p),
                ('defaults', ctypes.c_long * MAX_AXIS_VALUES), ('ndefaults', ctypes.c_int),
                ('min', ctypes.c_long), ('max', ctypes.c_long),
                ('labels', ctypes.POINTER(ctypes.c_char_p)), ('same_as', ctypes.c_char_p),
                ('spec', ctypes.c_char_p), ('kind', ctypes.c_int),
                ('fdefaults', ctypes.c_double * MAX_AXIS_VALUES), ('fmin', ctypes.c_double),
                ('fmax', ctypes.c_double)]


class Point(ctypes.Structure):
    _fields_ = [('v', ctypes.c_long * MAX_AXES), ('problem', ctypes.c_void_p)]


class Traffic(ctypes.Structure):
    _fields_ = [('h2d_bytes', ctypes.c_uint64), ('d2h_bytes', ctypes.c_uint64),
                ('h2d_count', ctypes.c_int), ('d2h_count', ctypes.c_int),
                ('mapped_in_bytes', ctypes.c_uint64), ('mapped_out_bytes', ctypes.c_uint64),
                ('gmem_read_bytes', ctypes.c_uint64), ('gmem_write_bytes', ctypes.c_uint64),
                ('elements', ctypes.c_double), ('flops', ctypes.c_double)]


PointP = ctypes.POINTER(Point)
ErrP = ctypes.POINTER(Err)
DoubleP = ctypes.POINTER(ctypes.c_double)
# the hooks' prototypes
OUT_LEN = ctypes.CFUNCTYPE(ctypes.c_size_t, PointP)
REFERENCE_FN = ctypes.CFUNCTYPE(ctypes.c_int, PointP, DoubleP, ErrP)
KERNEL_BYTES = ctypes.CFUNCTYPE(ctypes.c_uint64, PointP)
REFERENCE_PART = ctypes.CFUNCTYPE(None, PointP, DoubleP, ctypes.c_size_t, ctypes.c_size_t)
SETUP = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, PointP, ctypes.POINTER(ctypes.c_void_p),
                         ErrP)
POISON = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ErrP)
FETCH = ctypes.CFUNCTYPE(None, ctypes.c_void_p, DoubleP)
TEARDOWN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
RUN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ErrP)
TRAFFIC = ctypes.CFUNCTYPE(None, PointP, ctypes.POINTER(Traffic))


class Problem(ctypes.Structure):
    _fields_ = [('name', ctypes.c_char_p), ('summary', ctypes.c_char_p),
                ('axes', ctypes.POINTER(Axis)), ('naxes', ctypes.c_int), ('out_len', OUT_LEN),
                ('reference', REFERENCE_FN), ('atol', ctypes.c_double), ('rtol', ctypes.c_double),
                ('kernel_bytes', KERNEL_BYTES), ('reference_part', REFERENCE_PART)]


class VariantOps(ctypes.Structure):
    _fields_ = [('setup', SETUP), ('poison', POISON), ('fetch', FETCH), ('teardown', TEARDOWN)]


class Variant(ctypes.Structure):
    _fields_ = [('name', ctypes.c_char_p), ('summary', ctypes.c_char_p), ('flags', ctypes.c_uint),
                ('tag', ctypes.c_int), ('run', RUN), ('traffic', TRAFFIC),
                ('problem', ctypes.POINTER(Problem))]


class Family(ctypes.Structure):
    _fields_ = [('name', ctypes.c_char_p), ('summary', ctypes.c_char_p), ('seed', ctypes.c_char_p),
                ('ops', ctypes.POINTER(VariantOps)), ('variants', ctypes.POINTER(Variant)),
                ('nvariants', ctypes.c_int)]


# C's struct names of the mirrors
STRUCTS = {'vb_err': Err, 'vb_axis': Axis, 'vb_point': Point, 'vb_traffic': Traffic,
           'vb_problem': Problem, 'vb_variant_ops': VariantOps, 'vb_variant': Variant,
           'vb_family': Family}


class LibraryError(ImportError):
    """libvarbench.so missing, or built with other struct layouts than this package mirrors"""


def _find():
    env = os.environ.get('VARBENCH_LIB')
    if env:
        if not os.path.exists(env):
            raise LibraryError('VARBENCH_LIB=%s: no such file; point it at a libvarbench.so '
                               '(build/python/varbench/libvarbench.so after cmake --build)' % env)
        return env
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'libvarbench.so')
    if os.path.exists(here):
        return here
    found = ctypes.util.find_library('varbench')
    if found:
        return found
    raise LibraryError('libvarbench.so not found beside %s nor on the linker\'s path: build '
                       'varbench (cmake --build build) and use build/python (PYTHONPATH=build/python '
                       'or pip install build/python), or set VARBENCH_LIB' % os.path.dirname(here))


def _check(lib, path):
    """every mirror's size and field offsets against the library's own (vb_py_abi)"""
    abi = lib.vb_py_abi
    abi.restype = ctypes.c_long
    abi.argtypes = [ctypes.c_char_p]
    for cname, cls in STRUCTS.items():
        want = abi(cname.encode())
        if want != ctypes.sizeof(cls):
            raise LibraryError('%s: struct %s is %d bytes there, %d in varbench/_abi.py: the package '
                               'and the library are of different versions; use the package '
                               'staged beside the library (build/python)'
                               % (path, cname, want, ctypes.sizeof(cls)))
        for field, _ in cls._fields_:
            off = abi(('%s.%s' % (cname, field)).encode())
            if off != getattr(cls, field).offset:
                raise LibraryError('%s: %s.%s at offset %d there, %d in varbench/_abi.py: the '
                                   'package and the library are of different versions'
                                   % (path, cname, field, off, getattr(cls, field).offset))


def load():
    """libvarbench.so, loaded, checked and its functions typed. Raises LibraryError."""
    path = _find()
    try:
        lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    except OSError as e:
        raise LibraryError('%s: %s' % (path, e)) from None
    try:
        _check(lib, path)
    except AttributeError:
        raise LibraryError('%s: no vb_py_abi: not the library of the Python package (the one '
                           'built as build/python/varbench/libvarbench.so)' % path) from None
    lib.vb_main.restype = ctypes.c_int
    lib.vb_main.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p),
                            ctypes.POINTER(ctypes.POINTER(Family))]
    lib.vb_axis_int.restype = ctypes.c_long
    lib.vb_axis_int.argtypes = [PointP, ctypes.c_char_p]
    lib.vb_axis_float.restype = ctypes.c_double
    lib.vb_axis_float.argtypes = [PointP, ctypes.c_char_p]
    lib.vb_axis_string.restype = ctypes.c_char_p
    lib.vb_axis_string.argtypes = [PointP, ctypes.c_char_p]
    lib.vb_summary.restype = None
    lib.vb_summary.argtypes = [ctypes.c_char_p, ctypes.c_double, ctypes.c_char_p]
    lib.vb_err_set.restype = ctypes.c_int
    lib.vb_err_set.argtypes = [ErrP, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p]
    lib.vb_skip.restype = ctypes.c_int
    lib.vb_skip.argtypes = [ErrP, ctypes.c_char_p, ctypes.c_char_p]
    lib.vb_err_hint.restype = ctypes.c_int
    lib.vb_err_hint.argtypes = [ErrP, ctypes.c_char_p, ctypes.c_char_p]
    return lib, path
