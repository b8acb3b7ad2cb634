/*
 * calx kernels' launchers (extern "C", called from variants/calx.c); each returns the
 * launch's error. x has model_size outputs, a and z as in calx_math.h.
 */
#ifndef VB_CALX_KERNELS_H
#define VB_CALX_KERNELS_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The seed's racy version, kept racy on purpose: block per output, thread per term, every
 * thread does `acc = acc + term` on the block's shared accumulator with no synchronisation
 * (lost updates: a wrong answer). 2S+1 <= 1024. */
cudaError_t vb_launch_calx_naive_inner(const double *a, const double *z, double *x, long model_size,
                                       int S, cudaStream_t s);
/* Thread per output, the inner sum serial in that thread (the seed's fix). */
cudaError_t vb_launch_calx_serial_inner(const double *a, const double *z, double *x,
                                        long model_size, int S, cudaStream_t s);
/* Warp per output, lanes over the terms, then a warp-shuffle reduction. */
cudaError_t vb_launch_calx_reduce_inner(const double *a, const double *z, double *x,
                                        long model_size, int S, cudaStream_t s);

/* x[i] for every i, 256 outputs a block: the block stages its window of z (256 + 2S values)
 * and a in shared memory with coalesced loads, then each thread sums its 2S+1 terms there in
 * the seed's order (bitwise the serial-inner answer). S <= 255. */
cudaError_t vb_launch_calx_tiled(const double *a, const double *z, double *x, long model_size,
                                 int S, cudaStream_t s);
/* The same sums on min(tiles, blocks) blocks that each walk every blocks-th tile of 256
 * outputs, loading the next tile's window while the current one is summed and written: for z and
 * x in mapped host memory, where reads and writes then cross PCIe at the same time
 * (tiled-mapped). a_host is read on the host, at the launch, into the launch's parameters (host
 * memory: mapped memory's host pointer). S <= 255, blocks >= 1. */
cudaError_t vb_launch_calx_tiled_stream(const double *a_host, const double *z, double *x,
                                        long model_size, int S, int blocks, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
