/*
 * report: turns runs of a database into a folder a person reads: index.html and report.md
 * embedding gnuplot SVGs and their tables. Per family and device, where the time of each
 * variant goes (H2D, kernel, D2H, the rest on the host), size sweeps drawn against the
 * device's own measured floors (pinned D2H, HBM), the CPU-vs-GPU crossover, a sentence per
 * ladder step, and across devices the same cases in ms and as a fraction of each device's
 * floor, then the hardware metric stored per case. Programs traced with `varbench trace` get a
 * section of their own with the same columns, so a Python program and the suite's variants
 * read side by side. Reads the database only: runs anywhere, GPU or not. Workload: a few runs
 * of up to a few hundred cases; every name from the database is escaped (HTML, Markdown) or
 * reduced to safe characters (gnuplot).
 */
#ifndef VB_REPORT_H
#define VB_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "store.h"

struct vb_report_opts {
    const int64_t *runs; /* run ids; NULL: the newest complete run (vb_store_latest_run), then
                          * the newest of each other GPU model and traced command */
    int nruns;
    const char *outdir;
    const char *gnuplot; /* the gnuplot program ("gnuplot") */
    int no_plots;        /* tables and text only: gnuplot is not needed */
    FILE *summary;       /* where the section list and a three-line summary go, or NULL */
};

/* vb_report_write writes outdir/index.html, outdir/report.md and the SVGs (with their .dat
 * and .gp sources; none with no_plots). Returns 0, or -1 with err (VB_E_SYS when gnuplot is
 * missing or fails, VB_E_DB for database errors, VB_E_USAGE for unknown runs). */
int vb_report_write(struct vb_store *s, const struct vb_report_opts *o, int *nplots,
                    struct vb_err *err);

#endif
