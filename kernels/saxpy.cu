// saxpy kernel (seed 004), compiled offline by nvcc; its twin is compiled at run time by NVRTC
// from the same tokens (saxpy_src.h).
#include "saxpy.h"
#include "saxpy_src.h"

extern "C" __global__ void saxpy_nvcc_runtime_kernel VB_SAXPY_BODY

    extern "C" cudaError_t
    vb_launch_saxpy_nvcc_runtime(float a, float *x, float *y, float *out, size_t n,
                                 cudaStream_t stream)
{
    size_t blocks = (n + VB_SAXPY_THREADS - 1) / VB_SAXPY_THREADS;
    if (n == 0) return cudaSuccess;
    if (n > 0x80000000ull) return cudaErrorInvalidConfiguration; /* 32-bit tid stays exact */
    saxpy_nvcc_runtime_kernel<<<(unsigned)blocks, VB_SAXPY_THREADS, 0, stream>>>(a, x, y, out, n);
    return cudaGetLastError();
}
