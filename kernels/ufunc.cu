// ufunc kernels (seed 002): a broadcast-scalar ufunc, a shared host/device clamp in a
// grid-stride loop, one cos loop under two launch configurations, and the FFT mask multiply.
#include "ufunc.h"
#include "ufunc_math.h"

static const unsigned threads1d = 256;

__global__ void ufunc_gaussian_kernel(const float *__restrict__ x, float x0, float sigma,
                                      float *__restrict__ out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = vb_gaussian_f(x[i], x0, sigma);
}

__device__ __forceinline__ float4 gaussian4(float4 v, float x0, float sigma)
{
    return make_float4(vb_gaussian_f(v.x, x0, sigma), vb_gaussian_f(v.y, x0, sigma),
                       vb_gaussian_f(v.z, x0, sigma), vb_gaussian_f(v.w, x0, sigma));
}

// Two float4 a thread, both loads issued before either is used; block b covers float4s
// [2 b B, 2 (b + 1) B) with B = blockDim.x, so each warp's accesses stay contiguous.
__global__ void ufunc_gaussian_vec4_kernel(const float4 *__restrict__ x, float x0, float sigma,
                                           float4 *__restrict__ out, size_t n4,
                                           const float *__restrict__ xt, float *__restrict__ outt,
                                           size_t tail)
{
    size_t i = (size_t)blockIdx.x * blockDim.x * 2 + threadIdx.x, j = i + blockDim.x;
    float4 a, b;
    if (i < n4) a = x[i];
    if (j < n4) b = x[j];
    if (i < n4) out[i] = gaussian4(a, x0, sigma);
    if (j < n4) out[j] = gaussian4(b, x0, sigma);
    if (blockIdx.x == 0 && threadIdx.x < tail)
        outt[threadIdx.x] = vb_gaussian_f(xt[threadIdx.x], x0, sigma);
}

// gaussian-vec4's kernel with the broadcast scalars' divisions done once on the host: per element
// a subtract, three multiplies and expf (c = 1 / (sqrt(2 pi) sigma), k = 1 / sigma), where the
// seed's function divides by sigma twice and by sqrt(2 pi) once (IEEE divisions, about 50
// instructions an element in all, which a one-wave kernel runs after its loads arrive).
__device__ __forceinline__ float gaussian_hoisted(float v, float x0, float k, float c)
{
    float z = (v - x0) * k;
    return c * expf(-0.5f * z * z);
}

__device__ __forceinline__ float4 gaussian4_hoisted(float4 v, float x0, float k, float c)
{
    return make_float4(gaussian_hoisted(v.x, x0, k, c), gaussian_hoisted(v.y, x0, k, c),
                       gaussian_hoisted(v.z, x0, k, c), gaussian_hoisted(v.w, x0, k, c));
}

__global__ void ufunc_gaussian_hoisted_kernel(const float4 *__restrict__ x, float x0, float k,
                                              float c, float4 *__restrict__ out, size_t n4,
                                              const float *__restrict__ xt,
                                              float *__restrict__ outt, size_t tail)
{
    size_t i = (size_t)blockIdx.x * blockDim.x * 2 + threadIdx.x, j = i + blockDim.x;
    float4 a, b;
    if (i < n4) a = x[i];
    if (j < n4) b = x[j];
    if (i < n4) out[i] = gaussian4_hoisted(a, x0, k, c);
    if (j < n4) out[j] = gaussian4_hoisted(b, x0, k, c);
    if (blockIdx.x == 0 && threadIdx.x < tail)
        outt[threadIdx.x] = gaussian_hoisted(xt[threadIdx.x], x0, k, c);
}

__global__ void ufunc_clamp_gridstride_kernel(const float *__restrict__ x, float lo, float hi,
                                              float *__restrict__ out, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = vb_clamp_f(x[i], lo, hi); // the "CPU" function, called from the kernel
}

// The seed's gpu_cos body; the two kernels differ only in how they are launched.
__device__ __forceinline__ void cos_gridstride(const float *__restrict__ x, float *__restrict__ out,
                                               size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = vb_cos_f(x[i]);
}

__global__ void ufunc_cos_64x64_kernel(const float *__restrict__ x, float *__restrict__ out,
                                       size_t n)
{
    cos_gridstride(x, out, n);
}

__global__ void ufunc_cos_full_kernel(const float *__restrict__ x, float *__restrict__ out,
                                      size_t n)
{
    cos_gridstride(x, out, n);
}

// i (the row) runs along y and j (the contiguous column) along x, so a warp touches 32
// consecutive complex values.
__global__ void ufunc_fft_mask_kernel(float2 *__restrict__ frame, const float *__restrict__ mask,
                                      long h, long w)
{
    long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
    long i = (long)blockIdx.y * blockDim.y + threadIdx.y;
    if (i < h && j < w) {
        float2 v = frame[i * w + j];
        float m = mask[i * w + j];
        v.x *= m;
        v.y *= m;
        frame[i * w + j] = v;
    }
}

static unsigned blocks_for(size_t n, unsigned per)
{
    return (unsigned)((n + per - 1) / per);
}

extern "C" cudaError_t vb_launch_ufunc_gaussian(const float *x, float x0, float sigma, float *out,
                                                size_t n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    if ((n + threads1d - 1) / threads1d > 0x7fffffffu) return cudaErrorInvalidConfiguration;
    ufunc_gaussian_kernel<<<blocks_for(n, threads1d), threads1d, 0, stream>>>(x, x0, sigma, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_ufunc_gaussian_vec4(const float *x, float x0, float sigma,
                                                     float *out, size_t n, cudaStream_t stream)
{
    size_t n4 = n / 4, blocks = (n4 + 2 * threads1d - 1) / (2 * threads1d);
    if (n == 0) return cudaSuccess;
    if (blocks > 0x7fffffffu) return cudaErrorInvalidConfiguration;
    if (blocks == 0) blocks = 1; /* n < 4: the tail alone */
    ufunc_gaussian_vec4_kernel<<<(unsigned)blocks, threads1d, 0, stream>>>(
        reinterpret_cast<const float4 *>(x), x0, sigma, reinterpret_cast<float4 *>(out), n4,
        x + 4 * n4, out + 4 * n4, n % 4);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_ufunc_gaussian_hoisted(const float *x, float x0, float sigma,
                                                        float *out, size_t n, cudaStream_t stream)
{
    size_t n4 = n / 4, blocks = (n4 + 2 * threads1d - 1) / (2 * threads1d);
    float k = (float)(1.0 / (double)sigma), c = (float)(1.0 / (VB_UFUNC_SQRT_TWOPI * sigma));
    if (n == 0) return cudaSuccess;
    if (blocks > 0x7fffffffu) return cudaErrorInvalidConfiguration;
    if (blocks == 0) blocks = 1; /* n < 4: the tail alone */
    ufunc_gaussian_hoisted_kernel<<<(unsigned)blocks, threads1d, 0, stream>>>(
        reinterpret_cast<const float4 *>(x), x0, k, c, reinterpret_cast<float4 *>(out), n4,
        x + 4 * n4, out + 4 * n4, n % 4);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_ufunc_clamp_gridstride(const float *x, float lo, float hi,
                                                        float *out, size_t n, int sms,
                                                        cudaStream_t stream)
{
    size_t want = (n + threads1d - 1) / threads1d, cap = (size_t)(sms > 0 ? sms : 1) * 32;
    if (n == 0) return cudaSuccess;
    ufunc_clamp_gridstride_kernel<<<(unsigned)(want < cap ? want : cap), threads1d, 0, stream>>>(
        x, lo, hi, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_ufunc_cos_64x64(const float *x, float *out, size_t n,
                                                 cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    ufunc_cos_64x64_kernel<<<64, 64, 0, stream>>>(x, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_ufunc_cos_full(const float *x, float *out, size_t n,
                                                cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    if ((n + threads1d - 1) / threads1d > 0x7fffffffu) return cudaErrorInvalidConfiguration;
    ufunc_cos_full_kernel<<<blocks_for(n, threads1d), threads1d, 0, stream>>>(x, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_ufunc_fft_mask(float *frame, const float *mask, long h, long w,
                                                cudaStream_t stream)
{
    dim3 block(32, 8);
    dim3 grid((unsigned)((w + block.x - 1) / block.x), (unsigned)((h + block.y - 1) / block.y));
    if (h <= 0 || w <= 0) return cudaSuccess;
    if (grid.y > 65535) return cudaErrorInvalidConfiguration;
    ufunc_fft_mask_kernel<<<grid, block, 0, stream>>>(reinterpret_cast<float2 *>(frame), mask, h,
                                                      w);
    return cudaGetLastError();
}
