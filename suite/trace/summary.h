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

/* vb_summary_print writes the run's heading (vb_summary_head) and its tables
 * (vb_summary_tables) to out, as text: nvprof's summary mode. Returns 0, or -1 with err
 * (database errors; VB_E_USAGE when the run does not exist). */
int vb_summary_print(FILE *out, struct vb_store *s, int64_t run_id, struct vb_err *err);

/* vb_summary_head writes the run's heading: what ran, how it ended, one line per process
 * (case), and per traced process that recorded it what tracing cost it ("==varbench== tracing
 * cost (pid 1234): CUPTI start 85.3 ms, ..."). With csv, every line is a section line
 * ("==varbench== ...") and the costs are a CSV table. 0 or -1 with err, as vb_summary_print. */
int vb_summary_head(FILE *out, struct vb_store *s, int64_t run_id, int csv, struct vb_err *err);

/* vb_summary_tables writes "==varbench== Profiling result:" and the tables: GPU activities,
 * API calls and NVTX ranges, the data moved, the metrics; with csv as nvprof --csv writes them
 * (each table after its section line: a quoted header, a units row, the rows, times in us);
 * of the processes of that rank (rank >= 0) or of all (-1).
 * 0 or -1 with err, as vb_summary_print. */
int vb_summary_tables(FILE *out, struct vb_store *s, int64_t run_id, long rank, int csv,
                      struct vb_err *err);

/* vb_summary_time formats a duration as nvprof does: "864ns", "1.1840us", "11.418ms", "2.5000s"
 * (five significant digits from a microsecond up); "-" when not finite. Returns buf. */
char *vb_summary_time(double ns, char *buf, size_t n);

/* vb_summary_api_name writes CUPTI's name of an API function without its version and
 * per-thread-stream suffixes, as nvprof showed it: "cudaMemcpy_v3020" -> "cudaMemcpy",
 * "cuMemcpyHtoDAsync_v2_ptsz" -> "cuMemcpyHtoDAsync". Returns buf. */
char *vb_summary_api_name(const char *cupti_name, char *buf, size_t n);

/* vb_summary_kernel_name writes a kernel's demangled name ("saxpy(int, float, float const*,
 * float*)"), or the name as given when it is not a C++ mangled name or cannot be demangled.
 * Returns buf. */
char *vb_summary_kernel_name(const char *mangled, char *buf, size_t n);

/* vb_summary_demangle is vb_summary_kernel_name into a malloc'd string the caller frees (no
 * length limit); NULL when out of memory. */
char *vb_summary_demangle(const char *mangled);

/* vb_summary_pid returns the process id of a traced case (its stop reason ends with "(pid
 * 1234)"), or -1 for a case that names none (a case of a suite run). */
long vb_summary_pid(const struct vb_case_row *c);

/* vb_summary_copy_name writes "[CUDA memcpy HtoD]" and the like for a CUpti_ActivityMemcpyKind. */
const char *vb_summary_copy_name(int copy_kind);

#endif
