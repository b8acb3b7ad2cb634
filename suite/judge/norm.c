/* norm: a phase's series against its controls (see norm.h). */
#include "norm.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"

static const char *const names[] = {
#define X(id, name, what) name,
    VB_NORM_KINDS(X)
#undef X
};

const char *vb_norm_name(enum vb_norm_kind k)
{
    return (unsigned)k < VB_NORM_COUNT ? names[k] : "?";
}

static const char *const whats[] = {
#define X(id, name, what) what,
    VB_NORM_KINDS(X)
#undef X
};

const char *vb_norm_what(const char *name)
{
    int k;
    for (k = 1; k < VB_NORM_COUNT; k++)
        if (!strcmp(name, names[k])) return whats[k];
    return "";
}

int vb_ceil_set_of(const struct vb_ceiling_row *rows, int n, int64_t run, int device,
                   struct vb_ceil_set *c)
{
    int i, k, any = 0;
    memset(c, 0, sizeof *c);
    for (i = 0; i < n; i++) {
        const struct vb_ceiling_row *r = &rows[i];
        double *at = NULL;
        if (r->run_id != run || r->device != device) continue;
        any = 1;
        if (!strcmp(r->name, vb_ceiling_name(VB_CEIL_LAUNCH))) c->launch_ns = r->median_ns;
        if (!strcmp(r->name, vb_ceiling_name(VB_CEIL_H2D_PINNED))) at = &c->h2d_pinned;
        if (!strcmp(r->name, vb_ceiling_name(VB_CEIL_D2H_PINNED))) at = &c->d2h_pinned;
        if (!strcmp(r->name, vb_ceiling_name(VB_CEIL_H2D_PAGEABLE)))
            at = &c->h2d_pageable[VB_CEIL_CURVE_SIZES];
        if (!strcmp(r->name, vb_ceiling_name(VB_CEIL_D2H_PAGEABLE)))
            at = &c->d2h_pageable[VB_CEIL_CURVE_SIZES];
        for (k = 0; k < VB_CEIL_CURVE_SIZES; k++) {
            if (!strcmp(r->name, vb_ceiling_name(VB_CEIL_H2D_PAGEABLE_1MIB + k)))
                at = &c->h2d_pageable[k];
            if (!strcmp(r->name, vb_ceiling_name(VB_CEIL_D2H_PAGEABLE_1MIB + k)))
                at = &c->d2h_pageable[k];
        }
        if (at && r->gbps > 0) *at = r->gbps;
    }
    return any;
}

/* rate_near: of a curve's rates (1, 4, 16, 64, 256 MiB; 0 unmeasured) the one measured nearest
 * bytes (log scale) */
static double rate_near(const double *curve, double bytes)
{
    double best = 0, d = INFINITY;
    int k;
    for (k = 0; k <= VB_CEIL_CURVE_SIZES; k++) {
        double at = (double)((uint64_t)1 << (20 + 2 * k)), e = fabs(log(bytes / at));
        if (curve[k] > 0 && e < d) d = e, best = curve[k];
    }
    return best;
}

double vb_ceil_control(const struct vb_ceil_set *c, int ctl, const struct vb_case_row *row)
{
    double bytes, gbps;
    switch (ctl) {
    case VB_CTL_CPU:
        return c->launch_ns;
    case VB_CTL_MEM:
        gbps = c->d2h_pageable[VB_CEIL_CURVE_SIZES];
        return gbps > 0 ? 1 / gbps : 0;
    case VB_CTL_H2D:
    case VB_CTL_D2H: {
        int h2d = ctl == VB_CTL_H2D, pageable = h2d ? row->h2d_pageable : row->d2h_pageable;
        bytes = (double)(h2d ? row->h2d_bytes : row->d2h_bytes);
        if (!(bytes > 0) || pageable < 0) return 0;
        gbps = pageable ? rate_near(h2d ? c->h2d_pageable : c->d2h_pageable, bytes)
               : h2d    ? c->h2d_pinned
                        : c->d2h_pinned;
        return gbps > 0 ? bytes / gbps : 0;
    }
    default:
        return 0;
    }
}

int vb_norm_kinds(const struct vb_norm_ctx *x, const char *phase, enum vb_norm_kind *k)
{
    int n = 0, host = 0;
    if (x->traced) { /* the injection's thread measured the host's chain beside each instance */
        k[n++] = VB_NORM_RAW;
        if (!strcmp(phase, "e2e") && x->avail[VB_CTL_CPU]) k[n++] = VB_NORM_HOST;
        if (!strcmp(phase, "e2e") && x->avail[VB_CTL_THR]) k[n++] = VB_NORM_HOSTTHR;
        return n;
    }
    if (x->cpu_case && !strcmp(phase, "e2e")) {
        if (x->avail[VB_CTL_CPU]) k[n++] = VB_NORM_CPU;
        if (x->avail[VB_CTL_THR]) k[n++] = VB_NORM_THR;
        if (x->avail[VB_CTL_MEM]) k[n++] = VB_NORM_MEM;
        if (!n) k[n++] = VB_NORM_RAW;
        return n;
    }
    k[n++] = VB_NORM_RAW;
    if (!strcmp(phase, "h2d"))
        host = x->avail[VB_CTL_H2D];
    else if (!strcmp(phase, "d2h"))
        host = x->avail[VB_CTL_D2H];
    else if (!strcmp(phase, "gpu"))
        host = x->avail[VB_CTL_H2D] || x->avail[VB_CTL_D2H];
    else if (!strcmp(phase, "e2e"))
        host = x->avail[VB_CTL_H2D] || x->avail[VB_CTL_D2H] || x->avail[VB_CTL_CPU];
    if (host) k[n++] = VB_NORM_HOST;
    if (x->avail[VB_CTL_THR] && !strcmp(phase, "e2e")) k[n++] = VB_NORM_HOSTTHR;
    if (x->avail[VB_CTL_MEM] &&
        (!strcmp(phase, "e2e") ||
         (x->host_kernel && (!strcmp(phase, "kernel") || !strcmp(phase, "gpu")))))
        k[n++] = VB_NORM_HOSTMEM;
    return n;
}

/* unit: control c's factor for sample s of side: the base's median over the sample's control (the
 * side's stand-in where the sample has none); 1 where the pair has no such control */
static double unit(const struct vb_norm_ctx *x, int side, const struct vb_sample_row *s, int c)
{
    double v = s->ctl[c];
    if (!x->avail[c]) return 1;
    if (x->ceilings || !(v > 0) || !isfinite(v)) v = x->side[side][c];
    return v > 0 && x->ref[c] > 0 ? x->ref[c] / v : 1;
}

/* z: a part of the GPU time that is no number counts as none of it */
static double z(double v)
{
    return isfinite(v) ? v : 0;
}

/* raw: the phase as measured; own and compute take the collectives' time out (samples.h) */
static double raw(const struct vb_sample_row *s, const char *phase)
{
    if (!strcmp(phase, "e2e")) return s->e2e;
    if (!strcmp(phase, "gpu")) return s->gpu;
    if (!strcmp(phase, "kernel")) return s->kernel;
    if (!strcmp(phase, "h2d")) return s->h2d;
    if (!strcmp(phase, "d2h")) return s->d2h;
    if (!strcmp(phase, "memset")) return s->memset;
    if (!strcmp(phase, "comm")) return s->comm;
    if (!strcmp(phase, "own")) return s->e2e - z(s->comm);
    if (!strcmp(phase, "compute")) return s->kernel - z(s->comm);
    return NAN;
}

double vb_norm_value(const struct vb_norm_ctx *x, int side, const struct vb_sample_row *s,
                     const char *phase, enum vb_norm_kind kind)
{
    double h2d, d2h, v = raw(s, phase);
    switch (kind) {
    case VB_NORM_RAW:
        return v;
    case VB_NORM_CPU:
        return v * unit(x, side, s, VB_CTL_CPU);
    case VB_NORM_THR:
        return v * unit(x, side, s, VB_CTL_THR);
    case VB_NORM_MEM:
        return v * unit(x, side, s, VB_CTL_MEM);
    case VB_NORM_HOST:
    case VB_NORM_HOSTTHR:
    case VB_NORM_HOSTMEM: {
        /* the host's share (what the GPU's records do not cover: launches, staging, waits) in
         * units of the chain, the mix or the walk; a kernel that reads host memory in the
         * walk's */
        double hu = unit(x, side, s,
                         kind == VB_NORM_HOST      ? VB_CTL_CPU
                         : kind == VB_NORM_HOSTTHR ? VB_CTL_THR
                                                   : VB_CTL_MEM);
        double ku = kind == VB_NORM_HOSTMEM && x->host_kernel ? unit(x, side, s, VB_CTL_MEM) : 1;
        h2d = unit(x, side, s, VB_CTL_H2D); /* the copies' units: these series' alone */
        d2h = unit(x, side, s, VB_CTL_D2H);
        if (!strcmp(phase, "h2d")) return v * h2d;
        if (!strcmp(phase, "d2h")) return v * d2h;
        if (!strcmp(phase, "kernel")) return v * ku;
        if (!strcmp(phase, "gpu"))
            return isfinite(v)
                       ? z(s->kernel) * ku + z(s->memset) + z(s->h2d) * h2d + z(s->d2h) * d2h
                       : NAN;
        if (!strcmp(phase, "e2e")) {
            double host = isfinite(s->gpu) ? fmax(0, v - s->gpu) : v;
            return v + z(s->h2d) * (h2d - 1) + z(s->d2h) * (d2h - 1) + host * (hu - 1) +
                   z(s->kernel) * (ku - 1);
        }
        return v;
    }
    default:
        return NAN;
    }
}

int vb_norm_smooth(struct vb_sample_row *rows, int n)
{
    double *orig = malloc(sizeof *orig * (size_t)(n > 0 ? n : 1)), win[2 * VB_NORM_SMOOTH + 1];
    int c, i, k;
    if (!orig) return -1;
    for (c = 0; c < VB_CTL_COUNT; c++) {
        for (i = 0; i < n; i++)
            orig[i] = rows[i].ctl[c];
        for (i = 0; i < n; i++) {
            int m = 0;
            for (k = i - VB_NORM_SMOOTH; k <= i + VB_NORM_SMOOTH; k++)
                if (k >= 0 && k < n && orig[k] > 0 && isfinite(orig[k])) win[m++] = orig[k];
            if (m) rows[i].ctl[c] = vb_stats_median(win, (size_t)m);
        }
    }
    free(orig);
    return 0;
}

int vb_norm_combine(const int *verdict, const double *ratio, int n, int *pick)
{
    int i, all = verdict[0], up = -1, down = -1;
    *pick = 0;
    for (i = 0; i < n; i++) {
        if (verdict[i] == VB_VERDICT_SAME) {
            *pick = i;
            return VB_VERDICT_SAME;
        }
        if (verdict[i] == VB_VERDICT_SLOWER) up = i;
        if (verdict[i] == VB_VERDICT_FASTER) down = i;
    }
    if (up >= 0 && down >= 0) { /* slower as measured, faster against a control: inside what */
        *pick = down;           /* the measured host explains, the same */
        return VB_VERDICT_SAME;
    }
    for (i = 1; i < n; i++)
        if (verdict[i] != all) all = VB_VERDICT_NOISY;
    if (all == VB_VERDICT_SLOWER || all == VB_VERDICT_FASTER) {
        for (i = 1; i < n; i++) /* the least change: what every series agrees on */
            if (fabs(log(ratio[i])) < fabs(log(ratio[*pick]))) *pick = i;
        return all;
    }
    for (i = 0; i < n; i++) /* noisy: the first series that is */
        if (verdict[i] == VB_VERDICT_NOISY) {
            *pick = i;
            break;
        }
    return VB_VERDICT_NOISY;
}
