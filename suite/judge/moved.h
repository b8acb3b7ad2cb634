/*
 * moved: why a case's GPU time moved, from the counters both runs measured of it (its metrics
 * passes, metric_set.h) and its kernels' launch configurations (their CUPTI records): the
 * counters that moved beyond their own noise, ranked by how much of the time change each
 * accounts for, each with its before -> after under its Nsight Compute name and a plain one
 * ("achieved occupancy (sm__warps_active.avg.pct_of_peak_sustained_active) 99% -> 12.5%").
 *
 * A counter's aggregate over a case: a count (.sum) summed over the profiled sample's launches
 * (shown a launch when both sides launched as many), any other (a percentage, a ratio) the
 * launches' mean weighted by their duration. Its noise: within each side, the spread of its
 * per-launch values over the launches of one kernel (a sample that launches a kernel twice or
 * more; relative, a percentage's in points); where no kernel was launched twice the noise is
 * not measured and the text says so. It moved when its change exceeds the threshold and its
 * noise (a percentage's: and one point). How much of the time change it accounts for: were the
 * time proportional to the counter (a count, registers), to its inverse (an efficiency, a hit
 * rate, occupancy, the grid's blocks), or to 1 / (100% - s) for a stall reason's share s of the
 * warps' cycles, the time ratio it predicts, log(predicted) / log(measured), at most 1; a counter
 * that moved the other way accounts for none and is not named. Ties go to the launch (what the
 * code set), then what sets the cost (an efficiency, bank conflicts, a hit rate, occupancy),
 * then DRAM bytes, then the warps' stall reasons (where their time went), then other ratios
 * (pipe use, sectors a request), then other traffic, then to the larger predicted move. The
 * duration itself is never a cause.
 * Workload: per case that moved, its counters and launch rows once a side.
 */
#ifndef VB_MOVED_H
#define VB_MOVED_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

struct vb_store;

#define VB_MOVED_MAX 3

/* One counter that moved. */
struct vb_moved_item {
    char metric[128]; /* its Nsight Compute name (launch__*: from the launch records) */
    char plain[64];
    double before, after; /* the case's aggregates */
    int pct;              /* a percentage (shown in %) */
    int per_launch;       /* a count shown a launch (else a sample) */
    double share;         /* of the time change it accounts for, (0, 1] */
    /* a launch counter's: the theoretical occupancy both sides' launches have and what limits
     * it (occupancy.h), "" where the device is unknown ("theoretical occupancy 100% -> 12.5%,
     * limited by registers a thread") */
    char note[112];
};

struct vb_moved {
    struct vb_moved_item item[VB_MOVED_MAX];
    int n;
    int noise_measured; /* 1 when every named counter's noise was measured on a side */
};

/* vb_moved_explain fills m for case case_b of store base against case_c of store cand, whose
 * time moved by time_ratio (candidate / base; not 1), at threshold (0.05: 5%). m->n 0 when
 * nothing moved that could explain it (or a side has no counters). 0, or -1 with err (the
 * database, memory). */
int vb_moved_explain(struct vb_store *base, int64_t case_b, struct vb_store *cand, int64_t case_c,
                     double time_ratio, double threshold, struct vb_moved *m, struct vb_err *err);

/* The threshold where a command has none of its own (history, the report): compare's default. */
#define VB_MOVED_THRESHOLD 0.05

/* vb_moved_line explains (vb_moved_explain) and writes the line (vb_moved_text) into buf, ""
 * when nothing moved. 0, or -1 with err. */
int vb_moved_line(struct vb_store *base, int64_t case_b, struct vb_store *cand, int64_t case_c,
                  double time_ratio, double threshold, char *buf, size_t n, struct vb_err *err);

/* At most this many kernels are named for a traced process (vb_moved_kernels). */
#define VB_MOVED_KERNELS 4

/* vb_moved_kernels writes into buf, for two traced processes measured by `trace --metrics`
 * (cases case_b and case_c), the kernels whose duration under the profiler, summed over their
 * launches, moved the most past threshold, each with its move and the counters that moved in
 * its launches (as vb_moved_explain ranks them, the kernel's own), and a kernel only one side
 * launched with its time ("kernel K: duration +31.0% (40 -> 40 launches): ... | kernel L: only
 * in the candidate (40 launches, 1.2 ms)"); "" when none. A side whose counters are by launch
 * number (no kernel records) matches none: then, when the summed duration moved, it says so.
 * 0, or -1 with err. */
int vb_moved_kernels(struct vb_store *base, int64_t case_b, struct vb_store *cand, int64_t case_c,
                     double threshold, char *buf, size_t len, struct vb_err *err);

/* vb_moved_text writes m as one line ("achieved occupancy (sm__warps_active...) 99% -> 12.5%;
 * ..."), "" when m names none; returns buf. */
char *vb_moved_text(const struct vb_moved *m, char *buf, size_t n);

#endif
