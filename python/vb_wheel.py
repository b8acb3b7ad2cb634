"""vb_wheel: varbench's Python package as a wheel, built with the standard library alone, so that
pip installs it where there is no package index (a GPU machine, a fresh virtual environment):
pyproject.toml names this module its PEP 517 build backend with no build requirements, so

    python3 -m venv env && env/bin/pip install --no-index PREFIX/lib/varbench/python

(or build/python) builds and installs it offline, pip's build isolation and all. By hand,
`python3 vb_wheel.py [OUTDIR]` writes the wheel (to carry to another machine: `pip install
varbench-*.whl`). The wheel holds the folder's varbench/*.py and its libvarbench.so, the library
the package runs on; it is tagged for this platform (linux_x86_64), any Python 3 (ctypes, no
extension module). Workload: one wheel of a few MB a build; nothing here is fast or slow.
"""
import base64
import hashlib
import os
import re
import sys
import sysconfig
import zipfile

NAME = 'varbench'


def _here():
    """the package's folder: this file's, beside pyproject.toml (pip loads the backend from the
    folder it builds, pyproject's backend-path)"""
    return os.path.dirname(os.path.abspath(__file__))


def _read(path):
    with open(path, 'rb') as f:
        return f.read()


def _version(root):
    """[project]'s version in pyproject.toml (read by hand: tomllib is Python 3.11's)"""
    with open(os.path.join(root, 'pyproject.toml'), encoding='utf-8') as f:
        text = f.read()
    m = re.search(r'^\[project\][^\[]*?^version\s*=\s*"([^"]+)"', text, re.M | re.S)
    if not m:
        raise RuntimeError('%s/pyproject.toml: no version in [project]' % root)
    return m.group(1)


def _files(root):
    """(path in the wheel, path here) of the package: its modules and its library"""
    pkg = os.path.join(root, NAME)
    names = sorted(n for n in os.listdir(pkg) if n.endswith('.py') or n == 'libvarbench.so')
    if 'libvarbench.so' not in names:
        raise RuntimeError('%s: no libvarbench.so (build varbench first: the library is made '
                           'beside the modules in build/python/varbench)' % pkg)
    return [('%s/%s' % (NAME, n), os.path.join(pkg, n)) for n in names]


def _tag():
    return 'py3-none-' + re.sub(r'[-.]', '_', sysconfig.get_platform())


def _metadata(version):
    return ('Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: varbench\'s Python '
            'benchmarks: CUDA work from any framework, measured under CUPTI into varbench\'s '
            'database\nRequires-Python: >=3.9\n' % (NAME, version))


def _record_line(arc, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
    return '%s,sha256=%s,%d\n' % (arc, digest, len(data))


def build(outdir, root=None):
    """writes the wheel into outdir (made if missing) and returns its file name. Raises
    RuntimeError when the folder lacks the library or the version, OSError when it cannot
    read or write."""
    root = root or _here()
    version = _version(root)
    tag = _tag()
    info = '%s-%s.dist-info' % (NAME, version)
    name = '%s-%s-%s.whl' % (NAME, version, tag)
    os.makedirs(outdir, exist_ok=True)
    record = ''
    path = os.path.join(outdir, name)
    with zipfile.ZipFile(path + '.part', 'w', zipfile.ZIP_DEFLATED) as z:
        entries = [(arc, _read(src)) for arc, src in _files(root)]
        entries += [
            (info + '/METADATA', _metadata(version).encode()),
            (info + '/WHEEL', ('Wheel-Version: 1.0\nGenerator: vb_wheel\nRoot-Is-Purelib: '
                               'false\nTag: %s\n' % tag).encode()),
            (info + '/top_level.txt', (NAME + '\n').encode()),
        ]
        for arc, data in entries:
            zi = zipfile.ZipInfo(arc, date_time=(1980, 1, 1, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = (0o755 if arc.endswith('.so') else 0o644) << 16
            z.writestr(zi, data)
            record += _record_line(arc, data)
        record += info + '/RECORD,,\n'
        z.writestr(zipfile.ZipInfo(info + '/RECORD', date_time=(1980, 1, 1, 0, 0, 0)), record)
    os.replace(path + '.part', path)
    return name


# PEP 517's hooks: a wheel and nothing needed to build it; no sdist (the library is built by CMake)
def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return build(wheel_directory)


if __name__ == '__main__':
    out = sys.argv[1] if len(sys.argv) > 1 else '.'
    try:
        print(os.path.join(out, build(out)))
    except (RuntimeError, OSError) as e:
        print('vb_wheel: %s' % e, file=sys.stderr)
        sys.exit(1)
