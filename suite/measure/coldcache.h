/*
 * coldcache: what runs on the GPU between two samples: the L2 flush of a cold measurement
 * (nvbench's default) and the reading of the SM clock that decides whether a sample counts.
 * Both are one kernel (kernels/coldcache.cu) on a stream of its own, finished before the sample
 * starts, so nothing of it falls in a sample's window. Per device it keeps a buffer of twice the
 * L2's size and a word of mapped host memory for the clock, made at first use.
 * Workload: one call per sample, up to tens of thousands per run; about 40 us each on an H100
 * (100 MB read), 20 us without the flush.
 */
#ifndef VB_COLDCACHE_H
#define VB_COLDCACHE_H

#include <cuda.h>

#include "err.h"

/* vb_cold_before runs, on the current device, the L2 flush (flush != 0) or only the clock probe,
 * waits for it, and sets *mhz to the SM clock measured over it. Returns 0 or -1 with err. */
int vb_cold_before(int flush, double *mhz, struct vb_err *err);

/* vb_cold_launch_hook launches the flush on stream s of the current device without waiting:
 * the metrics pass calls it before every kernel launch (profiler.h's launch hook), so that every
 * replay pass of every kernel starts with a cold L2, as ncu's --cache-control all does. The
 * device's buffer must exist (vb_cold_before ran on it). */
void vb_cold_launch_hook(CUstream s, void *unused);

/* vb_cold_release frees every device's buffers (before the contexts go). */
void vb_cold_release(void);

#endif
