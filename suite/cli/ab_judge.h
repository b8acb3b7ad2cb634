/*
 * ab_judge: a case of `varbench ab` judged on its rounds (cmd_ab.c gathers them): each phase on
 * its rounds' medians as measured and against the controls each side measured beside them
 * (norm.h), every series by paired.h's rule, combined as compare combines them; then the case's
 * row as compare's table prints it. Workload: a case's phases after each of up to 200 rounds.
 */
#ifndef VB_AB_JUDGE_H
#define VB_AB_JUDGE_H

#include "compare.h"
#include "control.h"
#include "paired.h"
#include "result.h"

#define VB_AB_MAX_ROUND 200 /* --rounds' largest MAX */
#define VB_AB_LABEL     512

/* What one paired case gathered: each round's medians of each side, per phase and control. */
struct vb_paired_case {
    char label[VB_AB_LABEL];
    int rounds;
    double v[2][VB_PH_COUNT][VB_AB_MAX_ROUND];
    double ctl[2][VB_CTL_COUNT][VB_AB_MAX_ROUND]; /* NaN: the side did not measure it */
    struct vb_paired raw[VB_PH_COUNT];            /* each phase's rounds as measured */
    struct vb_paired ph[VB_PH_COUNT];             /* the series that decides (norm.h) */
    char by[VB_PH_COUNT][8];                      /* its name when it is not the raw one */
    int judged[VB_PH_COUNT];
    int pageable[2][2]; /* each side's copies moved pageable host memory: to [0], from [1] */
};

/* vb_ab_judge judges every judged phase of c over its rounds (a GPU case: its GPU time, each
 * part of 5% of it or more in A's first round, and e2e; a CPU case: e2e), each on its series, at
 * threshold (and never under 0.5 us, 5 us for e2e) with intervals of coverage 1 - alpha. 1 when
 * every phase is decided, 0 when one is noisy yet, -1 with err when memory runs out. */
int vb_ab_judge(struct vb_paired_case *c, double threshold, double alpha, struct vb_err *err);

/* vb_ab_fill_row fills row r from c's judged phases, the deciding one as compare decides it, held
 * by its GPU code (same: code_diff.h's vb_code_hold). This can't fail. */
void vb_ab_fill_row(struct vb_cmp_row *r, const struct vb_paired_case *c, int same);

#endif
