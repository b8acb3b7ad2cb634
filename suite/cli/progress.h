/*
 * progress: the one updating line `varbench run` keeps on a terminal's stderr,
 * "[37/85] gufunc/column-sliced rows=16000000 ... 1m10s left", cleared before anything else is
 * printed. The time left is eta.h's estimate when the run gives its plan, else elapsed over
 * cases done. Silent when stderr is not a terminal (CI logs get the table only), unless
 * VARBENCH_PROGRESS=lines: then one plain line per case, with the time elapsed, so that a log
 * can hold the estimate against the time the run really had left.
 */
#ifndef VB_PROGRESS_H
#define VB_PROGRESS_H

#include <stdio.h>

#include "eta.h"

struct vb_progress {
    int on;             /* stderr is a terminal, or lines */
    int lines;          /* VARBENCH_PROGRESS=lines: a plain line per case */
    int total, done;    /* cases */
    double t0, case_t0; /* monotonic seconds at the start, and at the running case's */
    int shown;          /* a line is on the screen */
    struct vb_eta *eta; /* the plan and its estimates (NULL: elapsed over cases done) */
};

/* vb_progress_wanted: will a progress line be shown on out (a terminal, or lines)? The caller
 * then builds the plan's estimate; nothing is spent on it otherwise. */
int vb_progress_wanted(FILE *out);

/* vb_progress_begin starts counting total cases; on only when vb_progress_wanted(out). eta (may
 * be NULL) holds the plan of exactly those cases, in run order; the caller owns it. */
void vb_progress_begin(struct vb_progress *p, FILE *out, int total, struct vb_eta *eta);
/* vb_progress_case shows the case about to run (label: "family/variant axes"). */
void vb_progress_case(struct vb_progress *p, const char *label);
/* vb_progress_clear erases the line (call before printing to the terminal). */
void vb_progress_clear(struct vb_progress *p);
/* vb_progress_done counts one finished case (and gives the estimate its time). */
void vb_progress_done(struct vb_progress *p);

#endif
