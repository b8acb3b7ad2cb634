// gufunc kernels (seed 000): the store pattern ladder, one thread per row in every layout.
#include "gufunc.h"
#include "gufunc_math.h"

template <int F> __device__ __forceinline__ void row_fn(float x, int n, float *out, long stride)
{
    if (F == VB_GUFUNC_POWSUM)
        vb_powsum_f(x, n, out, stride);
    else
        vb_hermite_f(x, n, out, stride);
}

template <int F> __global__ void gufunc_row_sliced_kernel(float *buf, long rows, int cols)
{
    long r = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float *row = buf + r * cols;
    float x = F == VB_GUFUNC_POWSUM ? row[0] : row[1];
    row_fn<F>(x, cols, row, 1);
}

template <int F>
__global__ void gufunc_scalar_in_kernel(const float *__restrict__ x, float *__restrict__ out,
                                        long rows, int cols)
{
    long r = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) row_fn<F>(x[r], cols, out + r * cols, 1);
}

template <int F>
__global__ void gufunc_column_sliced_kernel(const float *__restrict__ x, float *__restrict__ out,
                                            long rows, int cols)
{
    long r = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) row_fn<F>(x[r], cols, out + r, rows);
}

// Generic cols: the tile's pitch is odd, so a warp's column writes (thread t at t * pitch + i)
// hit 32 different banks; the copy-out then reads the tile row by row.
template <int F>
__global__ void gufunc_row_sliced_smem_kernel(const float *__restrict__ x, float *__restrict__ out,
                                              long rows, int cols)
{
    extern __shared__ float tile[];
    const int pitch = cols | 1;
    long base = (long)blockIdx.x * blockDim.x, r = base + threadIdx.x;
    if (r < rows) row_fn<F>(x[r], cols, tile + threadIdx.x * pitch, 1);
    __syncthreads();
    long nrows = rows - base < (long)blockDim.x ? rows - base : (long)blockDim.x;
    int total = (int)nrows * cols;
    float *dst = out + base * cols;
    for (int k = threadIdx.x; k < total; k += blockDim.x) {
        int rr = k / cols, c = k - rr * cols;
        dst[k] = tile[rr * pitch + c];
    }
}

// cols a multiple of 4 known at compile time: the row is computed in registers and goes into
// the tile as float4s (an odd number of float4s per row keeps each 8-thread phase of a
// 16-byte access on distinct banks); the block's span of the output, contiguous in row-major
// order, is then written as float4s, consecutive threads at consecutive 16-byte addresses.
template <int F, int COLS>
__global__ void gufunc_row_sliced_smem_vec_kernel(const float *__restrict__ x,
                                                  float *__restrict__ out, long rows)
{
    constexpr int Q = COLS / 4, PITCH = Q | 1; // float4s per row, and per tile row
    extern __shared__ float4 tile4[];
    long base = (long)blockIdx.x * blockDim.x, r = base + threadIdx.x;
    if (r < rows) {
        float v[COLS];
        row_fn<F>(x[r], COLS, v, 1);
#pragma unroll
        for (int q = 0; q < Q; q++)
            tile4[threadIdx.x * PITCH + q] =
                make_float4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]);
    }
    __syncthreads();
    long nrows = rows - base < (long)blockDim.x ? rows - base : (long)blockDim.x;
    int total = (int)nrows * Q;
    float4 *dst = reinterpret_cast<float4 *>(out + base * COLS);
    for (int k = threadIdx.x; k < total; k += blockDim.x)
        dst[k] = tile4[(k / Q) * PITCH + k % Q];
}

static const unsigned threads = 256, smem_threads = 128;

static unsigned blocks(long rows, unsigned per)
{
    return (unsigned)((rows + per - 1) / per);
}

extern "C" cudaError_t vb_launch_gufunc_row_sliced(int func, float *buf, long rows, int cols,
                                                   cudaStream_t s)
{
    if (rows <= 0) return cudaSuccess;
    if (func == VB_GUFUNC_POWSUM)
        gufunc_row_sliced_kernel<VB_GUFUNC_POWSUM>
            <<<blocks(rows, threads), threads, 0, s>>>(buf, rows, cols);
    else
        gufunc_row_sliced_kernel<VB_GUFUNC_HERMITE>
            <<<blocks(rows, threads), threads, 0, s>>>(buf, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_gufunc_scalar_in(int func, const float *x, float *out, long rows,
                                                  int cols, cudaStream_t s)
{
    if (rows <= 0) return cudaSuccess;
    if (func == VB_GUFUNC_POWSUM)
        gufunc_scalar_in_kernel<VB_GUFUNC_POWSUM>
            <<<blocks(rows, threads), threads, 0, s>>>(x, out, rows, cols);
    else
        gufunc_scalar_in_kernel<VB_GUFUNC_HERMITE>
            <<<blocks(rows, threads), threads, 0, s>>>(x, out, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_gufunc_column_sliced(int func, const float *x, float *out,
                                                      long rows, int cols, cudaStream_t s)
{
    if (rows <= 0) return cudaSuccess;
    if (func == VB_GUFUNC_POWSUM)
        gufunc_column_sliced_kernel<VB_GUFUNC_POWSUM>
            <<<blocks(rows, threads), threads, 0, s>>>(x, out, rows, cols);
    else
        gufunc_column_sliced_kernel<VB_GUFUNC_HERMITE>
            <<<blocks(rows, threads), threads, 0, s>>>(x, out, rows, cols);
    return cudaGetLastError();
}

template <int F>
static cudaError_t smem_launch(const float *x, float *out, long rows, int cols, cudaStream_t s)
{
    unsigned nb = blocks(rows, smem_threads);
#define VEC_CASE(C)                                                                                \
    case C:                                                                                        \
        gufunc_row_sliced_smem_vec_kernel<F, C>                                                    \
            <<<nb, smem_threads, smem_threads *((C / 4) | 1) * sizeof(float4), s>>>(x, out, rows); \
        break;
    switch (cols) {
        VEC_CASE(4)
        VEC_CASE(8)
        VEC_CASE(16)
        VEC_CASE(32)
        VEC_CASE(64)
    default:
        gufunc_row_sliced_smem_kernel<F>
            <<<nb, smem_threads, (size_t)smem_threads *(size_t)(cols | 1) * sizeof(float), s>>>(
                x, out, rows, cols);
    }
#undef VEC_CASE
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_gufunc_row_sliced_smem(int func, const float *x, float *out,
                                                        long rows, int cols, cudaStream_t s)
{
    if (rows <= 0) return cudaSuccess;
    if (cols > 64) return cudaErrorInvalidValue;
    return func == VB_GUFUNC_POWSUM ? smem_launch<VB_GUFUNC_POWSUM>(x, out, rows, cols, s)
                                    : smem_launch<VB_GUFUNC_HERMITE>(x, out, rows, cols, s);
}
