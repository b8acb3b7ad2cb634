/*
 * ufunc kernels' launchers (extern "C", called from variants/ufunc.c). Each returns the
 * launch's error (cudaGetLastError after it); all work on `stream`. float32 throughout, as the
 * seed's Numba ufuncs; the element functions are those of ufunc_math.h.
 */
#ifndef VB_UFUNC_KERNELS_H
#define VB_UFUNC_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = vb_gaussian_f(x[i], x0, sigma), x0 and sigma broadcast: one thread per element
 * (the launch Numba's @vectorize picks for you). Serves gaussian-host and gaussian-device. */
cudaError_t vb_launch_ufunc_gaussian(const float *x, float x0, float sigma, float *out, size_t n,
                                     cudaStream_t stream);

/* The same Gaussian on float4s: each thread loads two float4 (8 elements) before computing,
 * so a resident SM keeps 64 KB of loads in flight (HBM3e's bandwidth-delay product is about
 * 20 KB an SM); the last n % 4 elements are done by thread 0. x and out 16-byte aligned
 * (cudaMalloc's). Serves gaussian-vec4. */
cudaError_t vb_launch_ufunc_gaussian_vec4(const float *x, float x0, float sigma, float *out,
                                          size_t n, cudaStream_t stream);

/* gaussian-vec4's launch with the scalars' divisions hoisted to the host: out[i] =
 * c * expf(-((x[i] - x0) * k)^2 / 2), k = 1 / sigma and c = 1 / (sqrt(2 pi) sigma) rounded once
 * (within a few ulp of vb_gaussian_f). Serves gaussian-hoisted. */
cudaError_t vb_launch_ufunc_gaussian_hoisted(const float *x, float x0, float sigma, float *out,
                                             size_t n, cudaStream_t stream);

/* out[i] = vb_clamp_f(x[i], lo, hi) in a grid-stride loop over a grid of at most 32 blocks of
 * 256 threads per SM (sms: the device's multiprocessor count), the seed's clamp_array. */
cudaError_t vb_launch_ufunc_clamp_gridstride(const float *x, float lo, float hi, float *out,
                                             size_t n, int sms, cudaStream_t stream);

/* out[i] = cos(x[i]), the seed's gpu_cos grid-stride loop launched as gpu_cos[64, 64]: 64 blocks
 * of 64 threads whatever n is (4096 threads; each walks n / 4096 elements). */
cudaError_t vb_launch_ufunc_cos_64x64(const float *x, float *out, size_t n, cudaStream_t stream);

/* The same loop launched to fill the device: ceil(n / 256) blocks of 256 threads, one element
 * each. */
cudaError_t vb_launch_ufunc_cos_full(const float *x, float *out, size_t n, cudaStream_t stream);

/* frame[y][x] *= mask[y][x] for an h x w complex64 frame (interleaved re, im; 8-byte aligned)
 * and a real float mask, the seed's apply_mask on a 2D grid of 32 x 8 blocks. Serves fft-mask
 * and fft-mask-host. */
cudaError_t vb_launch_ufunc_fft_mask(float *frame, const float *mask, long h, long w,
                                     cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
