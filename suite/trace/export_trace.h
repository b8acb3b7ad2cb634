/*
 * export_trace: one run of the database as a Chrome trace-event JSON file, the format PyTorch's
 * profiler (Kineto) writes and Perfetto (ui.perfetto.dev), chrome://tracing and Holistic Trace
 * Analysis read: a process per GPU with a track per CUDA stream (kernels, copies, memsets), a
 * process per traced host process with a track per thread (CUDA API calls, NVTX ranges nested
 * as pushed), arrows from each launching API call to its GPU records, and a "cases" track in
 * the run's own process. Kineto's categories, names and argument names are kept where they
 * fit (kernel, gpu_memcpy, gpu_memset, cuda_runtime, cuda_driver, user_annotation, ac2g).
 * Workload: up to millions of records, streamed from the store and written as they come; the
 * memory held is per case, GPU and track, never per record.
 */
#ifndef VB_EXPORT_TRACE_H
#define VB_EXPORT_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "store.h"

/* What an export wrote, and what the database holds of the same cases. */
struct vb_export_trace_stats {
    int64_t written[VB_EXPORT_KINDS]; /* events written, counted while writing */
    int64_t stored[VB_EXPORT_KINDS];  /* records stored, by COUNT queries */
    int64_t flows;                    /* arrows (one "s" each, one "f" per GPU record) */
    int64_t flow_ends;                /* their "f" events */
    int64_t spans;                    /* events of the "cases" track */
    int64_t clamped;     /* GPU records moved to start where the one before on its stream ends */
    int64_t clamped_max; /* the most one was moved, ns */
    int64_t lane_events; /* host events on an overlap lane (they overlap without nesting) */
    int64_t concurrent;  /* GPU records on a lane of their stream (they ran at the same time) */
    int64_t open_ranges; /* NVTX ranges never closed (drawn to their case's end) */
    int64_t origin_ns;   /* the timestamp written as 0 (CUPTI ns) */
    int ncases;
};

struct vb_export_trace;

/* vb_export_trace_open starts the export of run `run` of s, its cases chosen by glob
 * ("family/variant", glob.h's rule; NULL or "" all): reads the cases, GPUs and stored counts
 * and opens the store's walks, so that what can be refused is refused before a file is
 * written. run and glob must outlive it. 0 with *x (vb_export_trace_close), or -1 with err:
 * VB_E_USAGE when glob chooses no case, VB_E_DB, VB_E_SYS out of memory. */
int vb_export_trace_open(struct vb_store *s, const struct vb_run_row *run, const char *glob,
                         struct vb_export_trace **x, struct vb_err *err);
/* vb_export_trace_write writes the trace JSON to f, once, and fills *st (also on failure: what
 * was written). command_line is the export's own (kept in the file's "varbench" object).
 * 0, or -1 with err (VB_E_DB, VB_E_SYS: out of memory, a write that failed); what was written
 * before a failure is not valid JSON: the caller removes it. */
int vb_export_trace_write(struct vb_export_trace *x, FILE *f, const char *command_line,
                          struct vb_export_trace_stats *st, struct vb_err *err);
/* vb_export_trace_close frees x (NULL allowed). This can't fail. */
void vb_export_trace_close(struct vb_export_trace *x);

/* vb_export_trace_kind_name writes "12 kernels", "1 copy", "3 NVTX ranges", ... for n records
 * of kind k into buf; returns buf. */
char *vb_export_trace_kind_name(int k, int64_t n, char *buf, size_t size);

#endif
