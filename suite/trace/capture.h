/*
 * capture: which part of a traced process `varbench trace` keeps, as nvprof's
 * --profile-from-start off (between cudaProfilerStart and cudaProfilerStop) and nsys's
 * --capture-range nvtx (inside the NVTX ranges of one name). CUPTI records the whole process
 * either way (starting and stopping it around each range would need a CUPTI subscriber, which
 * would lock out a CUPTI client of the program's own); at the process's exit the records are
 * cut to the capture windows, so the database holds what the user asked for. Pure data: no
 * CUDA, no CUPTI, so the injection and the tests share it.
 * Workload: once per traced process, over up to millions of records: windows are merged and
 * sorted, correlation ids are looked up by binary search.
 */
#ifndef VB_CAPTURE_H
#define VB_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "activity.h"
#include "err.h"

enum vb_capture_kind {
    VB_CAPTURE_ALL,          /* from CUDA's start to the exit (the default) */
    VB_CAPTURE_PROFILER_API, /* between cu/cudaProfilerStart and cu/cudaProfilerStop */
    VB_CAPTURE_NVTX,         /* inside every NVTX range named `nvtx` */
};

struct vb_capture {
    enum vb_capture_kind kind;
    char nvtx[128];
};

/* vb_capture_parse reads "all", "cudaProfilerApi" or "nvtx:NAME" (the form --capture-range
 * takes and the injection's environment carries). 0, or -1 with err (VB_E_USAGE). */
int vb_capture_parse(const char *s, struct vb_capture *c, struct vb_err *err);

/* vb_capture_format writes the form vb_capture_parse reads. Returns buf. */
char *vb_capture_format(const struct vb_capture *c, char *buf, size_t n);

/* What a capture kept. */
struct vb_capture_result {
    size_t windows;       /* capture windows found (0: none began: nothing is kept) */
    uint64_t first, last; /* the first window's start and the last one's end (when windows) */
    size_t dropped;       /* records outside every window, removed */
};

/* vb_capture_apply removes from a the records outside c's windows; `end` closes a window still
 * open at the exit. An API call is kept when it starts inside a window; a kernel, copy or
 * memset when the API call that launched it (same correlation id) is kept, or, without one,
 * when it starts inside a window; an NVTX range when it overlaps one; device records always.
 * With VB_CAPTURE_ALL nothing changes. Windows need a's API records (cu/cudaProfilerStart and
 * Stop) or NVTX ranges. Returns 0, or -1 when out of memory (a is unchanged). */
int vb_capture_apply(struct vb_activity *a, const struct vb_capture *c, uint64_t end,
                     struct vb_capture_result *res);

#endif
