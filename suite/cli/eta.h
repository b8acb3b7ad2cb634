/*
 * eta: the time a run has left, estimated from the cases it has run (the progress line's "1m10s
 * left"). Elapsed time over cases done is wrong both ways when the cases differ: the default
 * catalog's first tenth is small calx cases and its last third the CPU references at 1e8
 * elements (36 s of 50 here), so it said "4 s left" with 75 s to go. The estimate is made per
 * case instead, from what was learnt of cases like it:
 *   - a CPU case (a single-core reference) costs its samples, a setup that grows with its
 *     elements, and a constant: the samples are its verified one and those the CPU sampling rule
 *     takes (at least 3, until 0.2 s: struct vb_eta_rule), each as long as its problem's
 *     reference timed once on this machine before the run (cmd_run.c: a family not yet reached
 *     is priced by what its own reference costs here, which differs 10x between families); the
 *     rest (inputs, the reference's answer) is its group's (family and problem) largest case
 *     done like it (run, or skipped by --quick over the budget)'s time past its samples, in
 *     proportion to the elements; a group with none yet takes a setup per element and a
 *     constant fitted over the CPU cases done;
 *   - a GPU case costs what the GPU cases done of its group cost, linear in its elements when
 *     they differ; without any, the median GPU case done (a skipped one costs nothing).
 * Pure data: the caller times the cases. Workload: a few hundred cases, refitted per case.
 */
#ifndef VB_ETA_H
#define VB_ETA_H

struct vb_eta_case {
    int group;      /* the family and problem, numbered by the caller */
    int gpu;        /* a GPU case (else a CPU one) */
    double work;    /* its elements (out_len) */
    double sample;  /* CPU: one sample's seconds, its reference's as calibrated; 0 unknown */
    double seconds; /* its time, once done; < 0 before */
};

/* The CPU sampling rule (runner.h's vb_sampling): after the verified sample, timed samples
 * until min_samples and min_time, past budget only to reach min_samples, never past cap s or
 * max_samples samples. */
struct vb_eta_rule {
    int min_samples, max_samples;
    double min_time, budget, cap;
};

struct vb_eta {
    struct vb_eta_case *c;
    int n, cap;
    struct vb_eta_rule rule;
};

/* vb_eta_add appends a case of the plan, in run order. 0, or -1 when out of memory. */
int vb_eta_add(struct vb_eta *e, int group, int gpu, double work, double sample);

/* vb_eta_samples_time: the seconds of a CPU case's samples under e's rule, each `sample` s. */
double vb_eta_samples_time(const struct vb_eta *e, double sample);

/* vb_eta_done records case i's time. */
void vb_eta_done(struct vb_eta *e, int i, double seconds);

/* vb_eta_left estimates the seconds left: cases from..n-1, case `from` having run `elapsed`
 * seconds so far. -1 while it cannot be honest: fewer than 3 cases done, or more than a quarter
 * of the estimate in CPU cases left whose estimates would stretch what was measured more than 10
 * times in elements (its problem's largest case done like it, or every CPU case's when its problem
 * has none; a
 * --quick skip only by one of its problem's; measured: two small calx cases stretched to 1e8
 * elements said 54 minutes of a 55 s run). */
double vb_eta_left(const struct vb_eta *e, int from, double elapsed);

/* vb_eta_case_estimate: the estimate of case i alone (seconds; -1 unknown). */
double vb_eta_case_estimate(const struct vb_eta *e, int i);

void vb_eta_free(struct vb_eta *e);

#endif
