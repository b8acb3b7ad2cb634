/*
 * samples: a traced process's units of work as the samples of cases that compare, history and
 * the report judge as they judge the suite's. A program already says what its unit of work is:
 * an NVTX range per step (PyTorch, JAX, CuPy and Numba users mark steps so). Each instance of a
 * picked range is one sample of the case "range=NAME" (then the process's rank or pid axis):
 *   e2e             the range's host time (its end minus its start: NVTX's clock, CLOCK_REALTIME)
 *   h2d, d2h,       the summed durations of the copies, kernels and memsets that the API calls
 *   kernel, memset  made inside the range launched (by correlation id: work launched in the step
 *                   and run after it counts for the step), on any thread of the process
 *   comm            of the kernel time, NCCL's collectives' (a rank's wait for the others is in it)
 * Without API records (a process that never started CUDA) a sample has its e2e only. Each launch
 * of a picked kernel is one sample of the case "kernel=NAME" (every phase its duration).
 * Pure data: no CUDA, no CUPTI, so the injection and the tests share it.
 * Workload: once per traced process, over up to millions of records: API calls are sorted by
 * start and GPU records by correlation id, each instance is two binary searches and its calls.
 */
#ifndef VB_TRACE_SAMPLES_H
#define VB_TRACE_SAMPLES_H

#include <stddef.h>

#include "activity.h"
#include "err.h"
#include "trace.h"

/* The environment that carries what to sample to the injection: names one a line (an NVTX name
 * may hold a comma). Ranges: "auto" (the default), "none", or names (with "auto" among them,
 * both); kernels: globs on the demangled name (or CUPTI's). */
#define VB_TRACE_ENV_RANGES  "VARBENCH_TRACE_RANGES"
#define VB_TRACE_ENV_KERNELS "VARBENCH_TRACE_KERNELS"

/* vb_trace_library_range: is a range of this NVTX domain (NULL: the default) and name a library's
 * own (NCCL's collectives, cuDNN's, cuBLAS's, ...: its domain, or without one its name, begins
 * with the library's name, case aside)? auto never picks one: its time is the library's waiting
 * on the program's (a collective waits for the slowest rank), not a unit of the program's work;
 * --range still names it. */
int vb_trace_library_range(const char *domain, const char *name);

/* auto: every range name with at least this many instances (fewer do not make a verdict: the
 * rank test needs 5 a side) */
#define VB_TRACE_MIN_INSTANCES 5
/* auto: the range names covering the most time, at most this many (a per-operator flood, as
 * torch's emit_nvtx makes, would otherwise be hundreds of cases) */
#define VB_TRACE_MAX_AUTO 16
/* named ranges and kernel globs, each */
#define VB_TRACE_MAX_NAMED 16
/* cases a kernel glob makes at most (one per kernel name it matches) */
#define VB_TRACE_MAX_KERNELS 32

struct vb_trace_pick {
    int automatic;
    int nranges, nkernels;
    char ranges[VB_TRACE_MAX_NAMED][128];
    char kernels[VB_TRACE_MAX_NAMED][256];
};

/* vb_trace_pick_add adds one name of --range ("auto", "none" or a range's name) or, with
 * kernel, one glob of --kernel. 0, or -1 with err (VB_E_USAGE: too many, too long, empty). */
int vb_trace_pick_add(struct vb_trace_pick *p, int kernel, const char *name, struct vb_err *err);

/* vb_trace_pick_parse reads the two environment values (NULL: the default, auto) into p.
 * 0, or -1 with err (VB_E_USAGE). */
int vb_trace_pick_parse(const char *ranges, const char *kernels, struct vb_trace_pick *p,
                        struct vb_err *err);

/* vb_trace_pick_format writes p's ranges (kernel 0) or kernels (1) as the environment carries
 * them. Returns buf. */
char *vb_trace_pick_format(const struct vb_trace_pick *p, int kernel, char *buf, size_t n);

/* vb_trace_pick_any: whether p samples anything (the injection then records the API calls the
 * attribution needs, as a capture range does). */
int vb_trace_pick_any(const struct vb_trace_pick *p);

/* vb_trace_sampled makes the sampled cases of one process from its records a (unchanged): one
 * per range name p picks that has instances, one per kernel name a glob matches, in that
 * order, each named as vb_trace_case_sampled says (label, w, dev; how: the process's stop
 * reason, "(pid N)" at its end), with GPU phases when have_records, but for a range instance
 * when lost_after is nonzero (where CUPTI's records end after another client took them: its
 * last API record when only those stopped, else its last kernel record) that began after it or
 * launched work CUPTI has no record of: its GPU phases are
 * unknown, NaN, and note counts those instances. *out is malloc'd (NULL when
 * none): the caller frees each case (vb_trace_case_free) and then the array. note gets what
 * was left out ("" when nothing). 0, or -1 when out of memory (nothing made). */
int vb_trace_sampled(const struct vb_activity *a, const struct vb_trace_pick *p, const char *label,
                     const struct vb_trace_who *w, int dev, int have_records, uint64_t lost_after,
                     const char *how, struct vb_trace_case **out, size_t *n, char *note, size_t nn);

#endif
