/* judge_case: one case of compare judged, phase by phase and series by series (see compare.h
 * and norm.h). */
#include "judge_case.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code_diff.h"
#include "environ.h"
#include "norm.h"
#include "stats.h"

/* The parts of the GPU time judged on their own under metric "gpu", in display order. */
static const char *const parts[] = {"h2d", "kernel", "d2h", "memset"};

int vb_cmp_gpu_part(const char *phase)
{
    size_t i;
    for (i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (!strcmp(phase, parts[i])) return 1;
    return 0;
}

/* One side of a series: its values, sorted (owned), and what is read off them. */
struct side {
    double *x;
    int n;
    double med, spread; /* spread: IQR/median, NaN for a zero median */
};

static void side_free(struct side *d)
{
    free(d->x);
    d->x = NULL;
    d->n = 0;
}

/* A side's timed samples (the base's: its case's, then its pooled matches'), read once a case. */
struct rows {
    struct vb_sample_row *x;
    int n;
};

static void rows_free(struct rows *r)
{
    free(r->x);
    r->x = NULL;
    r->n = 0;
}

/* read_rows reads the samples of the cases ids[0..n), concatenated, into r. 0 or -1 with err. */
static int read_rows(struct vb_store *s, const int64_t *ids, int n, struct rows *r,
                     struct vb_err *err)
{
    int k;
    memset(r, 0, sizeof *r);
    for (k = 0; k < n; k++) {
        struct vb_sample_row *x, *all;
        int m;
        if (vb_store_sample_rows(s, ids[k], &x, &m, err)) goto fail;
        if (m && !(all = realloc(r->x, sizeof *all * (size_t)(r->n + m)))) {
            free(x);
            vb_err_set(err, VB_E_SYS, "out of memory");
            goto fail;
        }
        if (m) {
            memcpy(all + r->n, x, sizeof *x * (size_t)m);
            r->x = all;
            r->n += m;
        }
        free(x);
    }
    return 0;
fail:
    rows_free(r);
    return -1;
}

/* derived: a phase computed from others (own, compute): a value under 0 there is no error of the
 * database, only a sample where the collectives outlast the range (an enqueue) */
static int derived(const char *phase)
{
    return !strcmp(phase, "own") || !strcmp(phase, "compute");
}

/* side_read sorts d's values and reads its median and spread off them (NaN without any) */
static void side_read(struct side *d)
{
    d->med = d->spread = NAN;
    if (d->n <= 0) return;
    vb_stats_sort(d->x, (size_t)d->n);
    d->med = vb_stats_median_sorted(d->x, (size_t)d->n);
    d->spread = vb_stats_iqr_ratio(d->x, (size_t)d->n);
}

/* series fills d with phase's values under kind of side `which` (sorted). A stored value that is
 * no duration (negative, infinite) is missing: left out, counted in r->dropped (r->dropped_col
 * names the first column) where it is a stored phase's raw value. 0, or -1 out of memory. */
static int series(const struct vb_norm_ctx *x, const struct rows *rw, int which, const char *phase,
                  enum vb_norm_kind kind, struct side *d, struct vb_cmp_row *r)
{
    int k, bad = 0;
    memset(d, 0, sizeof *d);
    d->med = d->spread = NAN;
    if (!(d->x = malloc(sizeof *d->x * (size_t)(rw->n + 1)))) return -1;
    for (k = 0; k < rw->n; k++) {
        double v = vb_norm_value(x, which, &rw->x[k], phase, kind);
        if (isfinite(v) && v >= 0)
            d->x[d->n++] = v;
        else if (!isnan(v) && kind == VB_NORM_RAW && !derived(phase))
            bad++;
    }
    if (bad && !r->dropped) snprintf(r->dropped_col, sizeof r->dropped_col, "%s_ns", phase);
    r->dropped += bad;
    side_read(d);
    return 0;
}

/* present: does the phase have samples on both sides, and any time on one of them? */
static int present(const struct side *b, const struct side *c)
{
    return b->n > 0 && c->n > 0 && (b->med > 0 || c->med > 0);
}

/* judge_phase fills ph from the two sides of one series (compare.h's rule; limit_floor: the least
 * limit, the threshold, or for a traced case's instances the threshold alone: no noise factor). */
static void judge_phase(const char *name, const struct side *b, const struct side *c, int traced,
                        const struct vb_cmp_opts *o, struct vb_cmp_phase *ph)
{
    int ranked, slower, apart, e2e = !strcmp(name, "e2e");
    memset(ph, 0, sizeof *ph);
    snprintf(ph->name, sizeof ph->name, "%s", name);
    ph->n_base = b->n;
    ph->n_cand = c->n;
    ph->med_base = b->med;
    ph->med_cand = c->med;
    ph->p = ph->ratio = ph->spread = ph->limit = ph->judged_ratio = NAN;
    if (b->n == 0 || c->n == 0 || !isfinite(b->med) || !isfinite(c->med)) {
        ph->verdict = VB_VERDICT_NOISY;
        snprintf(ph->why, sizeof ph->why, "no timed samples on a side");
        return;
    }
    ph->ratio = b->med > 0 ? c->med / b->med : c->med > 0 ? INFINITY : 1.0;
    ph->judged_ratio = ph->ratio;
    ph->spread = fmax(b->spread, c->spread); /* fmax ignores the NaN of a zero median */
    ph->limit = traced ? o->threshold : fmax(o->threshold, VB_CMP_NOISE_FACTOR * ph->spread);
    if (b->n == c->n && !memcmp(b->x, c->x, sizeof *b->x * (size_t)b->n)) {
        ph->verdict = VB_VERDICT_SAME; /* the same samples: nothing changed, whatever the noise */
        return;
    }
    if (!(fabs(ph->ratio - 1) >= ph->limit) ||
        fabs(c->med - b->med) < (e2e ? VB_CMP_E2E_FLOOR_NS : VB_CMP_FLOOR_NS)) {
        ph->verdict = VB_VERDICT_SAME;
        return;
    }
    /* evidence: ranges apart is enough at any size (so more samples never make a clear change
     * less conclusive; 5-7 a side cannot reach alpha 0.001 in the rank test), and with enough
     * samples a significant rank test is too */
    slower = ph->ratio > 1;
    apart = b->n >= VB_CMP_MIN_APART && c->n >= VB_CMP_MIN_APART &&
            (slower ? b->x[b->n - 1] < c->x[0] : c->x[c->n - 1] < b->x[0]);
    ranked = b->n >= o->min_samples && c->n >= o->min_samples;
    if (ranked) ph->p = vb_stats_mann_whitney(b->x, (size_t)b->n, c->x, (size_t)c->n);
    if (apart || (ranked && ph->p < o->alpha)) {
        ph->verdict = slower ? VB_VERDICT_SLOWER : VB_VERDICT_FASTER;
    } else {
        ph->verdict = VB_VERDICT_NOISY;
        if (ranked)
            snprintf(ph->why, sizeof ph->why, "p %.2g, ranges overlap", ph->p);
        else if (b->n < VB_CMP_MIN_APART || c->n < VB_CMP_MIN_APART) /* no evidence possible */
            snprintf(ph->why, sizeof ph->why, "too few samples (%d/%d; %d a side at least)", b->n,
                     c->n, VB_CMP_MIN_APART);
        else
            snprintf(ph->why, sizeof ph->why, "ranges overlap");
    }
}

/* What one case's judging reads: both sides' samples and how they stand to their controls. */
struct judging {
    struct rows b, c;
    struct vb_norm_ctx x;
    int traced;
    const struct vb_cmp_opts *o;
};

/* judge_series judges phase on every series it has (norm.h) into ph: the medians, ratio and
 * change of its time as measured; the verdict, limit, p and spread of the series that decides
 * (vb_norm_combine), named in ph->by when it is not the raw one. *added 0 when the phase is not
 * judged: no raw samples on a side or no time on either (e2e always is), or, a part of the GPU
 * time (gpu: that phase), under VB_CMP_SHARE of the base's GPU median unless it is new (none in
 * the base, VB_CMP_SHARE of the candidate's GPU median or more). 0, or -1 out of memory. */
static int judge_series(struct judging *j, const char *phase, const struct vb_cmp_phase *gpu,
                        struct vb_cmp_row *r, struct vb_cmp_phase *ph, int *added)
{
    enum vb_norm_kind kinds[VB_NORM_COUNT];
    struct vb_cmp_phase each[VB_NORM_COUNT];
    int verdict[VB_NORM_COUNT], n = vb_norm_kinds(&j->x, phase, kinds), i, pick, v;
    double ratio[VB_NORM_COUNT];
    struct side b, c;
    *added = 0;
    if (series(&j->x, &j->b, 0, phase, VB_NORM_RAW, &b, r) ||
        series(&j->x, &j->c, 1, phase, VB_NORM_RAW, &c, r)) {
        side_free(&b);
        return -1;
    }
    if ((!present(&b, &c) && strcmp(phase, "e2e")) ||
        (gpu && !(b.med > 0 && b.med >= VB_CMP_SHARE * gpu->med_base) &&
         !(b.med == 0 && c.med >= VB_CMP_SHARE * gpu->med_cand))) {
        side_free(&b);
        side_free(&c);
        return 0;
    }
    judge_phase(phase, &b, &c, j->traced, j->o, ph); /* the raw medians, shown whatever decides */
    ph->raw_verdict = ph->verdict;
    side_free(&b);
    side_free(&c);
    for (i = 0; i < n; i++) {
        if (kinds[i] == VB_NORM_RAW) {
            each[i] = *ph;
        } else {
            if (series(&j->x, &j->b, 0, phase, kinds[i], &b, r) ||
                series(&j->x, &j->c, 1, phase, kinds[i], &c, r)) {
                side_free(&b);
                return -1;
            }
            judge_phase(phase, &b, &c, j->traced, j->o, &each[i]);
            side_free(&b);
            side_free(&c);
        }
        verdict[i] = (int)each[i].verdict;
        ratio[i] = each[i].ratio;
    }
    v = vb_norm_combine(verdict, ratio, n, &pick);
    ph->verdict = (enum vb_verdict)v;
    ph->limit = each[pick].limit;
    ph->p = each[pick].p;
    ph->spread = each[pick].spread;
    ph->judged_ratio = each[pick].ratio;
    snprintf(ph->why, sizeof ph->why, "%s", each[pick].why);
    snprintf(ph->by, sizeof ph->by, "%s",
             kinds[pick] == VB_NORM_RAW ? "" : vb_norm_name(kinds[pick]));
    *added = 1;
    return 0;
}

/* add_phase judges phase into r's next phase (judge_series); info: shown, never the row's
 * verdict (a rank's waiting, norm.h). */
static int add_phase(struct judging *j, const char *phase, const struct vb_cmp_phase *gpu, int info,
                     struct vb_cmp_row *r, int *added)
{
    if (r->nphases == VB_CMP_MAX_PHASES) return *added = 0;
    if (judge_series(j, phase, gpu, r, &r->phases[r->nphases], added)) return -1;
    if (*added) r->phases[r->nphases++].info = info;
    return 0;
}

/* settle_gpu holds the GPU time to what its judged parts' limits allow it to move, each weighted
 * by its share of the base's GPU time (a part that moves within its own limit moves the sum by
 * its share of that): each part is judged on its own. */
static void settle_gpu(struct vb_cmp_row *r)
{
    struct vb_cmp_phase *g = NULL;
    double moved = 0; /* what the parts' limits allow the sum */
    int i;
    for (i = 0; i < r->nphases; i++)
        if (!strcmp(r->phases[i].name, "gpu")) g = &r->phases[i];
    if (!g) return;
    for (i = 0; i < r->nphases; i++) {
        const struct vb_cmp_phase *p = &r->phases[i];
        if (p == g || !vb_cmp_gpu_part(p->name)) continue;
        if (isfinite(p->limit) && g->med_base > 0 && p->med_base > 0)
            moved += p->med_base / g->med_base * p->limit;
    }
    g->limit = fmax(g->limit, moved);
    if (g->verdict != VB_VERDICT_SAME && fabs(g->judged_ratio - 1) < g->limit) {
        g->verdict = VB_VERDICT_SAME;
        g->why[0] = '\0';
    }
}

/* e2e_ratio sets r->e2e_ratio: from its e2e phase when judged, else from the samples. */
static void e2e_ratio(const struct judging *j, struct vb_cmp_row *r)
{
    struct side eb, ec;
    struct vb_cmp_row scratch;
    int i;
    for (i = 0; i < r->nphases; i++)
        if (!strcmp(r->phases[i].name, "e2e")) {
            r->e2e_ratio = r->phases[i].ratio;
            return;
        }
    memset(&scratch, 0, sizeof scratch); /* what it leaves out was counted by its phases */
    if (series(&j->x, &j->b, 0, "e2e", VB_NORM_RAW, &eb, &scratch) == 0 &&
        series(&j->x, &j->c, 1, "e2e", VB_NORM_RAW, &ec, &scratch) == 0)
        r->e2e_ratio = eb.med > 0 ? ec.med / eb.med : NAN;
    side_free(&eb);
    side_free(&ec);
}

/* median_ctl: the median of rw's control c that are times (> 0), NaN without any */
static double median_ctl(const struct rows *rw, int c)
{
    double *x = malloc(sizeof *x * (size_t)(rw->n + 1)), m = NAN;
    int k, n = 0;
    if (!x) return NAN;
    for (k = 0; k < rw->n; k++)
        if (rw->x[k].ctl[c] > 0 && isfinite(rw->x[k].ctl[c])) x[n++] = rw->x[k].ctl[c];
    if (n) m = vb_stats_median(x, (size_t)n);
    free(x);
    return m;
}

/* same_kind: do the two cases' copies of control c (H2D, D2H) move as many bytes of the same host
 * memory kind, as their records say (unknown on both sides: nothing says they differ)? A control
 * copies what its sample copies: pinned -> pageable, or twice the bytes, is the change judged,
 * not a host to normalise away. */
static int same_kind(const struct vb_case_row *b, const struct vb_case_row *c, int ctl)
{
    if (ctl == VB_CTL_H2D)
        return b->h2d_pageable == c->h2d_pageable && b->h2d_bytes == c->h2d_bytes;
    if (ctl == VB_CTL_D2H)
        return b->d2h_pageable == c->d2h_pageable && b->d2h_bytes == c->d2h_bytes;
    return 1;
}

/* controls sets j->x from both sides' samples: each control both measured for the case (the copies
 * of the same kind), else, where neither side measured any control (runs before schema 12), the
 * runs' ceilings (cb, cc: each side's, NULL unknown) */
static void controls(struct judging *j, const struct vb_case_row *b, const struct vb_case_row *c,
                     const struct vb_ceil_set *cb, const struct vb_ceil_set *cc)
{
    struct vb_norm_ctx *x = &j->x;
    int k, any = 0;
    for (k = 0; k < VB_CTL_COUNT; k++) {
        x->side[0][k] = median_ctl(&j->b, k);
        x->side[1][k] = median_ctl(&j->c, k);
        any |= isfinite(x->side[0][k]) || isfinite(x->side[1][k]);
        x->avail[k] = isfinite(x->side[0][k]) && isfinite(x->side[1][k]) && same_kind(b, c, k);
    }
    if (!any && cb && cc && !j->traced) {
        x->ceilings = 1;
        for (k = 0; k < VB_CTL_COUNT; k++) {
            x->side[0][k] = vb_ceil_control(cb, k, b);
            x->side[1][k] = vb_ceil_control(cc, k, b); /* the base's bytes: the rates alone */
            x->avail[k] = x->side[0][k] > 0 && x->side[1][k] > 0 && same_kind(b, c, k);
        }
    }
    for (k = 0; k < VB_CTL_COUNT; k++)
        x->ref[k] = x->side[0][k];
    /* a sample bound by the bus that copies nothing: its kernel reads host memory (zero-copy) */
    x->host_kernel = !strcmp(b->floor_bound, "pcie") && !b->h2d_bytes && !b->d2h_bytes;
}

/* judge_gpu_case judges a GPU case with records: under metric gpu its GPU time, each material
 * part and e2e; under another metric that phase. A rank of a multi-rank job (ranked) is judged on
 * its own time (e2e less its collectives) and its compute (its kernels less them); its e2e, its
 * collectives and its GPU time, which hold its wait for the others, are shown only. A traced
 * range's e2e comes first: the step its owner watches. */
static int judge_gpu_case(struct judging *j, int ranked, struct vb_cmp_row *r)
{
    const struct vb_cmp_opts *o = j->o;
    int added, i;
    if (strcmp(o->metric, "gpu")) {
        if (add_phase(j, o->metric, NULL, 0, r, &added)) return -1;
        if (!added)
            snprintf(r->basis, sizeof r->basis, "no %s records", vb_cmp_phase_label(o->metric));
        return 0;
    }
    if (j->traced && !ranked && add_phase(j, "e2e", NULL, 0, r, &added)) return -1;
    if (ranked &&
        (add_phase(j, "own", NULL, 0, r, &added) || add_phase(j, "compute", NULL, 0, r, &added)))
        return -1;
    if (add_phase(j, "gpu", NULL, ranked, r, &added)) return -1;
    if (added) {
        const struct vb_cmp_phase *g = &r->phases[r->nphases - 1];
        struct vb_cmp_phase gpu = *g; /* the parts are held to its share */
        for (i = 0; i < 4; i++)
            if (add_phase(j, parts[i], &gpu, ranked && !strcmp(parts[i], "kernel"), r, &added))
                return -1;
    } else if (!j->traced) {
        snprintf(r->basis, sizeof r->basis, "no GPU records");
    }
    settle_gpu(r);
    if (ranked &&
        (add_phase(j, "e2e", NULL, 1, r, &added) || add_phase(j, "comm", NULL, 1, r, &added)))
        return -1;
    if (!j->traced && add_phase(j, "e2e", NULL, 0, r, &added)) return -1;
    return 0;
}

int vb_cmp_judge_case(struct vb_store *base, const struct vb_case_row *b,
                      const struct vb_cmp_pool *bp, struct vb_store *cand,
                      const struct vb_case_row *c, const struct vb_cmp_opts *o,
                      const struct vb_ceil_set *cb, const struct vb_ceil_set *cc, int ranked,
                      struct vb_cmp_row *r, struct vb_err *err)
{
    struct judging j;
    int same = -1, rc = -1, added;
    if (strcmp(b->status, "ok") || !strcmp(c->status, "skipped")) {
        r->verdict = VB_VERDICT_NOT_COMPARED;
        if (strcmp(b->status, "ok"))
            snprintf(r->why, sizeof r->why, "%s in the base", b->status);
        else
            snprintf(r->why, sizeof r->why, "skipped in the candidate");
        return 0;
    }
    if (vb_store_whole_process(b->family, b->axes)) { /* its ranges and kernels are judged */
        r->verdict = VB_VERDICT_NOT_COMPARED;
        snprintf(r->why, sizeof r->why, "a whole traced process: one sample");
        return 0;
    }
    if (strcmp(c->status, "ok")) {
        r->verdict = VB_VERDICT_BROKEN;
        return 0;
    }
    if (b->samples == 0 && c->samples == 0) { /* verified, never timed (--quick's slow CPU) */
        r->verdict = VB_VERDICT_NOT_COMPARED;
        snprintf(r->why, sizeof r->why, "not timed in either run");
        return 0;
    }
    memset(&j, 0, sizeof j);
    j.o = o;
    j.traced = j.x.traced = vb_store_sampled_case(b->family, b->axes);
    if (read_rows(base, bp->id, bp->n, &j.b, err)) return -1;
    if (read_rows(cand, &c->id, 1, &j.c, err)) goto out;
    if (vb_norm_smooth(j.b.x, j.b.n) || vb_norm_smooth(j.c.x, j.c.n)) goto oom;
    controls(&j, b, c, cb, cc);
    if (!b->needs_gpu)
        snprintf(r->basis, sizeof r->basis, "CPU-only");
    else if (!b->have_records || !c->have_records)
        snprintf(r->basis, sizeof r->basis, "no CUPTI records");
    j.x.cpu_case = !b->needs_gpu && !j.traced; /* its time is the host's alone */
    if (!r->basis[0] && strcmp(o->metric, "e2e") && judge_gpu_case(&j, ranked, r)) goto oom;
    if (!r->nphases && add_phase(&j, "e2e", NULL, 0, r, &added)) goto oom;
    if (!r->nphases) { /* a filter kept a case with no time of its own on either side */
        r->verdict = VB_VERDICT_NOT_COMPARED;
        snprintf(r->why, sizeof r->why, "no timed samples on a side");
        rc = 0;
        goto out;
    }
    if (j.x.ceilings) snprintf(r->basis, sizeof r->basis, "controls: the runs' ceilings");
    e2e_ratio(&j, r);
    if (b->needs_gpu && vb_code_case(base, b->id, cand, c->id, &same, err)) goto out;
    vb_code_hold(r, same);
    vb_cmp_decide(r);
    if (b->throttled || c->throttled) {
        /* a lower clock on some samples: the times are not comparable, whatever they say */
        r->verdict = VB_VERDICT_NOISY;
        snprintf(r->why, sizeof r->why, "throttled: %s",
                 b->throttled && c->throttled ? "both runs"
                 : b->throttled               ? "base"
                                              : "candidate");
    }
    vb_cmp_environment(b, c, r, vb_cmp_phase_label(r->phase));
    rc = 0;
    goto out;
oom:
    vb_err_set(err, VB_E_SYS, "out of memory judging the samples");
out:
    rows_free(&j.b);
    rows_free(&j.c);
    return rc;
}

void vb_cmp_judge_values(const char *phase, double *b, int nb, double *c, int nc, int traced,
                         const struct vb_cmp_opts *o, struct vb_cmp_phase *ph)
{
    struct side sb = {b, nb, NAN, NAN}, sc = {c, nc, NAN, NAN};
    side_read(&sb);
    side_read(&sc);
    judge_phase(phase, &sb, &sc, traced, o, ph);
    ph->raw_verdict = ph->verdict;
}
