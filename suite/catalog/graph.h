/*
 * graph: a stream's work captured once into a CUDA graph, then replayed, for the rungs where
 * latency rules (a sample's copies, kernels and copies back issued as one launch and waited for
 * once) and for the round-trip ceiling. Capture is thread-local: other threads' CUDA calls go on.
 */
#ifndef VB_GRAPH_H
#define VB_GRAPH_H

#include <cuda_runtime_api.h>

#include "err.h"

/* vb_graph_begin starts capturing stream s. 0 or -1 with err. */
int vb_graph_begin(cudaStream_t s, struct vb_err *err);

/* vb_graph_end ends the capture begun on s and instantiates what was captured into *exec;
 * issued: 0 when every call of the capture succeeded, else -1 (err already set: the capture is
 * ended and dropped). 0 or -1 with err, *exec NULL on failure. */
int vb_graph_end(cudaStream_t s, int issued, cudaGraphExec_t *exec, struct vb_err *err);

#endif
