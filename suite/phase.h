/*
 * phase: the pieces of a variant's sample that every family repeats: a phase (NVTX range)
 * that ends with a checked wait on a stream, and a copy in a phase of its own. A phase
 * always ends, also on error, so NVTX ranges stay balanced.
 */
#ifndef VB_PHASE_H
#define VB_PHASE_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "err.h"
#include "nvtx.h"

/* vb_phase_wait checks `launched` (a launcher's result, or cudaSuccess after copies), waits
 * for stream s and ends the current phase. Returns 0 or -1 with err. */
int vb_phase_wait(cudaError_t launched, cudaStream_t s, struct vb_err *err);

/* vb_phase_copy runs one cudaMemcpyAsync of `bytes` on s inside phase ph and waits for it. */
int vb_phase_copy(enum vb_phase ph, void *dst, const void *src, size_t bytes,
                  enum cudaMemcpyKind kind, cudaStream_t s, struct vb_err *err);

#endif
