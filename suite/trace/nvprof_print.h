/*
 * nvprof_print: nvprof's print modes over a run of the database, for `varbench summary` and
 * `varbench trace`: --print-gpu-trace (every kernel, copy and memset of each process in start
 * order, nvprof's columns, sizes in exact bytes), --print-api-trace (every CUDA API call),
 * --print-summary (summary.h's tables), each as text or as nvprof's --csv. Reads the database
 * only. Workload: processes of up to millions of records, streamed from the store (twice for
 * aligned text: once to measure the columns, once to print), never held in memory.
 */
#ifndef VB_NVPROF_PRINT_H
#define VB_NVPROF_PRINT_H

#include <stdint.h>
#include <stdio.h>

struct vb_err;
struct vb_store;

/* What to print. All zero: the summary alone, as `varbench summary` prints by default. */
struct vb_print_opts {
    int summary;   /* --print-summary: the summary tables (also when a trace is asked) */
    int gpu_trace; /* --print-gpu-trace */
    int api_trace; /* --print-api-trace */
    int csv;       /* --csv: every table as nvprof --csv writes it */
    int no_head;   /* leave out the run's heading lines (a caller that printed its own) */
    int rank;      /* the summary tables of this rank's processes only; -1 (set it): all */
    /* after the heading, what the caller adds to it (the straggler lines of a multi-rank job,
     * which judge/ reads); NULL: nothing. 0 or -1 with err. */
    int (*after_head)(FILE *out, struct vb_store *s, int64_t run_id, int csv, struct vb_err *err);
};

/* vb_nvprof_print writes run run_id to out: its heading (unless o->no_head), then, in nvprof's
 * order, the GPU trace of each process (case), the API trace of each, and the summary (when
 * asked, or when no trace is). A process's section starts "==PID== Profiling application: NAME"
 * and "==PID== Profiling result:" (PID the traced process's id; "case ID" for a case of a suite
 * run, which names no process). Returns 0, or -1 with err (database errors; VB_E_USAGE when the
 * run does not exist). Output errors are the caller's to check (ferror). */
int vb_nvprof_print(FILE *out, struct vb_store *s, int64_t run_id, const struct vb_print_opts *o,
                    struct vb_err *err);

/* vb_nvprof_mem_kind names a CUpti_ActivityMemoryKind as nvprof's SrcMemType and DstMemType
 * columns do: "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed
 * Static"; "Unknown" for 0 or a kind it does not know, "-" for none (-1). */
const char *vb_nvprof_mem_kind(int kind);

#endif
