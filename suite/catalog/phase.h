/*
 * phase: the pieces of a variant's sample that every family repeats: a phase (NVTX range)
 * that ends with a checked wait on a stream, and a copy in a phase of its own; and the
 * setup phases a case reports besides its samples. A phase always ends, also on error, so
 * NVTX ranges stay balanced.
 */
#ifndef VB_PHASE_H
#define VB_PHASE_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "err.h"
#include "graph.h"
#include "nvtx.h"

/* vb_phase_wait checks `launched` (a launcher's result, or cudaSuccess after copies), waits
 * for stream s and ends the current phase. Returns 0 or -1 with err. */
int vb_phase_wait(cudaError_t launched, cudaStream_t s, struct vb_err *err);

/* vb_phase_copy runs one cudaMemcpyAsync of `bytes` on s inside phase ph and waits for it. */
int vb_phase_copy(enum vb_phase ph, void *dst, const void *src, size_t bytes,
                  enum cudaMemcpyKind kind, cudaStream_t s, struct vb_err *err);

/* vb_phase_issue runs issue(state) (graph.h) inside phase ph and waits for s once. */
int vb_phase_issue(enum vb_phase ph, vb_issue_fn issue, void *state, cudaStream_t s,
                   struct vb_err *err);

/* vb_phase_replay launches graph exec on s inside the graph phase and waits for it; without a
 * graph (graph.h's vb_graph_rung under the test switch) it issues the same calls, one wait. */
int vb_phase_replay(cudaGraphExec_t exec, vb_issue_fn issue, void *state, cudaStream_t s,
                    struct vb_err *err);

/* Setup phases: work of a case's setup worth reporting on its own (an NVRTC compile). Marked
 * for NVTX like a sample's phases and also timed on the host clock, so that `run` can show
 * them under the case whatever became of CUPTI's records (there may be no CUPTI, and a metrics
 * pass drops the records that precede it). Not nested; one thread. */
void vb_phase_setup_begin(enum vb_phase ph);
void vb_phase_setup_end(void);

/* vb_phase_setup_take writes the setup phases ended since the last take into buf as
 * "nvrtc compile 123.456 ms, module load 0.321 ms" ("" if none), forgets them, and returns
 * how many there were. buf may be NULL to only forget them. */
int vb_phase_setup_take(char *buf, size_t n);

#endif
