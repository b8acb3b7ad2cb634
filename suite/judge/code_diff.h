/*
 * code_diff: did two runs run the same GPU code (issue 43's code identity)? The kernels each
 * run launched, with the hash of each one's SASS (store.h's vb_run_kernel, code_id.h), matched
 * by mangled name: unchanged when every kernel both launched has the same hash on both sides,
 * changed naming the kernels whose hash differs. compare and ab print it beside their verdict,
 * so that a slower case whose code is unchanged points at the host side (a launch
 * configuration, a copy, the work it was given, the machine) and one whose kernel changed
 * points at that kernel.
 * Workload: a few hundred kernels a run.
 */
#ifndef VB_CODE_DIFF_H
#define VB_CODE_DIFF_H

#include <stdint.h>

#include "compare.h"
#include "store.h"

#define VB_CODE_NAMES 5 /* changed kernels named, at most */

enum vb_code_state {
    VB_CODE_NONE,       /* neither run launched a kernel */
    VB_CODE_UNRECORDED, /* a run stored no code (before schema 10, a trace without --metrics) */
    VB_CODE_UNKNOWN,    /* no kernel both launched has a hash on both sides */
    VB_CODE_SAME,       /* every kernel both launched, hashed on both sides, unchanged */
    VB_CODE_CHANGED     /* one or more of those changed */
};

struct vb_code_diff {
    enum vb_code_state state;
    int base_recorded, cand_recorded;
    int kernels;              /* launched by both runs, hashed on both sides */
    int changed;              /* of those, whose SASS differs */
    int unknown;              /* launched by both runs, without a hash on one side */
    int only_base, only_cand; /* launched by one run only */
    /* the first changed kernels: name (the candidate's array's), the hash before and after */
    const char *name[VB_CODE_NAMES];
    uint64_t from[VB_CODE_NAMES], to[VB_CODE_NAMES];
};

/* vb_code_diff fills d from the base's kernels b[0..nb) and the candidate's c[0..nc), each in
 * name order (vb_store_run_code's), brec / crec whether each run recorded code at all. d's
 * names point into c. This can't fail. */
void vb_code_diff(const struct vb_run_kernel *b, int nb, int brec, const struct vb_run_kernel *c,
                  int nc, int crec, struct vb_code_diff *d);

/* vb_code_hold: row r's case ran the same machine code, launched the same way and as often a
 * sample, on both sides (same: vb_store_case_code's digests equal, each side's state 1), or not
 * (0), or unknown (-1): sets r->code_same; with the same code a kernel or GPU time that moved was
 * given other work (a loop count from the host, other data) or ran on another machine, which the
 * code cannot tell apart: such a phase stays slower or faster and says so in its why. Only the
 * ledger's measurement of a machine cause makes it noisy (environ.h). Call before vb_cmp_decide.
 * This can't fail. */
void vb_code_hold(struct vb_cmp_row *r, int same);

/* vb_code_case: same for vb_code_hold from base case bid (of store base) and cand case cid.
 * 0 or -1 with err (the database). */
int vb_code_case(struct vb_store *base, int64_t bid, struct vb_store *cand, int64_t cid, int *same,
                 struct vb_err *err);

#endif
