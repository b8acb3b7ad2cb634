"""_compat: numba-cuda beside NumPy 2.5, made to import. NumPy 2.5 removed np.row_stack (an alias
of np.vstack, deprecated since 2.0); numba-cuda, in maintenance mode, still registers an overload
of it when its arrayobj module loads, so `import numba.cuda` fails with "module 'numpy' has no
attribute 'row_stack'" before any kernel is compiled. When that pair is installed, this module
gives NumPy the alias back the first time the process imports Numba, and says so in one line on
stderr naming both versions; with any other pair it does nothing. It imports NumPy only then,
when Numba is being imported (Numba imports it anyway), never for a program without Numba.

VARBENCH_NUMPY_COMPAT=0 leaves NumPy alone: a Numba rung that imports numba.cuda then fails its
case with one message naming the two versions and the fix (message(), which the package puts in
place of NumPy's AttributeError). A program that imports Numba before varbench meets NumPy's
bare error at that line, before varbench can act: import varbench first.
"""
import importlib.util
import os
import sys

# the import names through which a program reaches numba-cuda's modules
_TRIGGERS = ('numba', 'numba_cuda')
FIX = "pip install 'numpy<2.5', or a numba-cuda that supports NumPy 2.5"


def _version(dist, module=None):
    """dist's installed version (its metadata), else module's __version__, else '?'"""
    try:
        import importlib.metadata as md
        return md.version(dist)
    except Exception:  # no metadata (a source tree on the path), or Python < 3.8
        return getattr(module, '__version__', '?') if module is not None else '?'


def _numba_cuda_scan():
    """(refers, guarded) of the installed numba-cuda: whether a source file of its package names
    np.row_stack outside a comment, and whether one bounds it below NumPy 2.5 (the guard
    `numpy_version < (2, 5)` of numba's own fix). Reads the files; imports nothing."""
    spec = importlib.util.find_spec('numba_cuda')
    roots = list(spec.submodule_search_locations or []) if spec else []
    refers = guarded = False
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d != 'tests']  # its test suite: not what is imported
            for f in files:
                if not f.endswith('.py'):
                    continue
                try:
                    with open(os.path.join(folder, f), encoding='utf-8', errors='replace') as h:
                        text = h.read()
                except OSError:
                    continue
                if 'row_stack' not in text:
                    continue
                refers = refers or any('np.row_stack' in line.split('#')[0]
                                       for line in text.splitlines())
                guarded = guarded or '< (2, 5)' in text
    return refers, guarded


def explains(exc):
    """whether exc is NumPy's missing np.row_stack met by an installed numba-cuda"""
    try:
        return (isinstance(exc, AttributeError) and 'row_stack' in str(exc)
                and importlib.util.find_spec('numba_cuda') is not None)
    except Exception:
        return False


def message(np=None):
    """the pair's one-line explanation and its fix, naming both versions"""
    np = np or sys.modules.get('numpy')
    return ('numba-cuda %s registers np.row_stack, which NumPy %s removed, so numba.cuda cannot '
            'be imported; fix: %s' % (_version('numba-cuda', sys.modules.get('numba_cuda')),
                                      _version('numpy', np), FIX))


def apply():
    """NumPy's np.row_stack restored as np.vstack when numba-cuda refers to it and NumPy lacks
    it, with one line on stderr; otherwise nothing. Returns 1 when it restored the alias. Safe to
    call more than once; never raises (a failed check leaves NumPy as it was)."""
    if os.environ.get('VARBENCH_NUMPY_COMPAT') == '0':
        return 0
    try:
        if importlib.util.find_spec('numba_cuda') is None:
            return 0
        import numpy as np
        if hasattr(np, 'row_stack'):
            return 0
        refers, guarded = _numba_cuda_scan()
        if guarded:  # it asks for the alias only where NumPy has it
            return 0
        # the alias back whenever nothing bounds it, said where the scan found the use (a
        # package laid out otherwise than the scan reads still imports)
        np.row_stack = np.vstack
        if refers:
            print('varbench: numba-cuda %s registers np.row_stack, which NumPy %s removed: '
                  'np.row_stack set to np.vstack for this process; to drop this: %s'
                  % (_version('numba-cuda', sys.modules.get('numba_cuda')), _version('numpy', np),
                     FIX), file=sys.stderr)
        return 1
    except Exception:
        return 0


class _OnNumba:
    """a meta path finder that finds nothing: at the process's first import of Numba it runs
    apply(), before Numba's modules execute, and takes itself off sys.meta_path"""

    def find_spec(self, name, path=None, target=None):
        if name in _TRIGGERS:
            uninstall()
            apply()
        return None


_finder = _OnNumba()


def install():
    """apply() now when Numba is already imported, else at its first import"""
    if any(t in sys.modules for t in _TRIGGERS):
        apply()
    elif _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


def uninstall():
    """takes the finder off sys.meta_path (apply() has run, or is not wanted)"""
    while _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
