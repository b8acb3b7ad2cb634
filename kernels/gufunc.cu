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

// The tile's pitch is odd, so a warp's column writes (thread t at t * pitch + i) hit 32
// different banks; the copy-out then reads the tile row by row.
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
        gufunc_row_sliced_kernel<VB_GUFUNC_POWSUM><<<blocks(rows, threads), threads, 0, s>>>(buf, rows, cols);
    else
        gufunc_row_sliced_kernel<VB_GUFUNC_HERMITE><<<blocks(rows, threads), threads, 0, s>>>(buf, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_gufunc_scalar_in(int func, const float *x, float *out, long rows,
                                                  int cols, cudaStream_t s)
{
    if (rows <= 0) return cudaSuccess;
    if (func == VB_GUFUNC_POWSUM)
        gufunc_scalar_in_kernel<VB_GUFUNC_POWSUM><<<blocks(rows, threads), threads, 0, s>>>(x, out, rows, cols);
    else
        gufunc_scalar_in_kernel<VB_GUFUNC_HERMITE><<<blocks(rows, threads), threads, 0, s>>>(x, out, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_gufunc_column_sliced(int func, const float *x, float *out,
                                                      long rows, int cols, cudaStream_t s)
{
    if (rows <= 0) return cudaSuccess;
    if (func == VB_GUFUNC_POWSUM)
        gufunc_column_sliced_kernel<VB_GUFUNC_POWSUM><<<blocks(rows, threads), threads, 0, s>>>(x, out, rows, cols);
    else
        gufunc_column_sliced_kernel<VB_GUFUNC_HERMITE><<<blocks(rows, threads), threads, 0, s>>>(x, out, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_gufunc_row_sliced_smem(int func, const float *x, float *out,
                                                        long rows, int cols, cudaStream_t s)
{
    size_t smem = (size_t)smem_threads * (size_t)(cols | 1) * sizeof(float);
    if (rows <= 0) return cudaSuccess;
    if (cols > 64) return cudaErrorInvalidValue;
    if (func == VB_GUFUNC_POWSUM)
        gufunc_row_sliced_smem_kernel<VB_GUFUNC_POWSUM><<<blocks(rows, smem_threads), smem_threads, smem, s>>>(x, out, rows, cols);
    else
        gufunc_row_sliced_smem_kernel<VB_GUFUNC_HERMITE><<<blocks(rows, smem_threads), smem_threads, smem, s>>>(x, out, rows, cols);
    return cudaGetLastError();
}
