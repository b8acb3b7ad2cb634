// calx kernels (seed 003): a data race, its serial fix, and a correct parallel inner loop.
#include "calx.h"
#include "calx_math.h"

// The race: all 2S+1 threads read acc, add their term and write it back with nothing
// ordering them, so most terms are lost. It lives in shared memory (the block's copy of
// x[i]) so that compute-sanitizer's racecheck, which watches shared memory, reports it.
__global__ void calx_naive_inner_kernel(const double *__restrict__ a, const double *__restrict__ z,
                                        double *__restrict__ x, int S)
{
    __shared__ double acc;
    long i = blockIdx.x;
    int j = (int)threadIdx.x - S;
    if (threadIdx.x == 0) acc = 0.0;
    __syncthreads();
    acc = acc + vb_calx_term(a, z, i, S, j); // racy on purpose
    __syncthreads();
    if (threadIdx.x == 0) x[i] = acc;
}

__global__ void calx_serial_inner_kernel(const double *__restrict__ a, const double *__restrict__ z,
                                         double *__restrict__ x, long model_size, int S)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < model_size) x[i] = vb_calx_point(a, z, i, S);
}

__global__ void calx_reduce_inner_kernel(const double *__restrict__ a, const double *__restrict__ z,
                                         double *__restrict__ x, long model_size, int S)
{
    long i = ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31;
    double sum = 0.0;
    if (i >= model_size) return; // whole warps leave together: i is uniform across the warp
    for (int j = lane - S; j <= S; j += 32)
        sum += vb_calx_term(a, z, i, S, j);
    for (int off = 16; off > 0; off >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (lane == 0) x[i] = sum;
}

extern "C" cudaError_t vb_launch_calx_naive_inner(const double *a, const double *z, double *x,
                                                  long model_size, int S, cudaStream_t s)
{
    if (model_size <= 0) return cudaSuccess;
    if (2 * S + 1 > 1024 || model_size > 0x7fffffffL) return cudaErrorInvalidConfiguration;
    calx_naive_inner_kernel<<<(unsigned)model_size, 2 * S + 1, 0, s>>>(a, z, x, S);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_calx_serial_inner(const double *a, const double *z, double *x,
                                                   long model_size, int S, cudaStream_t s)
{
    const unsigned t = 256;
    if (model_size <= 0) return cudaSuccess;
    calx_serial_inner_kernel<<<(unsigned)((model_size + t - 1) / t), t, 0, s>>>(a, z, x, model_size,
                                                                                S);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_calx_reduce_inner(const double *a, const double *z, double *x,
                                                   long model_size, int S, cudaStream_t s)
{
    const unsigned t = 256, per_block = t / 32;
    if (model_size <= 0) return cudaSuccess;
    calx_reduce_inner_kernel<<<(unsigned)((model_size + per_block - 1) / per_block), t, 0, s>>>(
        a, z, x, model_size, S);
    return cudaGetLastError();
}

// Shared memory: a (2S+1 values), then z's window with one slot in front, so that output
// t of the block reads zs[t + 1 .. t + 1 + 2S] through vb_calx_point's own indexing.
__global__ void calx_tiled_kernel(const double *__restrict__ a, const double *__restrict__ z,
                                  double *__restrict__ x, long model_size, int S)
{
    extern __shared__ double smem[];
    double *as = smem, *zs = smem + 2 * S + 1;
    long i0 = (long)blockIdx.x * blockDim.x;
    long span = (long)blockDim.x + 2 * S, have = model_size + 2 * S + 2 - (i0 + 1);
    for (int k = threadIdx.x; k <= 2 * S; k += blockDim.x)
        as[k] = a[k];
    for (long k = threadIdx.x; k < span && k < have; k += blockDim.x)
        zs[1 + k] = z[i0 + 1 + k];
    __syncthreads();
    if (i0 + threadIdx.x < model_size) x[i0 + threadIdx.x] = vb_calx_point(as, zs, threadIdx.x, S);
}

extern "C" cudaError_t vb_launch_calx_tiled(const double *a, const double *z, double *x,
                                            long model_size, int S, cudaStream_t s)
{
    const unsigned t = 256;
    size_t smem = sizeof(double) * ((2 * (size_t)S + 1) + 1 + t + 2 * (size_t)S);
    if (model_size <= 0) return cudaSuccess;
    if (S > 255 || (model_size + t - 1) / t > 0x7fffffffL) return cudaErrorInvalidConfiguration;
    calx_tiled_kernel<<<(unsigned)((model_size + t - 1) / t), t, smem, s>>>(a, z, x, model_size, S);
    return cudaGetLastError();
}
