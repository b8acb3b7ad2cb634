/*
 * ab_worker: one side of `varbench ab` (cmd_ab.c): a `varbench run`, or a user benchmark's
 * `run`, started by ab with the hidden option --ab-worker RFD,WFD (the two ends of its pipes),
 * whose cases take their timed samples in the rounds ab paces (runner.h's vb_rounds). The
 * protocol, a line at a time (LABEL: "family/variant axes"):
 *   worker -> ab   "run ID" (its run in the database), "plan KIND LABEL" for each case it
 *                  will make, in order (KIND: gpu, cpu, or nodev for a GPU variant it records
 *                  as skipped, having no device), then "planned N"
 *                  "case LABEL" when a case has verified and warmed up (a case that failed or
 *                  was skipped before never says so)
 *                  "medians GPU H2D KERNEL D2H MEMSET E2E PH PD CPU MEM CH2D CD2H" after each
 *                  round: the round's medians, ns ("nan": unknown); PH, PD 1 when the case's
 *                  copies so far moved pageable host memory to the device, from it (else 0);
 *                  then the medians of the round's controls (control.h, in its order; a worker
 *                  of a build before them says none, and ab judges its phases as measured)
 *                  "end" when its run is stored
 *   ab -> worker   "round K" (take K samples), "solo" (the case is not paired: the usual
 *                  stopping rule), "done" (the case ends)
 * A worker whose pipe closes (ab gone) stops as an interrupted run. Workload: a line a round.
 */
#ifndef VB_AB_WORKER_H
#define VB_AB_WORKER_H

#include <stdio.h>

#include "err.h"
#include "runner.h"
#include "sweep.h"

struct vb_ab_worker {
    FILE *in, *out;
    struct vb_rounds rounds; /* for vb_sampling.rounds */
};

/* vb_ab_worker_open takes --ab-worker's "RFD,WFD" into w. 0, or -1 with a VB_E_USAGE err. */
int vb_ab_worker_open(const char *spec, struct vb_ab_worker *w, struct vb_err *err);

/* vb_ab_worker_begin says the worker's run and its plan (sw's cases, in order). 0 or -1 when
 * ab is gone (err set). */
int vb_ab_worker_begin(struct vb_ab_worker *w, int64_t run_id, struct vb_sweep *sw,
                       struct vb_err *err);

/* vb_ab_worker_end says "end" and closes the pipes. */
void vb_ab_worker_end(struct vb_ab_worker *w);

#endif
