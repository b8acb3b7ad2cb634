/*
 * trace_opts: `varbench trace`'s command line: its own options, nvprof's names for them
 * (nvprof_flags.h answers the rest), their checks, and the help, which carries the nvprof
 * mapping table. No side effects but the messages of a bad command line.
 */
#ifndef VB_TRACE_OPTS_H
#define VB_TRACE_OPTS_H

#include "capture.h"
#include "metric_set.h"
#include "samples.h"

#define VB_INJECT_LIB  "libvarbench_inject.so"
#define VB_PRELOAD_LIB "libvarbench_preload.so" /* beside VB_INJECT_LIB (cupti_mux.h) */

struct vb_trace_opts {
    const char *db;       /* the database (--db), or NULL with out */
    const char *out;      /* -o/--export-profile: a new database, %p and %q{ENV} not expanded */
    const char *name;     /* --name, or NULL */
    const char *metrics;  /* --metrics as given, or NULL */
    const char *log_file; /* --log-file, not expanded, or NULL */
    char metric_names[VB_MAX_METRICS * VB_METRIC_NAME]; /* resolved, comma-separated */
    int force, quiet;
    int all_apis;                           /* --all-api-calls: every call, not the set */
    int gpu_trace, api_trace, summary, csv; /* what is printed at the end (nvprof's modes) */
    const char *kinds;                      /* "api,gpu", "api" or "gpu" (--trace) */
    struct vb_capture capture;              /* --profile-from-start off, --capture-range */
    struct vb_trace_pick pick;              /* --range, --kernel: what makes samples */
    char **cmd;                             /* the command, NULL-terminated */
    int ncmd;
};

/* vb_trace_parse fills o from argv; returns 0, 1 when --help was printed, or an exit code >= 2
 * after saying what was wrong. Options end at the first argument that is not one (or "--"),
 * so the command's own options stay its own. */
int vb_trace_parse(int argc, char **argv, struct vb_trace_opts *o);

#endif
