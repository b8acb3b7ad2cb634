/*
 * summary: nvprof's "Profiling result" for a run of the database, so a user of `nvprof python
 * t38.py` reads `varbench summary` without learning anything: the "GPU activities" table
 * (Time(%), Time, Calls, Avg, Min, Max, Name; copies as [CUDA memcpy HtoD], kernels by their
 * demangled names), the "API calls" table, NVTX ranges, and what nvprof never showed: the
 * exact bytes of every kind of copy. Reads the database only. Workload: a run of a few
 * processes with up to millions of records, aggregated by SQL into a few hundred lines.
 */
#ifndef VB_SUMMARY_H
#define VB_SUMMARY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "store.h"

/* vb_summary_print writes the run's header, its processes (cases) and the tables to out.
 * Returns 0, or -1 with err (database errors; VB_E_USAGE when the run does not exist). */
int vb_summary_print(FILE *out, struct vb_store *s, int64_t run_id, struct vb_err *err);

/* vb_summary_time formats a duration as nvprof does: "864ns", "1.1840us", "11.418ms", "2.5000s"
 * (five significant digits from a microsecond up); "-" when not finite. Returns buf. */
char *vb_summary_time(double ns, char *buf, size_t n);

/* vb_summary_api_name writes CUPTI's name of an API function without its version and
 * per-thread-stream suffixes, as nvprof showed it: "cudaMemcpy_v3020" -> "cudaMemcpy",
 * "cuMemcpyHtoDAsync_v2_ptsz" -> "cuMemcpyHtoDAsync". Returns buf. */
char *vb_summary_api_name(const char *cupti_name, char *buf, size_t n);

/* vb_summary_copy_name writes "[CUDA memcpy HtoD]" and the like for a CUpti_ActivityMemcpyKind. */
const char *vb_summary_copy_name(int copy_kind);

#endif
