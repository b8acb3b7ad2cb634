/*
 * environ: what the board's ledger (ledger.h, stored with each case: clock-event reasons, other
 * processes on the board) says of a verdict that is noisy, so that a flaky verdict on a shared
 * or cloud GPU names what it saw (issue 44): "noisy (e2e: p 0.0028, ranges overlap; candidate:
 * other processes: pid 4242 (1024 MiB))"; a case that moved beside a co-tenant is not called a
 * regression. compare and ab call it after a case's verdict.
 * Workload: a row.
 */
#ifndef VB_ENVIRON_H
#define VB_ENVIRON_H

#include "compare.h"
#include "store.h"

/* vb_cmp_environment: a slower or faster row r becomes noisy where the ledger measured a
 * machine cause, named in its why: either side ran beside another process on the board ("GPU
 * +12.0% beside another process"), or, for a GPU phase (kernel, gpu, compute), the slower side
 * had clock events the other did not (a power cap, throttling) or an SM clock lower by as much as
 * the move ("kernel +21.0% with the SM clock 1980 -> 1650 MHz"); then a noisy row's why gets each
 * side's clock-event reasons (other than none) and other processes, from its case b (base) and c
 * (candidate), and so does a same row's beside another process ("same (beside another process;
 * candidate: other processes: ...)"). label names r's deciding phase (compare's
 * vb_cmp_phase_label). Nothing for another verdict, or where the ledger saw neither. This
 * can't fail. */
void vb_cmp_environment(const struct vb_case_row *b, const struct vb_case_row *c,
                        struct vb_cmp_row *r, const char *label);

#endif
