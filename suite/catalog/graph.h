/*
 * graph: a stream's work captured once into a CUDA graph, then replayed, for the rungs where
 * latency rules (a sample's copies, kernels and copies back issued as one launch and waited for
 * once) and for the round-trip ceiling. Capture is thread-local: other threads' CUDA calls go on.
 */
#ifndef VB_GRAPH_H
#define VB_GRAPH_H

#include <cuda_runtime_api.h>

#include "err.h"

/* What a graph holds: issue(state, err) queues the work on its stream, unwaited; 0, or -1 with
 * err. The same function serves a rung's stream path (phase.h's vb_phase_issue). */
typedef int (*vb_issue_fn)(void *state, struct vb_err *err);

/* vb_graph_capture captures what issue(state) queues on s and instantiates it into *exec. 0, or
 * -1 with err (*exec NULL; s has left capture mode). */
int vb_graph_capture(cudaStream_t s, vb_issue_fn issue, void *state, cudaGraphExec_t *exec,
                     struct vb_err *err);

/* vb_graph_rung is vb_graph_capture for a variant's graph rung: under VARBENCH_TEST_PAGEABLE
 * (hostmem.h) its host arrays are pageable, whose copies a graph may not hold; a capture that
 * fails then leaves *exec NULL and returns 0, and the rung issues the same calls on its stream
 * (phase.h's vb_phase_replay), so the gate sees it slower rather than failed. */
int vb_graph_rung(cudaStream_t s, vb_issue_fn issue, void *state, cudaGraphExec_t *exec,
                  struct vb_err *err);

#endif
