"""mesh_numba.py: seed 001's own Python programs as rungs of varbench's mesh ladder.

The seed (variants/seeds/001_*.txt) asks whether to build the lat/lon mesh on the host or the
device; varbench answers with CUDA C rungs (`varbench list -f 'mesh/*'`). These are the seed's
Numba code, measured on the same problem (the catalog's mesh: its axes nx = ny, its CPU
reference, its tolerance) in the same run, so that the report's ladder shows them beside the C
rungs:
  numba-t38    t38.py: @vectorize(target='cuda') over four host arrays (the mesh built on the
               host with NumPy, the two constant arrays too), atan2 on the host
  numba-t39    t39.py: the constants as broadcast scalars, atan2 and the scale in the ufunc
  numba-t40    t40.py: the mesh computed on the device by a @cuda.jit kernel, one copy back
  python-loop  the formula in plain Python, one point at a time (a CPU rung, no NumPy: the
               package's test without a GPU, at small sizes)
The Numba rungs need numba-cuda and NumPy (skipped, with the reason, without them). Run:
  PYTHONPATH=build/python python3 python/seeds/mesh_numba.py run [varbench run's options]
"""
import math
import sys

import varbench as vb  # first: it lets numba-cuda import beside NumPy 2.5 (varbench/_compat.py)

mesh = vb.catalog('mesh').problem('mesh')
LAT2, LON2, S = 30.0, 101.0, 1.0  # kernels/mesh_math.h's VB_MESH_LAT2, _LON2, _S
XB, XE, YB, YE = 29.0, 31.0, 99.0, 101.0


def coord(b, e, i, n):
    return (e - b) * i / (n - 1) + b if n > 1 else b


def formula(lat1, lon1, lat2, lon2, s):
    s1 = math.sin(0.008726645 * (lat2 - lat1))
    s2 = math.sin(0.008726645 * (lon2 - lon1))
    a = s1 * s1 + math.cos(0.01745329 * lat1) * math.cos(0.01745329 * lat2) * (s2 * s2)
    return math.atan2(a, 1.0 - a) * s


def doubles(p):
    return 8 * p['nx'] * p['ny']


@mesh.variant(gpu=False, traffic=lambda p: {'elements': p['nx'] * p['ny']})
def python_loop(state):
    """the formula in plain Python, point by point"""
    nx, ny = state['nx'], state['ny']
    if nx * ny > 250000:
        raise vb.Skip('plain Python: at most 250,000 points (this is %d)' % (nx * ny))

    def sample():
        return [formula(coord(XB, XE, x, nx), coord(YB, YE, y, ny), LAT2, LON2, S)
                for y in range(ny) for x in range(nx)]
    state.exec(sample)


def numba():
    """numba.cuda and NumPy, or vb.Skip saying which is missing"""
    try:
        import numpy as np
        from numba import cuda, float64, vectorize
    except ImportError as e:
        raise vb.Skip('needs numba-cuda and NumPy: %s' % e) from None
    return np, cuda, vectorize, float64


def host_mesh(np, nx, ny):
    xv, yv = np.meshgrid(np.linspace(XB, XE, nx), np.linspace(YB, YE, ny))
    return np.ascontiguousarray(xv.reshape(-1)), np.ascontiguousarray(yv.reshape(-1))


_ufuncs = {}


def ufunc(name):
    """the seed's ufuncs, compiled once a process"""
    if name not in _ufuncs:
        np, cuda, vectorize, float64 = numba()
        if name == 't38':
            @vectorize([float64(float64, float64, float64, float64)], target='cuda')
            def a_cuda(lat1, lon1, lat2, lon2):
                return (math.sin(0.008726645 * (lat2 - lat1)) ** 2) + \
                    math.cos(0.01745329 * lat1) * math.cos(0.01745329 * lat2) * \
                    (math.sin(0.008726645 * (lon2 - lon1)) ** 2)
            _ufuncs[name] = a_cuda
        elif name == 't39':
            @vectorize([float64(float64, float64, float64, float64, float64)], target='cuda')
            def d_cuda(lat1, lon1, lat2, lon2, s):
                a = (math.sin(0.008726645 * (lat2 - lat1)) ** 2) + \
                    math.cos(0.01745329 * lat1) * math.cos(0.01745329 * lat2) * \
                    (math.sin(0.008726645 * (lon2 - lon1)) ** 2)
                return math.atan2(a, 1 - a) * s
            _ufuncs[name] = d_cuda
        else:
            @cuda.jit
            def t40(out, nx, ny, xb, xe, yb, ye, lat2, lon2, s):
                i = cuda.grid(1)
                if i < nx * ny:
                    x, y = i % nx, i // nx
                    lat1 = (xe - xb) * x / (nx - 1) + xb
                    lon1 = (ye - yb) * y / (ny - 1) + yb
                    a = (math.sin(0.008726645 * (lat2 - lat1)) ** 2) + \
                        math.cos(0.01745329 * lat1) * math.cos(0.01745329 * lat2) * \
                        (math.sin(0.008726645 * (lon2 - lon1)) ** 2)
                    out[i] = math.atan2(a, 1 - a) * s
            _ufuncs[name] = t40
    return _ufuncs[name]


@mesh.variant(gpu=True, traffic=lambda p: {'h2d_bytes': 4 * doubles(p), 'h2d_count': 4,
                                           'd2h_bytes': doubles(p), 'd2h_count': 1,
                                           'elements': p['nx'] * p['ny']})
def numba_t38(state):
    """the seed's t38: four host arrays into a CUDA ufunc, atan2 on the host"""
    np, cuda, _, _ = numba()
    a_cuda = ufunc('t38')
    x, y = host_mesh(np, state['nx'], state['ny'])
    x2, y2 = np.full_like(x, LAT2), np.full_like(y, LON2)
    state.exec(lambda: S * np.arctan2(a := a_cuda(x, y, x2, y2), 1 - a))


@mesh.variant(gpu=True, traffic=lambda p: {'h2d_bytes': 2 * doubles(p), 'h2d_count': 2,
                                           'd2h_bytes': doubles(p), 'd2h_count': 1,
                                           'elements': p['nx'] * p['ny']})
def numba_t39(state):
    """the seed's t39: the constants broadcast as scalars, atan2 in the ufunc"""
    np, _, _, _ = numba()
    d_cuda = ufunc('t39')
    x, y = host_mesh(np, state['nx'], state['ny'])
    state.exec(lambda: d_cuda(x, y, LAT2, LON2, S))


@mesh.variant(gpu=True, traffic=lambda p: {'d2h_bytes': doubles(p), 'd2h_count': 1,
                                           'gmem_write_bytes': doubles(p),
                                           'elements': p['nx'] * p['ny']})
def numba_t40(state):
    """the seed's t40: the mesh computed on the device, one copy back"""
    np, cuda, _, _ = numba()
    t40 = ufunc('t40')
    nx, ny = state['nx'], state['ny']
    out = cuda.device_array(nx * ny, dtype=np.float64)
    blocks = (nx * ny + 255) // 256

    def sample():
        t40[blocks, 256](out, nx, ny, XB, XE, YB, YE, LAT2, LON2, S)
        return out.copy_to_host()
    state.exec(sample)


if __name__ == '__main__':
    sys.exit(vb.main())
