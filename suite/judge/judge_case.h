/*
 * judge_case: one matched case of compare judged (compare.h's rule): both sides' timed samples
 * read once, each phase judged on each series it has against its controls (norm.h), the phases
 * combined into the row's verdict, held by its GPU code (code_diff.h) and the board's ledger
 * (environ.h). compare.c matches the cases and makes the rows; this fills one.
 * Workload: per case, its samples and each side's pooled samples, a few phases and series.
 */
#ifndef VB_JUDGE_CASE_H
#define VB_JUDGE_CASE_H

#include "compare.h"
#include "norm.h"

/* The base side of a case: the base run's case, then its matches in the pooled runs. */
struct vb_cmp_pool {
    int64_t id[VB_CMP_MAX_POOL];
    int n;
};

/* vb_cmp_judge_case fills r's phases and verdict from the two cases' samples: b of store base
 * (its samples those of the cases bp: b's, then its pooled matches) and c of store cand, under
 * o; cb, cc: each run's ceilings (the controls of a run before them; NULL unknown); ranked: c is
 * a rank of a multi-rank job's range (judged on its own time and compute, compare.h). A case not
 * ok in the base, skipped in the candidate or a whole traced process is not-compared; one not ok
 * in the candidate broken. 0, or -1 with err (the database, memory). */
int vb_cmp_judge_case(struct vb_store *base, const struct vb_case_row *b,
                      const struct vb_cmp_pool *bp, struct vb_store *cand,
                      const struct vb_case_row *c, const struct vb_cmp_opts *o,
                      const struct vb_ceil_set *cb, const struct vb_ceil_set *cc, int ranked,
                      struct vb_cmp_row *r, struct vb_err *err);

/* vb_cmp_judge_values judges one series of phase, the values b[0..nb) against c[0..nc) (sorted
 * here, in place) into ph, at the threshold alone when traced (a traced program's instances),
 * else at the threshold and 3x its spread. This can't fail. */
void vb_cmp_judge_values(const char *phase, double *b, int nb, double *c, int nc, int traced,
                         const struct vb_cmp_opts *o, struct vb_cmp_phase *ph);

#endif
