/*
 * diagnose: the boards of a fleet held against a baseline's boards (SuperBench's `sb result
 * diagnosis`: a baseline value per metric and a rule per metric; a node whose value varies from
 * the baseline beyond the rule's threshold is flagged). Ours: the baseline is every board of
 * the baseline database's complete suite runs (or of one run); per case and GPU model its value
 * is the median over the baseline's boards of that model and its spread their [min, max]. A
 * fleet board of that model is flagged on a case when its time (boards.h: kernel when the
 * case's floor is the kernel's, else end to end) lies above that range widened by a margin:
 * the larger of the threshold and VB_DIAG_NOISE_FACTOR times the case's own noise
 * within a run (the largest IQR/median of its timed samples over up to VB_DIAG_NOISE_BOARDS of
 * the baseline's boards), so a case that does not settle inside a run is not flagged for its
 * noise; a case judged end to end (its floor is not the kernel's: copies, host work) at least
 * VB_DIAG_HOST_FLOOR: boards hold no controls of one another (on the H200 x2 a board alone ran
 * ufunc/clamp-gridstride n=1e6 +28% over both boards of the --device all baseline, 7x its
 * noise, while every kernel-floored case stayed in range). A board faster than the range is
 * counted, not flagged: the job is finding the slow board, and a host-bound case (pageable copies)
 * runs faster alone than beside 7 other workers (H200 x2: a board measured alone against the
 * --device all baseline ran ufunc/gaussian-host -54%). Boards of a model the baseline lacks are
 * listed, not judged.
 *
 * Workload: a fleet database of 64 nodes of 8 GPUs against a baseline of a few nodes; one
 * sample query per baseline case and board (at most VB_DIAG_NOISE_BOARDS boards a case).
 */
#ifndef VB_DIAGNOSE_H
#define VB_DIAGNOSE_H

#include "boards.h"

/* The margin is at least this many times the case's noise (IQR/median): compare's factor. */
/* ... and, for a case judged end to end, at least this (a doubling): see above */
#define VB_DIAG_HOST_FLOOR   1.0
#define VB_DIAG_NOISE_FACTOR 3.0
/* The baseline boards a case's noise is read from: the first of its boards, at most this many. */
#define VB_DIAG_NOISE_BOARDS 8

struct vb_diag_opts {
    double threshold; /* least margin, relative (0.05) */
    int64_t base_run; /* the baseline's run; 0: every complete suite run of it */
    int64_t run;      /* the fleet's run; 0: every complete suite run of it */
};
void vb_diag_opts_default(struct vb_diag_opts *o);

/* One case of a judged board against the baseline. */
struct vb_diag_case {
    char variant[160], axes[256];
    double value;  /* ns: the board's time */
    double median; /* ns: the baseline boards' median */
    double lo, hi; /* ns: the baseline boards' [min, max] widened by margin */
    double margin; /* max(threshold, VB_DIAG_NOISE_FACTOR x noise) */
    double dev;    /* value / median - 1 */
    int outside;   /* above the range */
};

struct vb_diag_board {
    struct vb_board b;         /* the fleet's board: label, model, run, device, bus */
    int judged;                /* 0: its model is not in the baseline */
    int checked, outside;      /* its cases held against the baseline; those above the range */
    int faster;                /* its cases below the range (not flagged) */
    struct vb_diag_case worst; /* the checked case furthest from the median (checked > 0) */
    struct vb_diag_case *out;  /* the cases outside, furthest first (outside of them; owned) */
};

struct vb_diag_result {
    int64_t *base_runs, *runs; /* the runs read on each side, oldest first (owned) */
    int nbase_runs, nruns;
    int base_boards;       /* boards of the baseline */
    char base_models[512]; /* "NVIDIA H200: 3 boards", "; " between models */
    char left_out[2][512]; /* runs not complete, left out: [0] baseline, [1] fleet ("" none) */
    struct vb_diag_board *boards;
    int n;
    int judged, flagged; /* boards judged; of those, boards with a case outside */
};

/* vb_diagnose judges the boards of the fleet's runs against the baseline's (see above) into
 * *res (free with vb_diag_result_free; empty on failure). Refuses (VB_E_USAGE), saying what
 * and how to fix it: a named run the database lacks or that is not a complete suite run; a side
 * with no complete suite run or no GPU case; no GPU model in common; nothing comparable (no
 * case of a judged board ok and timed in the baseline). 0 or -1 (VB_E_DB, VB_E_SYS). */
int vb_diagnose(struct vb_store *base, struct vb_store *fleet, const struct vb_diag_opts *o,
                struct vb_diag_result *res, struct vb_err *err);
void vb_diag_result_free(struct vb_diag_result *res);

#endif
