/*
 * trace: what one process traced by `varbench trace` becomes in the database. A traced
 * process is one case of the pseudo family "trace" (no axes), its variant named after the
 * program (--name, or the script or binary the command runs), with one timed sample whose
 * window is the process's traced life, so every record it produced (kernels, copies, memsets,
 * NVTX ranges, API calls) falls inside it and the stages that read cases (report, compare,
 * export) take a program next to the suite's variants. Pure data: no CUDA, no CUPTI, so the
 * injection library, the command and the tests share it.
 */
#ifndef VB_TRACE_H
#define VB_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "activity.h"
#include "registry.h"
#include "result.h"

#define VB_TRACE_FAMILY "trace"

/* The environment `varbench trace` hands the traced program (and its children) and the
 * injection library reads. */
#define VB_TRACE_ENV_DB       "VARBENCH_TRACE_DB"       /* absolute path of the database */
#define VB_TRACE_ENV_RUN      "VARBENCH_TRACE_RUN"      /* the run id the cases belong to */
#define VB_TRACE_ENV_NAME     "VARBENCH_TRACE_NAME"     /* the variant name of the cases */
#define VB_TRACE_ENV_METRICS  "VARBENCH_TRACE_METRICS"  /* resolved metric names, comma-separated */
#define VB_TRACE_ENV_KINDS    "VARBENCH_TRACE_KINDS"    /* "api,gpu" (unset: both), "api", "gpu" */
#define VB_TRACE_ENV_CAPTURE  "VARBENCH_TRACE_CAPTURE"  /* capture.h's form; unset: "all" */
#define VB_TRACE_ENV_ALL_APIS "VARBENCH_TRACE_ALL_APIS" /* "1": every API call, not the set */
/* "1": the set recorded through the API kinds (on, the rest switched off) instead of function by
 * function: the way before, kept for the overhead benchmark to hold the two side by side */
#define VB_TRACE_ENV_API_BY_KIND "VARBENCH_TRACE_API_BY_KIND"

/* "1": the process varbench trace started itself (set in it, not inherited: its children unset
 * it), the one process of a job that needs no name among the others */
#define VB_TRACE_ENV_ROOT "VARBENCH_TRACE_ROOT"

/* Who a traced process is among its job's (its cases' last axis): its rank where the launcher
 * numbered it (the first of RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID, LOCAL_RANK that
 * holds a number: torchrun, Open MPI, MPICH and Intel MPI, srun), else its pid unless it is the
 * process varbench trace started, else nothing. A rank names the same process in every run of
 * the job (compare matches ranks); a pid does not. */
struct vb_trace_who {
    const char *axis; /* "rank", "pid", or NULL */
    long value;
};

/* vb_trace_who_get reads who this process is from its environment (root: it is the process
 * varbench trace started). */
void vb_trace_who_get(int root, struct vb_trace_who *w);

/* One traced case, owning everything r points to; the family has no ops: a traced case is
 * stored, never run. A whole process is one sample (its window); a sampled case (samples.h) is
 * one NVTX range's instances or one kernel's launches in a process, a sample each. Its axes: a
 * sampled case's "range" or "kernel" (the name, a label), then the process's (struct
 * vb_trace_who). Its members point into it: it is never moved once made. */
struct vb_trace_case {
    struct vb_family family;
    struct vb_variant variant;
    struct vb_problem problem;
    struct vb_axis axes[2];
    const char *labels[1]; /* axis 0's label of a sampled case: what */
    char label[96];
    char what[160]; /* a sampled case's range or kernel name */
    char how[256];  /* how the traced window ended: "exit (pid 1234)", ... (the stop reason) */
    struct vb_sample sample;   /* a whole process's one sample */
    struct vb_sample *samples; /* a sampled case's, owned (NULL for a whole process) */
    struct vb_case_result r;
};

/* vb_trace_label writes the default variant name for a command: the basename of the program,
 * or for an interpreter (python*, bash, sh, env, ...) of the script it runs ("t38.py"), or the
 * module of "python -m MOD". Never empty ("program" as the last resort). */
void vb_trace_label(int argc, char *const *argv, char *buf, size_t n);

/* vb_trace_case_init makes t the case of a process traced from start to end (CUPTI clock, ns)
 * that took the records of *a (moved into t: *a is zeroed), labelled `label`, its window
 * ending as `how` says. The window grows to hold every record. Statistics are those of one
 * sample: e2e is the window, kernel/H2D/D2H the sums of their records' durations. */
void vb_trace_case_init(struct vb_trace_case *t, const char *label, struct vb_activity *a,
                        uint64_t start, uint64_t end, const char *how);

/* vb_trace_case_untraced makes t the case of a process CUPTI could not trace (another CUPTI
 * client attached, no CUPTI): status skipped, no records, reason saying why. */
void vb_trace_case_untraced(struct vb_trace_case *t, const char *label, uint64_t start,
                            uint64_t end, const char *how, const char *reason);

/* vb_trace_collective: whether a kernel (CUPTI's name) is a collective's, whose time includes
 * waiting for the other ranks: NCCL's (ncclDevKernel_AllReduce_..., ncclKernel_...). */
int vb_trace_collective(const char *kernel);

/* vb_trace_case_who gives t's process its axis (after vb_trace_case_init or _untraced). */
void vb_trace_case_who(struct vb_trace_case *t, const struct vb_trace_who *w);

/* vb_trace_case_sampled makes t the case of n samples s (moved into t, s becomes t's) of the
 * range or kernel `what` (axis: "range" or "kernel") in a process labelled `label`, who w, on
 * device dev (-1: none), with or without CUPTI's records (have_records: its GPU phases are
 * known), `how` its stop reason. Statistics over the samples as the runner's
 * (vb_result_stats). Returns 0, or -1 when out of memory. */
int vb_trace_case_sampled(struct vb_trace_case *t, const char *label, const char *axis,
                          const char *what, const struct vb_trace_who *w, int dev, int have_records,
                          struct vb_sample *s, int n, const char *how);

void vb_trace_case_free(struct vb_trace_case *t);

#endif
