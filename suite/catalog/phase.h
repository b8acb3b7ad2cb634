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
#include "varbench.h"
#include "nvtx.h"

/* The phases, their waits and copies, graph capture and setup phases are public
 * (varbench.h). */

/* vb_phase_setup_take writes the setup phases ended since the last take into buf as
 * "nvrtc compile 123.456 ms, module load 0.321 ms" ("" if none), forgets them, and returns
 * how many there were. buf may be NULL to only forget them. */
int vb_phase_setup_take(char *buf, size_t n);

/* vb_phase_unroll_graphs(1) makes vb_phase_replay issue a graph's calls on the stream instead
 * of launching the graph, until vb_phase_unroll_graphs(0), on the calling thread (a thread of
 * its own each: another thread's samples keep their graphs); each returns how many graph
 * launches were issued that way since the last call. The metrics pass needs it: CUPTI's range
 * profiler fails a graph launch under auto range and user replay (cuptiRangeProfilerStop:
 * CUPTI_ERROR_UNKNOWN, H200, CUPTI 13.0), and under kernel replay it reads the SASS counters of
 * a graph's kernels as 0 (store efficiency 0.0% where the same kernels launched one by one read
 * 100%); the same kernels with the same arguments launched one by one are what the counters
 * describe. */
int vb_phase_unroll_graphs(int on);

#endif
