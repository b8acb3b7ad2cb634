/* The example's kernels (kernels.h): a STREAM triad for float and double, and a round trip's
 * element-wise kernel. */
#include "kernels.h"

#ifndef EXAMPLE_SLOW
#define EXAMPLE_SLOW 0
#endif

template <typename T>
__global__ void triad(T a, const T *__restrict__ x, const T *__restrict__ y, T *__restrict__ out,
                      size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
#if EXAMPLE_SLOW
    /* the same elements, but neighbouring threads 32 elements apart: every access its own
     * sector (n a multiple of 32: the example's sizes are powers of two) */
    if (n % 32 == 0) i = (i % 32) * (n / 32) + i / 32;
#endif
    out[i] = a * x[i] + y[i];
}

__global__ void sqrt1(const double *__restrict__ x, double *__restrict__ out, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = sqrt(x[i]) + 1.0;
}

static unsigned blocks(size_t n)
{
    return (unsigned)((n + 255) / 256);
}

extern "C" cudaError_t ex_launch_triad(int fp64, double a, const void *x, const void *y, void *out,
                                       size_t n, cudaStream_t s)
{
    if (fp64)
        triad<double>
            <<<blocks(n), 256, 0, s>>>(a, (const double *)x, (const double *)y, (double *)out, n);
    else
        triad<float><<<blocks(n), 256, 0, s>>>((float)a, (const float *)x, (const float *)y,
                                               (float *)out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t ex_launch_sqrt1(const double *x, double *out, size_t n, cudaStream_t s)
{
    sqrt1<<<blocks(n), 256, 0, s>>>(x, out, n);
    return cudaGetLastError();
}
