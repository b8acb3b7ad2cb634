/*
 * probe: tiny kernels varbench uses to measure the device itself (not a variant).
 */
#ifndef VB_PROBE_H
#define VB_PROBE_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* vb_launch_probe_clock spins one thread for about spin_ns nanoseconds of %globaltimer and
 * writes {elapsed globaltimer ns, elapsed clock64 cycles} to out2 (device memory). */
cudaError_t vb_launch_probe_clock(uint64_t *out2, uint64_t spin_ns, cudaStream_t stream);

/* vb_launch_probe_stream_copy copies n16 16-byte words from src to dst with a streaming
 * kernel: float4 loads and stores, two a thread, both loads issued first (the pattern of the
 * vec4 rungs), so the DRAM ceiling is what such a kernel can reach. */
cudaError_t vb_launch_probe_stream_copy(void *dst, const void *src, size_t n16,
                                        cudaStream_t stream);

/* vb_launch_probe_empty launches one empty kernel (one block of 32 threads) on stream. */
cudaError_t vb_launch_probe_empty(cudaStream_t stream);

/* vb_launch_probe_mapped_copy copies n8 8-byte words from src to dst, one a thread: between
 * mapped host buffers the mapped ceiling's kernel (ceilings.h). Measured on an H200, 80 MB each
 * way: 1.93 ms, where the float4 stream copy above took 2.11 ms (PCIe's reads, not DRAM's). */
cudaError_t vb_launch_probe_mapped_copy(void *dst, const void *src, size_t n8, cudaStream_t stream);

/* vb_launch_probe_mapped launches one thread on stream that copies *in to *out: both in mapped
 * host memory (device pointers of it), so the value crosses PCIe twice inside the kernel, with
 * no copy (the mapped round trip, trip.h). */
cudaError_t vb_launch_probe_mapped(const double *in, double *out, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
