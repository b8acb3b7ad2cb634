/*
 * saxpy kernels' launcher (extern "C", called from variants/saxpy.c): the nvcc-compiled copy
 * of the kernel in saxpy_src.h. The NVRTC copy is launched through the driver API instead.
 */
#ifndef VB_SAXPY_KERNELS_H
#define VB_SAXPY_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = a x[i] + y[i] for i < n, launched as the seed launches it: ceil(n / 512) blocks of
 * 512 threads (32768 blocks at n = 16,777,216) with <<<>>>. n <= 2^31. */
cudaError_t vb_launch_saxpy_nvcc_runtime(float a, float *x, float *y, float *out, size_t n,
                                         cudaStream_t stream);

/* out = a x + y on float4s, two a thread (both loads issued first), the n % 4 last elements
 * by thread 0 (saxpy/device-vec4, beyond the seed; the same math). 16-byte aligned arrays. */
cudaError_t vb_launch_saxpy_vec4(float a, const float *x, const float *y, float *out, size_t n,
                                 cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
