/*
 * ranks: the straggler of a traced multi-process job. In a step that ends in a collective (DDP's
 * all-reduce), every rank's step lasts as long as the slowest rank's: the others wait inside
 * NCCL's kernels. A rank's own time in a step is therefore its step's host time minus its
 * collective kernels' time (samples.h: e2e - comm); the rank with the most own time is that
 * step's straggler. Per range that two or more ranks of a traced run sampled (the cases
 * "range=NAME,rank=R" of one program), steps are aligned by their order (the k-th instance of
 * every rank), and the rank slowest in the most steps is named with its median own time beside
 * the other ranks'. Without collectives, own time is the step's host time. Read by summary,
 * report and export. Workload: a run's few dozen cases, their samples read once.
 */
#ifndef VB_RANKS_H
#define VB_RANKS_H

#include <stddef.h>

#include "store.h"

/* One range of one program across its ranks. */
struct vb_rank_spread {
    char variant[160];                    /* "trace/torchrun" */
    char range[160];                      /* the range's name */
    int nranks, nsteps;                   /* ranks with the range; steps all of them have */
    long slowest;                         /* the rank slowest in the most steps */
    int slowest_steps;                    /* in how many */
    double own_slowest_ms, own_others_ms; /* medians over the steps of its own time, and of the
                                             other ranks' median own time */
    double step_ms;                       /* median over the steps of the longest rank's step */
};

/* vb_rank_of: whether c is a sampled range case of a ranked traced process ("range=NAME,rank=R",
 * ok), with *range pointing at its range's name (in c) and *rank its rank. */
int vb_rank_of(const struct vb_case_row *c, const char **range, long *rank);

/* vb_rank_job_steps makes the job's steps of one range from the range's cases ids[0..n) of one
 * run (a rank each): step k is the k-th instance of every rank, lasting as long as the longest
 * of them (the step as its slowest rank lived it). *steps is malloc'd (caller frees), *nsteps the
 * fewest instances a rank has. 0, or -1 with err. */
int vb_rank_job_steps(struct vb_store *s, const int64_t *ids, int n, double **steps, int *nsteps,
                      struct vb_err *err);

/* vb_rank_spreads returns (malloc'd, caller frees) one spread per range of run run_id that two
 * or more ranks sampled, ordered by program then range. 0, or -1 with err. */
int vb_rank_spreads(struct vb_store *s, int64_t run_id, struct vb_rank_spread **out, int *n,
                    struct vb_err *err);

/* vb_rank_spread_text writes x as one line of text: "trace/torchrun range 'step': 4 ranks, 20
 * steps; slowest rank 1 in 19 of 20 steps, its own time (step minus NCCL) 45.2 ms against 12.3
 * ms for the other ranks (+267%); step 48.1 ms". Returns buf. */
char *vb_rank_spread_text(const struct vb_rank_spread *x, char *buf, size_t n);

#endif
