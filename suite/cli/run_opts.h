/*
 * run_opts: `varbench run`'s options: the usage text, their parsing into struct vb_run_opts
 * (the sampling rule, the metrics, the axes, the hidden worker options of --device all and of
 * varbench ab) and the line of them stored with the run. cmd_run.c does the run.
 */
#ifndef VB_RUN_OPTS_H
#define VB_RUN_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "axes.h"
#include "eta.h"
#include "opt.h"
#include "progress.h"
#include "run_metrics.h"
#include "runner.h"

struct vb_run_opts {
    const char *filter, *db;
    int device;         /* -1: all */
    const char *worker; /* --worker RUN:DEVICE (hidden): a worker of a `--device all` run */
    int64_t worker_run; /* its run; 0: not a worker */
    struct vb_overrides axes;
    struct vb_sampling sampling;
    struct vb_run_metrics metrics;
    struct vb_progress progress;
    struct vb_eta eta; /* the progress line's plan and estimates */
    int quick;
    const char *ab; /* --ab-worker RFD,WFD (hidden): a side of varbench ab (ab_worker.h) */
};

extern const struct vb_usage vb_run_usage;

/* vb_run_opts_parse fills o from argv; returns 0, 1 for --help (printed), or an exit code >= 2
 * (the error printed). */
int vb_run_opts_parse(int argc, char **argv, struct vb_run_opts *o);

/* vb_run_opts_line writes the options stored with the run ("filter=* device=0 quick=0 ..."). */
void vb_run_opts_line(const struct vb_run_opts *o, char *buf, size_t n);

#endif
