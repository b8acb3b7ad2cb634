/*
 * ab_explain: the counters that moved in the cases `varbench ab` calls slower or faster in a GPU
 * phase (moved.h). Its two sides time without the metrics pass: they run side by side on one
 * board, where two profiling sessions cannot. So each such case is run again by each side, one
 * after the other, alone (`EXE run --quick --metrics default` on that case, into the same
 * database: two more runs), and moved.h ranks what those two metrics passes measured against the
 * paired time ratio. Workload: two short runs a case that moved, a few seconds each.
 */
#ifndef VB_AB_EXPLAIN_H
#define VB_AB_EXPLAIN_H

#include "compare.h"

struct vb_store;

/* What the two sides were started with. */
struct vb_ab_sides {
    const char *exe[2]; /* A, B */
    const char *db;
    int device;
    char **extra; /* RUN-OPTIONS given after --, both sides' */
    int nextra;
};

/* vb_ab_explain fills r->moved for each row of res slower or faster in a GPU phase, at threshold
 * (never under VB_MOVED_THRESHOLD): the counters that moved, or why they were not measured ("not
 * measured: B's metrics run exited 5: ..."). st reads db. 0, or -1 with err (the database,
 * memory); a side whose run fails is said in its row, not an error. */
int vb_ab_explain(const struct vb_ab_sides *s, struct vb_store *st, struct vb_cmp_result *res,
                  double threshold, struct vb_err *err);

/* vb_ab_case_row: label's case ("family/variant axes") in rows[0..n), NULL when none. */
const struct vb_case_row *vb_ab_case_row(const struct vb_case_row *rows, int n, const char *label);

#endif
