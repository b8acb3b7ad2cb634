/*
 * ctlplan: the controls of one case's timed samples (control.h): which ones its phases need,
 * decided once after its warm-up, and their measurement just before each timed sample, outside
 * its window and before the cold cache's flush (a copy leaves its bytes in L2). A GPU case gets
 * the host's arithmetic chain and memory walk (its end-to-end time's host share; the walk at
 * most every k-th sample, k keeping its cost under 5%) and, for each direction it copies in, a
 * copy of the same size from or to host memory of the same kind (pageable or pinned) through a
 * plain cudaMemcpy; a CPU case gets the arithmetic chain, the throughput mix and the memory walk.
 * A copy control's time is its CUPTI record's, as the sample's copies are: its call is marked as
 * the control of sample k (marks.h) and attribute.h adds its records to the sample's control
 * instead of the sample, so the case's stored records never hold them.
 * Workload: one plan a case; a control before each of up to thousands of timed samples: the
 * chain ~20 us, the mix ~10-25 us, the walk ~100-300 us, a copy as long as the sample's own.
 */
#ifndef VB_CTLPLAN_H
#define VB_CTLPLAN_H

#include <stdint.h>

#include "err.h"
#include "result.h"

struct vb_ctl_plan {
    int cpu;           /* the host's chain and throughput mix */
    int mem_every;     /* the host's memory walk before every mem_every-th sample (0: none) */
    uint64_t bytes[2]; /* the control copy's bytes, H2D [0] and D2H [1]; 0: none */
    int pageable[2];   /* its host memory: 1 pageable (malloc'd), 0 pinned (cudaMallocHost) */
};

/* vb_ctl_plan_gpu plans a GPU case's controls from r as it stands after the warm-up: the last
 * warm-up sample's copy bytes each way (its CUPTI sums) and whether r's kept copy records move
 * pageable memory (vb_result_pageable); copies only when `marked` (the calls are marked, so that
 * the control's records are known for what they are); the memory walk (for its host share, and
 * a kernel that reads host memory) timed once here and taken before every sample or, where it
 * costs more than VB_CTL_MEM_SHARE of the warm-up sample's e2e, before every k-th, k as many as
 * keep it there. This can't fail. */
#define VB_CTL_MEM_SHARE 0.05
void vb_ctl_plan_gpu(const struct vb_case_result *r, int marked, struct vb_ctl_plan *p);

/* vb_ctl_plan_cpu plans a CPU case's: the chain and the walk. */
void vb_ctl_plan_cpu(struct vb_ctl_plan *p);

/* vb_ctl_measure takes plan p's controls for sample k (its index in the case's samples) into
 * s->ctl on the current device: the host's directly, each copy issued as sample k's control (its
 * time arrives with the records: s->ctl of it is 0 until then). A copy's buffers are made at
 * first need and kept, the largest so far, per device. 0, or -1 with err (the copy failed). */
int vb_ctl_measure(const struct vb_ctl_plan *p, int k, struct vb_sample *s, struct vb_err *err);

/* vb_ctl_release frees the copies' buffers and the memory walk's. */
void vb_ctl_release(void);

#endif
