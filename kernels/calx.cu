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
