/*
 * report: turns runs of a database into a folder a person reads: index.html and report.md
 * embedding gnuplot SVGs and their tables. Per family, problem, point and device: a sentence
 * per ladder step, the ladder on a log axis against each rung's floor, a timeline of one
 * sample of each variant, the case table; size sweeps against the device's measured floors.
 * Programs traced with `varbench trace` grouped by program (GPU time, timeline, metrics).
 * Across devices, each case's measured ratio beside the one its bound predicts; the stored
 * hardware metrics; each GPU case's history over the database's runs with its change points. Reads
 * the database only: runs anywhere, GPU or not. Workload: a few runs of up to a few hundred cases;
 * every name from the database is escaped (HTML, Markdown) or reduced to safe characters (gnuplot).
 */
#ifndef VB_REPORT_H
#define VB_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "store.h"

struct vb_fleet_task;

struct vb_report_opts {
    const int64_t *runs; /* run ids; NULL: the newest complete run (vb_store_latest_run), then
                          * the newest of each other GPU model and traced command */
    int nruns;
    const char *outdir;
    const char *gnuplot; /* the gnuplot program ("gnuplot") */
    int no_plots;        /* tables and text only: gnuplot is not needed */
    FILE *summary;       /* where the section list and a three-line summary go, or NULL */
    /* a fleet's tasks (fleet_tasks.h; `varbench fleet merge`), shown first as the Fleet
     * section, or NULL; with nruns 0 and no run in the database, the report is that alone */
    const struct vb_fleet_task *fleet;
    int nfleet;
};

/* vb_report_write writes outdir/index.html, outdir/report.md and the SVGs (with their .dat
 * and .gp sources; none with no_plots). Returns 0, or -1 with err (VB_E_SYS when gnuplot is
 * missing or fails, VB_E_DB for database errors, VB_E_USAGE for unknown runs). */
int vb_report_write(struct vb_store *s, const struct vb_report_opts *o, int *nplots,
                    struct vb_err *err);

#endif
