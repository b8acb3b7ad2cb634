// saxpy kernel (seed 004), compiled offline by nvcc; its twin is compiled at run time by NVRTC
// from the same tokens (saxpy_src.h).
#include "saxpy.h"
#include "saxpy_src.h"

// clang-format off
extern "C" __global__ void saxpy_nvcc_runtime_kernel VB_SAXPY_BODY
    // clang-format on

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

__device__ __forceinline__ float4 saxpy4(float a, float4 x, float4 y)
{
    return make_float4(a * x.x + y.x, a * x.y + y.y, a * x.z + y.z, a * x.w + y.w);
}

// Block b covers float4s [2 b B, 2 (b + 1) B) with B = blockDim.x: every warp stays contiguous.
__global__ void saxpy_vec4_kernel(float a, const float4 *__restrict__ x,
                                  const float4 *__restrict__ y, float4 *__restrict__ out, size_t n4,
                                  const float *__restrict__ xt, const float *__restrict__ yt,
                                  float *__restrict__ outt, unsigned tail)
{
    size_t i = (size_t)blockIdx.x * blockDim.x * 2 + threadIdx.x, j = i + blockDim.x;
    float4 xa, ya, xb, yb;
    if (i < n4) xa = x[i], ya = y[i];
    if (j < n4) xb = x[j], yb = y[j];
    if (i < n4) out[i] = saxpy4(a, xa, ya);
    if (j < n4) out[j] = saxpy4(a, xb, yb);
    if (blockIdx.x == 0 && threadIdx.x < tail)
        outt[threadIdx.x] = a * xt[threadIdx.x] + yt[threadIdx.x];
}

extern "C" cudaError_t vb_launch_saxpy_vec4(float a, const float *x, const float *y, float *out,
                                            size_t n, cudaStream_t stream)
{
    const unsigned t = 256;
    size_t n4 = n / 4, blocks = (n4 + 2 * t - 1) / (2 * t);
    if (n == 0) return cudaSuccess;
    if (blocks > 0x7fffffffu) return cudaErrorInvalidConfiguration;
    if (blocks == 0) blocks = 1; /* n < 4: the tail alone */
    saxpy_vec4_kernel<<<(unsigned)blocks, t, 0, stream>>>(
        a, reinterpret_cast<const float4 *>(x), reinterpret_cast<const float4 *>(y),
        reinterpret_cast<float4 *>(out), n4, x + 4 * n4, y + 4 * n4, out + 4 * n4,
        (unsigned)(n % 4));
    return cudaGetLastError();
}
