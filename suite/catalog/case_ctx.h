/*
 * case_ctx: what a benchmark's hooks say about the case they run in, beside its samples: named
 * numbers (varbench.h's vb_summary) and a skip (vb_skip). One case at a time per thread: the
 * runner opens the context before setup and takes it after teardown.
 */
#ifndef VB_CASE_CTX_H
#define VB_CASE_CTX_H

#include "varbench.h"

/* One named number a benchmark reports beside its times (nvbench's add_summary). */
#define VB_MAX_SUMMARIES    16
#define VB_SUMMARY_NAME_MAX 64
struct vb_summary_value {
    char name[VB_SUMMARY_NAME_MAX]; /* [A-Za-z0-9_.-], not a column of cases */
    char unit[16];                  /* free text ("GB/s", "iters"), or "" */
    double value;
};

/* What the hooks said: the summaries in the order first given, whether vb_skip was called, and
 * the first misuse (a bad name, too many summaries): "" when none. */
struct vb_case_said {
    struct vb_summary_value summaries[VB_MAX_SUMMARIES];
    int nsummaries;
    int skipped;
    char misuse[256];
};

/* vb_case_ctx_open starts a case's context on this thread (forgetting the last one's). */
void vb_case_ctx_open(void);
/* vb_case_ctx_take copies what the hooks said since the open into *out and closes it. */
void vb_case_ctx_take(struct vb_case_said *out);

#endif
