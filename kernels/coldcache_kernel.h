/*
 * coldcache: the L2 flush and clock probe varbench launches before each sample (not a variant).
 */
#ifndef VB_COLDCACHE_KERNEL_H
#define VB_COLDCACHE_KERNEL_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* vb_launch_l2_flush reads bytes (a multiple of 128; 0: no flush) of buf on `blocks` blocks,
 * writing {globaltimer ns, clock64 cycles} elapsed over at least min_ns to clk (memory the device
 * can write: mapped host memory), then (bytes > 0) launches a second kernel that discards buf's
 * lines from L2; buf's contents are then undefined (it is read only to evict). sink is a device
 * float never written in practice. Both kernels' names contain "l2_flush" (the runner drops
 * their records by that). */
cudaError_t vb_launch_l2_flush(const void *buf, size_t bytes, int blocks, uint64_t *clk,
                               float *sink, uint64_t min_ns, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
