/*
 * environ: what the board's ledger (ledger.h, stored with each case: clock-event reasons, other
 * processes on the board) says of a verdict that is noisy, so that a flaky verdict on a shared
 * or cloud GPU names what it saw (issue 44): "noisy (e2e: p 0.0028, ranges overlap; candidate:
 * other processes: pid 4242 (1024 MiB))". compare and ab call it after a case's verdict.
 * Workload: a row.
 */
#ifndef VB_ENVIRON_H
#define VB_ENVIRON_H

#include "compare.h"
#include "store.h"

/* vb_cmp_environment appends to a noisy row r's why each side's clock-event reasons (other than
 * none) and other processes, from its case b (base) and c (candidate); nothing for another
 * verdict, or where the ledger saw neither. This can't fail. */
void vb_cmp_environment(const struct vb_case_row *b, const struct vb_case_row *c,
                        struct vb_cmp_row *r);

#endif
