"""saxpy_cuda_python.py: seed 004's own program, CUDA Python's saxpy, as a rung of varbench's
saxpy ladder.

The seed (variants/seeds/004_*.txt) is NVIDIA's CUDA Python introduction: the saxpy kernel as a
string compiled with NVRTC (compute_75 PTX, --fmad=false), loaded with cuModuleLoadData, the
inputs copied with cuMemcpyHtoDAsync, 32768 blocks of 512 threads launched with cuLaunchKernel,
the answer copied back, one stream synchronized; it says the kernel times as the C++ version's.
These rungs compute the catalog's saxpy problem (n; x and y vb_data_uniform's streams 0x5a1 and
0x5a2 in [0, 1), as float32; a = 2; the C reference and tolerance) beside the C rungs
(nvrtc-driver: the same program in C; nvcc-runtime):
  cuda-python  the seed's driver-API program (its PTX JIT-compiled for the device at load), in the
               device's primary context (the seed makes its own with cuCtxCreate; sharing the
               runtime's keeps one context a device, as the C rung does)
  python-loop  out = a x + y in plain Python (a CPU rung: at most 100,000 elements)
cuda-python's bindings (cuda.bindings, or the older `from cuda import cuda, nvrtc`) and NumPy
are needed for the GPU rung (skipped, saying so, without them).
Run: PYTHONPATH=build/python python3 python/seeds/saxpy_cuda_python.py run [run's options]
"""
import struct
import sys

import varbench as vb

saxpy = vb.catalog('saxpy').problem('saxpy')
X_SEED, Y_SEED, A = 0x5A1, 0x5A2, 2.0  # variants/saxpy.c's
THREADS = 512
SOURCE = """\
extern "C" __global__
void saxpy(float a, float *x, float *y, float *out, size_t n)
{
 size_t tid = blockIdx.x * blockDim.x + threadIdx.x;
 if (tid < n) {
   out[tid] = a * x[tid] + y[tid];
 }
}
"""


def f32(v):
    return struct.unpack('f', struct.pack('f', v))[0]


@saxpy.variant(gpu=False, traffic=lambda p: {'elements': p['n'], 'flops': 2 * p['n']})
def python_loop(state):
    """out = a x + y in plain Python"""
    n = state['n']
    if n > 100000:
        raise vb.Skip('plain Python: at most 100,000 elements (this is %d)' % n)
    x = [f32(vb.data_uniform(X_SEED, i, 0.0, 1.0)) for i in range(n)]
    y = [f32(vb.data_uniform(Y_SEED, i, 0.0, 1.0)) for i in range(n)]
    state.exec(lambda: [f32(f32(A * a) + b) for a, b in zip(x, y)])


def bindings():
    try:
        import numpy as np
        try:
            from cuda.bindings import driver as cuda, nvrtc
        except ImportError:
            from cuda import cuda, nvrtc
    except ImportError as e:
        raise vb.Skip('needs cuda-python and NumPy: %s' % e) from None
    return np, cuda, nvrtc


def check(result):
    """the seed's ASSERT_DRV: a CUresult or nvrtcResult that is not success raises"""
    err, rest = result[0], result[1:]
    if int(err) != 0:
        raise RuntimeError('CUDA Python call failed: %s' % err)
    return rest[0] if len(rest) == 1 else rest


def traffic(p):
    return {'h2d_bytes': 8 * p['n'], 'h2d_count': 2, 'd2h_bytes': 4 * p['n'], 'd2h_count': 1,
            'elements': p['n'], 'flops': 2 * p['n']}


@saxpy.variant(gpu=True, traffic=traffic)
def cuda_python(state):
    """the seed's CUDA Python program: NVRTC PTX, driver API, async copies, one stream"""
    np, cuda, nvrtc = bindings()
    n = state['n']
    check(cuda.cuInit(0))
    dev = check(cuda.cuDeviceGet(0))
    ctx = check(cuda.cuDevicePrimaryCtxRetain(dev))
    check(cuda.cuCtxSetCurrent(ctx))
    state.teardown(lambda: check(cuda.cuDevicePrimaryCtxRelease(dev)))
    prog = check(nvrtc.nvrtcCreateProgram(SOURCE.encode(), b'saxpy.cu', 0, [], []))
    opts = [b'--fmad=false', b'--gpu-architecture=compute_75']
    check(nvrtc.nvrtcCompileProgram(prog, len(opts), opts))
    ptx = b' ' * check(nvrtc.nvrtcGetPTXSize(prog))
    check(nvrtc.nvrtcGetPTX(prog, ptx))
    module = check(cuda.cuModuleLoadData(np.char.array(ptx).ctypes.data))
    state.teardown(lambda: check(cuda.cuModuleUnload(module)))
    kernel = check(cuda.cuModuleGetFunction(module, b'saxpy'))
    a = np.array([A], dtype=np.float32)
    hn = np.array(n, dtype=np.uint64)
    hx = vb.data_uniform_array(X_SEED, n, 0.0, 1.0).astype(np.float32)
    hy = vb.data_uniform_array(Y_SEED, n, 0.0, 1.0).astype(np.float32)
    hout = np.zeros(n, dtype=np.float32)
    size = n * 4
    dx, dy, dout = (check(cuda.cuMemAlloc(size)) for _ in range(3))
    for d in (dx, dy, dout):
        state.teardown(lambda d=d: check(cuda.cuMemFree(d)))
    stream = check(cuda.cuStreamCreate(0))
    state.teardown(lambda: check(cuda.cuStreamDestroy(stream)))
    ptrs = [np.array([int(d)], dtype=np.uint64) for d in (dx, dy, dout)]
    args = np.array([arg.ctypes.data for arg in [a] + ptrs + [hn]], dtype=np.uint64)
    blocks = (n + THREADS - 1) // THREADS

    def sample():
        check(cuda.cuMemcpyHtoDAsync(dx, hx.ctypes.data, size, stream))
        check(cuda.cuMemcpyHtoDAsync(dy, hy.ctypes.data, size, stream))
        check(cuda.cuLaunchKernel(kernel, blocks, 1, 1, THREADS, 1, 1, 0, stream,
                                  args.ctypes.data, 0))
        check(cuda.cuMemcpyDtoHAsync(hout.ctypes.data, dout, size, stream))
        check(cuda.cuStreamSynchronize(stream))
        return hout
    state.exec(sample)


if __name__ == '__main__':
    sys.exit(vb.main())
