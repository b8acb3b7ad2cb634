/*
 * progress: the one updating line `varbench run` keeps on a terminal's stderr,
 * "[37/85] gufunc/column-sliced rows=16000000 ... 1m10s left", cleared before anything else is
 * printed. Silent when stderr is not a terminal (CI logs get the table only).
 */
#ifndef VB_PROGRESS_H
#define VB_PROGRESS_H

#include <stdio.h>

struct vb_progress {
    int on;          /* stderr is a terminal */
    int total, done; /* cases */
    double t0;       /* monotonic seconds at the start */
    int shown;       /* a line is on the screen */
};

/* vb_progress_begin starts counting total cases; on only when `out` is a terminal. */
void vb_progress_begin(struct vb_progress *p, FILE *out, int total);
/* vb_progress_case shows the case about to run (label: "family/variant axes"). */
void vb_progress_case(struct vb_progress *p, const char *label);
/* vb_progress_clear erases the line (call before printing to the terminal). */
void vb_progress_clear(struct vb_progress *p);
/* vb_progress_done counts one finished case. */
void vb_progress_done(struct vb_progress *p);

#endif
