/*
 * norm: how a phase is judged against its controls (control.h), the one rule compare and ab share.
 * A phase the host moves is judged twice or more: on its time as measured (raw), and on the same
 * samples with each host-bound part in units of the control taken beside it (its ratio to the
 * control, scaled by the base's median control so that it stays a time):
 *
 *   phase              series judged                         a part's control
 *   kernel, memset     raw                                   (the board's ledger: environ.h)
 *   h2d, d2h           raw, host                             a copy of its size and kind
 *   gpu                raw, host: kernel + memset + copies   each copy's
 *   e2e of a GPU case  raw, host: e2e with its copies and    the copies', the arithmetic chain
 *                      its host share (e2e - gpu) in units;
 *                      hostthr, hostmem: the same, the host  the copies', the throughput mix,
 *                      share against the mix, the walk       the memory walk
 *   kernel, gpu of a   raw, hostmem: the kernel against      the memory walk
 *   zero-copy kernel   the memory walk (it reads host memory)
 *   e2e of a CPU case  cpu, thr, mem (no raw)                the chain, the mix, the walk
 *   a traced range's   raw, host, hostthr: e2e with its      the chain and the mix, run by a
 *   e2e                host share in units                   thread of the injection on the
 *                                                            program's thread's core (hostctl.h)
 *   other traced       raw                                   (none: an unmodified program)
 *
 * A phase is slower (faster) only when every series it has is slower (faster): what the measured
 * host could explain, it does; it is the same when any series is the same, or when one is
 * slower and another faster (its move lies between what its controls moved: a CPU reference
 * +27% while the chain moved +5% and the memory walk +56%), the row saying which control
 * explained it; noisy otherwise. Each series has the normal limit (threshold, and 3x the
 * series' own spread). A control is used when both sides measured it for the case (and, for a
 * copy, moved the same kind of host memory: pinned -> pageable is judged raw); a run of a schema
 * before the controls uses its ceilings instead (the launch time, the copies' rates at the nearest
 * size) and the row says so.
 * Workload: per case, each phase's samples once per series.
 */
#ifndef VB_NORM_H
#define VB_NORM_H

#include "store.h"

/* X(id, name, what the series is in the rows' text) */
#define VB_NORM_KINDS(X)                                                                           \
    X(RAW, "raw", "as measured")                                                                   \
    X(HOST, "host", "against its controls")                                                        \
    X(HOSTMEM, "hostmem", "against its controls and the host's memory walk")                       \
    X(HOSTTHR, "hostthr", "against its controls and the host's throughput mix")                    \
    X(CPU, "cpu", "against the host's arithmetic chain")                                           \
    X(THR, "thr", "against the host's throughput mix")                                             \
    X(MEM, "mem", "against the host's memory walk")

enum vb_norm_kind {
#define X(id, name, what) VB_NORM_##id,
    VB_NORM_KINDS(X)
#undef X
        VB_NORM_COUNT
};

const char *vb_norm_name(enum vb_norm_kind k);
/* vb_norm_what: what the series of that name is ("against the host's memory walk"); "" for
 * "raw" or an unknown name. */
const char *vb_norm_what(const char *name);

/* How a side-pair's controls stand for one case: per control, 1 when both sides have it. */
struct vb_norm_ctx {
    int cpu_case;             /* a CPU-only case: its e2e is judged cpu and mem only */
    int traced;               /* a traced program's case: raw only */
    int host_kernel;          /* its kernel reads host memory (its floor the bus, no copy) */
    int avail[VB_CTL_COUNT];  /* both sides have this control for the case */
    double ref[VB_CTL_COUNT]; /* the base's median of each (the series' unit), ns */
    /* each side's stand-in for a sample without a control of its own: the side's median
     * control, or the run's ceiling (a run before the controls: ceilings 1) */
    double side[2][VB_CTL_COUNT];
    int ceilings; /* the controls are the runs' ceilings, not per-sample ones */
};

/* A run's ceilings on one device (store.h's VB_CEILINGS), the controls of a run before them:
 * the launch time (the host's chain), the rates of its copies (GB/s; curves: 1, 4, 16, 64 and
 * 256 MiB pageable, pinned at its one size). 0 where not measured. */
struct vb_ceil_set {
    double launch_ns, h2d_pinned, d2h_pinned;
    double h2d_pageable[VB_CEIL_CURVE_SIZES + 1], d2h_pageable[VB_CEIL_CURVE_SIZES + 1];
};

/* vb_ceil_set_of fills c from rows[0..n) (vb_store_ceiling_rows) of run on device; 1 when the run
 * has any ceiling there, else 0. */
int vb_ceil_set_of(const struct vb_ceiling_row *rows, int n, int64_t run, int device,
                   struct vb_ceil_set *c);

/* vb_ceil_control: the stand-in of control ctl from a run's ceilings for a case of those copy
 * bytes and kinds (its h2d_bytes, h2d_pageable, ...): a time in ns (the launch for the host's
 * chain, the bytes over the copy's rate at the nearest size, the pageable D2H rate's time for a
 * byte for the memory walk), 0 when the run did not measure it. */
double vb_ceil_control(const struct vb_ceil_set *c, int ctl, const struct vb_case_row *row);

/* vb_norm_kinds writes the series phase ("gpu", "h2d", "kernel", "d2h", "memset", "e2e", "own",
 * "compute", "comm") of a case is judged on under x into k[] (at most VB_NORM_COUNT); returns how
 * many (at least one). */
int vb_norm_kinds(const struct vb_norm_ctx *x, const char *phase, enum vb_norm_kind *k);

/* vb_norm_value: sample s of side (0 base, 1 candidate) of phase under series kind, in ns; NaN when
 * the sample has no such time. A control the sample lacks is the side's stand-in (x->side). */
double vb_norm_value(const struct vb_norm_ctx *x, int side, const struct vb_sample_row *s,
                     const char *phase, enum vb_norm_kind kind);

/* VB_NORM_SMOOTH: a sample's control is the median of the controls of the samples around it,
 * this many each side: a control is a short workload with noise of its own (the memory walk
 * spread 17% over 3 samples on a loaded 2-core machine), which per sample would widen the series
 * it normalises; the median of 5 still follows a host that slows within a run. */
#define VB_NORM_SMOOTH 2

/* vb_norm_smooth replaces each control of rows[0..n) (one side's samples, in order) by the
 * median of that control over the samples i - VB_NORM_SMOOTH .. i + VB_NORM_SMOOTH that have it
 * (a time > 0). 0, or -1 when out of memory (rows unchanged). */
int vb_norm_smooth(struct vb_sample_row *rows, int n);

/* vb_norm_combine: a phase's verdict from the verdicts of its n series (compare.h's enum
 * vb_verdict values, as ints): same when any is same or when one is slower and another faster,
 * slower (faster) when all are, else noisy; *pick is the series that decides it (the same one,
 * the faster one, of all slower the one that moved least, the first noisy one).
 * ratio[] gives each series' ratio. */
int vb_norm_combine(const int *verdict, const double *ratio, int n, int *pick);

#endif
