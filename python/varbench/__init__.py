"""varbench: Python benchmarks measured by varbench's C library (libvarbench.so, through ctypes),
into the same SQLite database as `varbench run`, judged by `varbench compare`, `history`,
`report`.

The model is the C API's (include/varbench.h), one to one:
  family   the benchmarks of a program ("mine"): a name, its problems and their variants
  problem  one function computed: axes (lists of ints, floats or strings), an optional CPU
           reference (a callable of the point returning a sequence of numbers) and tolerance
  variant  one way of computing it (a rung): a function of a State that sets the case up and
           hands the timed sample to state.exec(fn)

    import varbench as vb

    fam = vb.Family('mine')
    sqrt = fam.problem('sqrt', axes={'n': [1 << 20, 1 << 24]},
                       reference=lambda p: [math.sqrt(i) for i in range(p['n'])], rtol=1e-6)

    @sqrt.variant(gpu=True, traffic=lambda p: {'gmem_read_bytes': 4 * p['n'],
                                               'gmem_write_bytes': 4 * p['n']})
    def numba_sqrt(state):
        x = cuda.to_device(np.arange(state['n'], dtype=np.float32))
        out = cuda.device_array_like(x)
        def sample():                       # one timed sample: returns when the work is done
            kernel[blocks, 256](x, out)
            return out.copy_to_host()      # the answer (verified once, then discarded)
        state.exec(sample)

    if __name__ == '__main__':
        raise SystemExit(vb.main())         # python bench.py run|list [varbench run's options]

The framework owns the loop, as for C benchmarks: the variant's function runs once a case (its
setup), then one verified sample, warm-ups and timed samples until the median converges, then
the teardowns the function registered. A sample's kernels, copies and memsets are CUPTI's records
of what the callable launched, whichever framework launched them. `main` returns the documented
exit code (0 ok, 1 a failed or wrong case, 2 usage, 3 database, 4 no CUDA device: GPU variants
stored as skipped, ...).
"""
import ctypes
import math
import os
import sys
import traceback

from . import _abi
from . import _compat

_compat.install()  # numba-cuda beside NumPy 2.5: np.row_stack back when Numba is imported

__all__ = ['Family', 'Problem', 'State', 'Skip', 'bench', 'catalog', 'data_uniform',
           'data_uniform_array', 'main', 'library_path']

_lib = None
_lib_path = None


def _load():
    global _lib, _lib_path
    if _lib is None:
        _lib, _lib_path = _abi.load()
    return _lib


def library_path():
    """the libvarbench.so this package runs on (loaded on first use)"""
    _load()
    return _lib_path


class Skip(Exception):
    """raised by a variant's function: the case cannot run here (stored as skipped, the message
    its reason), not failed"""


_NAME_OK = set('abcdefghijklmnopqrstuvwxyz0123456789_-')


def _name(what, name):
    if not isinstance(name, str) or not name or set(name) - _NAME_OK:
        raise ValueError('%s name %r: use [a-z0-9_-], not empty' % (what, name))
    return name


class State:
    """one case of a variant: its axis values (state['n']), and what the variant's function
    registers: the timed sample (exec), a poison, a teardown, summaries"""

    def __init__(self, variant, point):
        self.variant = variant
        self.point = point  # {axis name: value}
        self._sample = None
        self._answer = None
        self._n = 0  # the reference's length: the answer's expected
        self._poison = None
        self._teardown = []

    def __getitem__(self, axis):
        try:
            return self.point[axis]
        except KeyError:
            raise KeyError('axis %r: problem %s has %s' % (
                axis, self.variant.problem.name, ', '.join(self.point) or 'none')) from None

    def exec(self, fn):
        """fn() is one timed sample: it launches the work and returns when it is done (a host
        copy of the answer, or after a synchronize); what it returns is the answer the
        verified sample is checked with (a sequence of numbers, a NumPy, CuPy, Numba or
        PyTorch array) when the problem has a reference"""
        if not callable(fn):
            raise TypeError('state.exec(fn): fn must be callable, not %r' % type(fn).__name__)
        self._sample = fn

    def poison(self, fn):
        """fn() fills the outputs with NaN before the verified sample (an element the sample
        does not write then fails verification)"""
        self._poison = fn

    def teardown(self, fn):
        """fn() runs after the case's last sample (also after a failure), in reverse order"""
        self._teardown.append(fn)

    def summary(self, name, value, unit=None):
        """stores a named number with the case (nvbench's add_summary)"""
        _load().vb_summary(name.encode(), float(value), unit.encode() if unit else None)


_M64 = (1 << 64) - 1


def data_uniform(seed, i, lo, hi):
    """element i of input stream seed, in [lo, hi): varbench.h's vb_data_uniform (splitmix64),
    bit for bit, so that a Python rung of a catalog problem computes on the C rungs' inputs"""
    z = (seed * 0x9E3779B97F4A7C15 + i + 0x632BE59BD9B4E019) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    z ^= z >> 31
    return lo + (hi - lo) * float(z >> 11) * (1.0 / 9007199254740992.0)


def data_uniform_array(seed, n, lo, hi):
    """elements 0..n-1 of data_uniform's stream as a NumPy float64 array (needs NumPy)"""
    import numpy as np
    u = np.uint64
    with np.errstate(over='ignore'):
        z = u(seed) * u(0x9E3779B97F4A7C15) + np.arange(n, dtype=u) + u(0x632BE59BD9B4E019)
        z = (z ^ (z >> u(30))) * u(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> u(27))) * u(0x94D049BB133111EB)
        z ^= z >> u(31)
    return lo + (hi - lo) * (z >> u(11)).astype(np.float64) * (1.0 / 9007199254740992.0)


def _err(err, exc):
    """fills the C error from a Python exception; -1"""
    if isinstance(exc, Skip):
        return _lib.vb_skip(err, b'%s', str(exc).encode(errors='replace')[:1000])
    tb = traceback.extract_tb(exc.__traceback__)
    where = ' [%s:%d]' % (os.path.basename(tb[-1].filename), tb[-1].lineno) if tb else ''
    msg = '%s: %s%s' % (type(exc).__name__, exc, where)
    if _compat.explains(exc):  # numba-cuda beside NumPy 2.5, left alone: say so and the fix
        msg = '%s (%s)%s' % (_compat.message(), exc, where)
    _lib.vb_err_set(err, _abi.CODE['WRONG'], b'%s', msg.encode(errors='replace')[:1000])
    return -1


def _host(x):
    """x on the host: a Numba or CuPy device array copied, a PyTorch tensor moved"""
    for attr in ('copy_to_host', 'get'):  # Numba, CuPy device arrays
        if hasattr(x, attr) and hasattr(x, '__cuda_array_interface__'):
            return getattr(x, attr)()
    if hasattr(x, 'detach') and hasattr(x, 'cpu'):  # a PyTorch tensor
        return x.detach().cpu()
    return x


def _numpy():
    """NumPy when the program has it (never imported by this package on its own)"""
    return sys.modules.get('numpy')


def _flat(x):
    """x on the host as one flat sequence of doubles: a NumPy array when the program has NumPy
    (1e8 elements: a copy, not a list of Python floats), else a list"""
    np = _numpy()
    x = _host(x)
    if np is not None and not isinstance(x, (list, tuple)):
        try:
            return np.ascontiguousarray(np.asarray(x, dtype=np.float64).reshape(-1))
        except (TypeError, ValueError):
            pass
    return _host_doubles(x)


def _to_c(x, out, n):
    """writes the answer x (any of _host_doubles' kinds) into out[0..n) as doubles; an answer
    of another length is NaN throughout (it fails verification, named by its count)"""
    a = _flat(x)
    if len(a) != n:
        for i in range(n):
            out[i] = math.nan
    elif hasattr(a, 'ctypes'):
        ctypes.memmove(out, a.ctypes.data, 8 * n)
    else:
        for i in range(n):
            out[i] = a[i]


def _host_doubles(x):
    """the answer x as a list of floats: a device array is copied to the host first"""
    x = _host(x)
    if hasattr(x, 'tolist') and not isinstance(x, list):
        x = x.tolist()
    if isinstance(x, (int, float)):
        return [float(x)]
    out = []

    def flat(v):
        for e in v:
            if isinstance(e, (list, tuple)):
                flat(e)
            else:
                out.append(float(e))
    flat(x)
    return out


class Problem:
    """one function computed: see Family.problem"""

    def __init__(self, family, name, axes, reference, atol, rtol, summary):
        self.family = family
        self.name = _name('problem', name)
        self.summary = summary or name
        if not axes or len(axes) > _abi.MAX_AXES:
            raise ValueError('problem %s: 1 to %d axes, not %d' % (name, _abi.MAX_AXES,
                                                                   len(axes or ())))
        self.axes = {}
        for a, values in axes.items():
            values = list(values) if isinstance(values, (list, tuple, range)) else [values]
            if not values or len(values) > _abi.MAX_AXIS_VALUES:
                raise ValueError('problem %s axis %s: 1 to %d values' % (name, a,
                                                                         _abi.MAX_AXIS_VALUES))
            self.axes[_name('axis', a)] = values
        self.reference = reference
        self.atol, self.rtol = float(atol), float(rtol)
        self.variants = []
        self._refs = {}

    def variant(self, name=None, gpu=True, traffic=None, summary=None, expect_wrong=False,
                resident=False):
        """decorator: fn(state) is a variant (a rung) of this problem, named after fn unless
        name is given. gpu: needs a CUDA device (skipped, recorded, without one); False: a CPU
        rung. traffic(point) -> dict of what one sample moves and computes: h2d_bytes,
        d2h_bytes, h2d_count, d2h_count, gmem_read_bytes, gmem_write_bytes, elements, flops
        (the floor and the rates come from it). resident: the sample's answer stays on the
        device (its sample returns a device array, copied to the host outside every sample
        for the verification; varbench.h's VB_RESIDENT)."""
        def register(fn):
            v = _Variant(self, _name('variant', name or fn.__name__.replace('_', '-')), fn, gpu,
                         traffic, summary or (fn.__doc__ or '').strip().split('\n')[0],
                         expect_wrong, resident)
            if any(x.name == v.name for p in self.family.problems for x in p.variants):
                raise ValueError('variant %s: twice in family %s' % (v.name, self.family.name))
            self.variants.append(v)
            return fn
        return register

    def _kind(self, values):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return _abi.AXIS_INT
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            return _abi.AXIS_FLOAT
        if all(isinstance(v, str) for v in values):
            return None  # a string axis
        raise ValueError('problem %s: an axis mixes kinds (%r): ints, floats or strings'
                         % (self.name, values))

    def _kinds(self):
        """[(axis, kind)]: _abi.AXIS_INT, AXIS_FLOAT, or None (a string axis)"""
        return [(a, self._kind(values)) for a, values in self.axes.items()]

    def _point(self, p):
        """{axis: value} of a C point"""
        out = {}
        for a, k in self._kinds():
            n = a.encode()
            out[a] = (_lib.vb_axis_int(p, n) if k == _abi.AXIS_INT else
                      _lib.vb_axis_float(p, n) if k == _abi.AXIS_FLOAT else
                      _lib.vb_axis_string(p, n).decode())
        return out

    def _out_len(self, p):
        """the answer's length at C point p (0: no reference, not verified)"""
        return len(self._ref(p)) if self.reference else 0

    def _ref(self, p):
        key = tuple(sorted(self._point(p).items()))
        if key not in self._refs:
            self._refs.clear()  # one point's answer at a time: the cases run point by point
            self._refs[key] = _flat(self.reference(dict(key)))
        return self._refs[key]


class _Variant:
    def __init__(self, problem, name, fn, gpu, traffic, summary, expect_wrong, resident):
        self.problem, self.name, self.fn, self.gpu = problem, name, fn, gpu
        self.traffic, self.summary, self.expect_wrong = traffic, summary or name, expect_wrong
        self.resident = resident


class Family:
    """a program's benchmarks: Family('mine', summary=...), its problems made with
    .problem(...), their variants with @problem.variant(...)"""

    def __init__(self, name, summary=None, seed=None):
        self.name = _name('family', name)
        self.summary = summary or name
        self.seed = seed
        self.problems = []
        _families.append(self)

    def problem(self, name, axes, reference=None, atol=0.0, rtol=0.0, summary=None):
        """a problem of this family: axes {name: [values]} (ints, floats or strings; one list
        an axis), reference(point) -> the answer as numbers (optional: without it the cases are
        timed, not verified), |got - ref| <= atol + rtol * |ref| for every element"""
        p = Problem(self, name, axes, reference, atol, rtol, summary)
        if any(x.name == p.name for x in self.problems):
            raise ValueError('problem %s: twice in family %s' % (name, self.name))
        self.problems.append(p)
        return p


class _CatalogProblem(Problem):
    """a problem of a catalog family: its axes, reference and tolerance are the C problem's
    (self.c); Python rungs added with .variant are verified against that reference"""

    def __init__(self, family, c):
        self.family, self.c = family, c
        self.name = c.contents.name.decode()
        self.summary = (c.contents.summary or b'').decode()
        self.reference = None  # the C problem's own, called by the framework
        self.variants = []
        self._refs = {}

    def _kinds(self):
        out = []
        for i in range(self.c.contents.naxes):
            ax = self.c.contents.axes[i]
            out.append((ax.name.decode(), None if ax.labels else
                        _abi.AXIS_FLOAT if ax.kind == _abi.AXIS_FLOAT else _abi.AXIS_INT))
        return out

    def _out_len(self, p):
        c = self.c.contents
        return c.out_len(p) if c.reference and c.out_len else 0


class _CatalogFamily(Family):
    """see catalog()"""

    def __init__(self, c):
        self.c = c
        f = c.contents
        self.name = f.name.decode()
        self.summary = (f.summary or b'').decode()
        self.seed = f.seed.decode() if f.seed else None
        self.problems = []
        for i in range(f.nvariants):
            pb = f.variants[i].problem
            if not any(ctypes.addressof(x.c.contents) == ctypes.addressof(pb.contents)
                       for x in self.problems):
                self.problems.append(_CatalogProblem(self, pb))
        _families.append(self)

    def problem(self, name, *args, **kwargs):
        """the catalog problem called name (its axes, reference and tolerance are varbench's)"""
        if args or kwargs:
            raise TypeError('catalog family %s: its problems are varbench\'s; problem(name) '
                            'takes no axes, reference or tolerance' % self.name)
        for p in self.problems:
            if p.name == name:
                return p
        raise KeyError('catalog family %s has no problem %r (it has %s)' % (
            self.name, name, ', '.join(p.name for p in self.problems)))


def catalog(name):
    """varbench's own catalog family `name` (mesh, gufunc, calx, ufunc, saxpy: `varbench list`),
    to add Python rungs to its problems: `fam = vb.catalog('mesh')`, then
    `@fam.problem('mesh').variant(...)`. Its C rungs run as in `varbench run`; a Python rung
    computes the same problem (its axes, its CPU reference, its tolerance), so it is verified
    as they are and stands in the same ladder in the report."""
    lib = _load()
    for f in _families:
        if isinstance(f, _CatalogFamily) and f.name == name:
            return f
    first = ctypes.addressof(ctypes.c_void_p.in_dll(lib, 'vb_catalog'))
    arr = ctypes.cast(first, ctypes.POINTER(ctypes.POINTER(_abi.Family)))
    names, i = [], 0
    while arr[i]:
        if arr[i].contents.name.decode() == name:
            return _CatalogFamily(arr[i])
        names.append(arr[i].contents.name.decode())
        i += 1
    raise KeyError('no catalog family %r (the catalog: %s)' % (name, ', '.join(names)))


_families = []
_states = {}  # handle -> State of the cases set up
_keep = []    # what C points at: kept alive for the process


PYTAG = 1 << 20  # a Python rung's tag in a catalog family: above every C rung's


def _c_catalog_family(fam):
    """fam's C family with its Python rungs after its C ones: the C rungs' run and traffic are
    theirs, the hooks go to the C family's for a C rung's case (a Python case is known by its
    handle) and to Python's for a Python rung's"""
    cf = fam.c.contents
    pyvars = [(p, v) for p in fam.problems for v in p.variants]
    n = cf.nvariants
    arr = (_abi.Variant * (n + len(pyvars)))()
    for i in range(n):
        ctypes.memmove(ctypes.byref(arr[i]), ctypes.byref(cf.variants[i]),
                       ctypes.sizeof(_abi.Variant))
    for k, (p, v) in enumerate(pyvars):
        _fill_variant(arr[n + k], p, v, PYTAG + k, p.c)
    c_ops = cf.ops.contents

    def setup(tag, pt, st, err):
        if tag >= PYTAG:
            return _setup(pyvars, tag - PYTAG, pt, st, err)
        if not c_ops.setup:
            st[0] = None
            return 0
        return c_ops.setup(tag, pt, st, err)

    def poison(h, err):
        if h in _states:
            return _poison(h, err)
        return c_ops.poison(h, err) if c_ops.poison else 0

    def fetch(h, out):
        if h in _states:
            _fetch(h, out)
        elif c_ops.fetch:
            c_ops.fetch(h, out)

    def teardown(h):
        if h in _states:
            _teardown(h)
        elif c_ops.teardown:
            c_ops.teardown(h)

    ops = _abi.VariantOps(setup=_abi.SETUP(setup), poison=_abi.POISON(poison),
                          fetch=_abi.FETCH(fetch), teardown=_abi.TEARDOWN(teardown))
    out = _abi.Family(name=cf.name, summary=cf.summary, seed=cf.seed, ops=ctypes.pointer(ops),
                      variants=arr, nvariants=len(arr))
    _keep.extend([arr, ops, ops.setup, ops.poison, ops.fetch, ops.teardown, out])
    return out


def _fill_variant(c, p, v, tag, cproblem):
    """the C row of Python rung v of problem p"""
    c.name = v.name.encode()
    c.summary = v.summary.encode()
    c.flags = ((_abi.GPU if v.gpu else 0) | (_abi.EXPECT_WRONG if v.expect_wrong else 0) |
               (_abi.RESIDENT if v.resident else 0))
    c.tag = tag
    c.run = _abi.RUN(_run)
    if v.traffic:
        c.traffic = _abi.TRAFFIC(lambda pt, t, p=p, v=v: _traffic(p, v, pt, t))
    c.problem = cproblem
    _keep.extend([c.run, c.traffic, c.problem])


def _c_family(fam):
    """the C structs of fam (kept alive in _keep)"""
    if isinstance(fam, _CatalogFamily):
        return _c_catalog_family(fam)
    variants = [(p, v) for p in fam.problems for v in p.variants]
    if not variants:
        raise ValueError('family %s has no variant' % fam.name)
    cprobs = {}
    for p in fam.problems:
        axes = (_abi.Axis * len(p.axes))()
        for i, (a, values) in enumerate(p.axes.items()):
            ax = axes[i]
            ax.name = a.encode()
            ax.doc = a.encode()
            kind = p._kind(values)
            if kind == _abi.AXIS_FLOAT:
                ax.kind = _abi.AXIS_FLOAT
                for j, v in enumerate(values):
                    ax.fdefaults[j] = float(v)
            elif kind == _abi.AXIS_INT:
                for j, v in enumerate(values):
                    if v < 0:
                        raise ValueError('problem %s axis %s: %d < 0' % (p.name, a, v))
                    ax.defaults[j] = v
            else:
                labels = (ctypes.c_char_p * len(values))(*(v.encode() for v in values))
                _keep.append(labels)
                ax.labels = labels
                ax.max = len(values) - 1
                for j in range(len(values)):
                    ax.defaults[j] = j
            ax.ndefaults = len(values)
        cp = _abi.Problem(name=p.name.encode(), summary=p.summary.encode(), axes=axes,
                          naxes=len(p.axes), atol=p.atol, rtol=p.rtol)
        if p.reference:
            cp.out_len = _abi.OUT_LEN(_guard(p._out_len, 0))
            cp.reference = _abi.REFERENCE_FN(lambda pt, out, err, p=p: _reference(p, pt, out, err))
        _keep.extend([axes, cp, cp.out_len, cp.reference])
        cprobs[p.name] = cp
    arr = (_abi.Variant * len(variants))()
    for i, (p, v) in enumerate(variants):
        _fill_variant(arr[i], p, v, i, ctypes.pointer(cprobs[p.name]))
    ops = _abi.VariantOps(setup=_abi.SETUP(lambda tag, pt, st, err: _setup(variants, tag, pt, st,
                                                                            err)),
                          poison=_abi.POISON(_poison), fetch=_abi.FETCH(_fetch),
                          teardown=_abi.TEARDOWN(_teardown))
    cf = _abi.Family(name=fam.name.encode(), summary=fam.summary.encode(),
                     seed=fam.seed.encode() if fam.seed else None, ops=ctypes.pointer(ops),
                     variants=arr, nvariants=len(variants))
    _keep.extend([arr, ops, ops.setup, ops.poison, ops.fetch, ops.teardown, cf])
    return cf


def _guard(fn, bad):
    """fn for C: an exception is printed and bad returned (C cannot take it)"""
    def call(*a):
        try:
            return fn(*a)
        except Exception:
            traceback.print_exc()
            return bad
    return call


def _reference(p, pt, out, err):
    try:
        ref = p._ref(pt)
        _to_c(ref, out, len(ref))
        return 0
    except Exception as e:
        return _err(err, e)


def _traffic(p, v, pt, t):
    try:
        d = v.traffic(p._point(pt)) or {}
        for k, x in d.items():
            if not hasattr(t.contents, k):
                raise KeyError('traffic of %s: no field %r (h2d_bytes, d2h_bytes, h2d_count, '
                               'd2h_count, mapped_in_bytes, mapped_out_bytes, gmem_read_bytes, '
                               'gmem_write_bytes, elements, flops)' % (v.name, k))
            setattr(t.contents, k, type(getattr(t.contents, k))(x))
    except Exception:
        traceback.print_exc()


def _setup(variants, tag, pt, st, err):
    try:
        p, v = variants[tag]
        s = State(v, p._point(pt))
        handle = max(_states, default=0) + 1
        _states[handle] = s
        st[0] = handle
        s._n = p._out_len(pt)
        v.fn(s)
        if s._sample is None:
            raise RuntimeError('variant %s: its function did not call state.exec(fn)' % v.name)
        return 0
    except Exception as e:
        return _err(err, e)


def _state(handle):
    return _states[handle]


def _run(handle, err):
    try:
        s = _state(handle)
        s._answer = s._sample()
        return 0
    except Exception as e:
        return _err(err, e)


def _poison(handle, err):
    try:
        s = _state(handle)
        s._answer = None
        if s._poison:
            s._poison()
        return 0
    except Exception as e:
        return _err(err, e)


def _fetch(handle, out):
    s = _states.get(handle)
    n = s._n if s else 0
    try:  # an answer of another length fails verification (NaN where missing)
        _to_c(s._answer if s is not None and s._answer is not None else [], out, n)
    except Exception:
        traceback.print_exc()
        for i in range(n):
            out[i] = math.nan


def _teardown(handle):
    s = _states.pop(handle, None)
    for fn in reversed(s._teardown if s else []):
        try:
            fn()
        except Exception:
            traceback.print_exc()


def bench(fn, name='bench', db='varbench.db', gpu=True, traffic=None, reference=None,
          rtol=0.0, atol=0.0, args=()):
    """one callable measured at once (Triton's do_bench, with varbench's sampling, phases and
    database): fn() is one sample, returning when its work is done (and, with a reference, the
    answer, checked against reference() within atol + rtol |ref|). Stored in db as the case
    bench/NAME (a family of its own, one problem of one point); args: more of `run`'s options
    (--quick, --precision 1, ...). Returns (exit code, the case's row from the database as a
    dict: status, samples, e2e_median_ns, kernel_median_ns, h2d_median_ns, d2h_median_ns,
    max_abs_err; None when the run stored none). The C library promises one vb_main a
    process: a second bench() in one process has run on the CPU, not yet on a GPU."""
    import sqlite3
    fam = Family('bench', summary='varbench.bench')
    pb = fam.problem('once', axes={'point': [0]},
                     reference=(lambda p: reference()) if reference else None, rtol=rtol,
                     atol=atol)
    pb.variant(name=name, gpu=gpu, traffic=(lambda p: traffic) if traffic else None)(
        lambda state: state.exec(fn))
    _families.remove(fam)  # run alone, not with the program's other families
    rc = main(['bench', 'run', '--db', db, '--filter', 'bench/' + name] + list(args),
              families=[fam])
    try:
        con = sqlite3.connect('file:%s?mode=ro' % db, uri=True)
        con.row_factory = sqlite3.Row
        row = con.execute(
            "SELECT c.status, c.samples, c.e2e_median_ns, c.kernel_median_ns, c.h2d_median_ns, "
            "c.d2h_median_ns, c.max_abs_err FROM cases c JOIN variants v ON v.id = c.variant_id "
            "WHERE v.family = 'bench' AND v.name = ? ORDER BY c.id DESC LIMIT 1",
            (name,)).fetchone()
        return rc, dict(row) if row else None
    except sqlite3.Error:
        return rc, None


def main(argv=None, families=None):
    """the program's main: `list`, `run [varbench run's options]`, `--help`, over families
    (default: every Family made in this process). Returns the exit code (see the module doc)."""
    lib = _load()
    fams = families if families is not None else _families
    argv = list(sys.argv if argv is None else argv)
    prog = os.path.basename(argv[0] if argv else 'bench')
    if any(a == '--device=all' or (a == '--device' and argv[i + 1:i + 2] == ['all'])
           for i, a in enumerate(argv)):
        # a --device all run starts a worker a device by re-executing the process's own binary,
        # which here is the Python interpreter, not this program
        print('%s run: --device all is for compiled benchmark programs; from Python, run one '
              'process a device (--device 0, --device 1, ... into one --db) or merge their '
              'databases' % prog, file=sys.stderr)
        return _abi.CODE['USAGE']
    try:
        cfs = [_c_family(f) for f in fams]
    except ValueError as e:
        print('%s: %s' % (prog, e), file=sys.stderr)
        return _abi.CODE['USAGE']
    arr = (ctypes.POINTER(_abi.Family) * (len(cfs) + 1))(*(ctypes.pointer(f) for f in cfs), None)
    cargv = (ctypes.c_char_p * (len(argv) + 1))(*(a.encode() for a in argv), None)
    _keep.extend([arr, cargv])
    sys.stdout.flush()
    sys.stderr.flush()
    return lib.vb_main(len(argv), cargv, arr)
