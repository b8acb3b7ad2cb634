/* compare: matching the cases of two runs and judging each, phase by phase (see compare.h). */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boards.h"
#include "code_diff.h"
#include "environ.h"
#include "glob.h"
#include "stats.h"

static const char *const names[] = {
#define X(id, name) name,
    VB_VERDICTS(X)
#undef X
};

/* The parts of the GPU time judged on their own under metric "gpu", in display order. */
static const char *const parts[] = {"h2d", "kernel", "d2h", "memset"};

const char *vb_verdict_name(enum vb_verdict v)
{
    return v < VB_VERDICT_COUNT ? names[v] : "?";
}

void vb_cmp_opts_default(struct vb_cmp_opts *o)
{
    o->threshold = 0.05;
    o->alpha = 0.001;
    o->min_samples = 5;
    o->metric = "gpu";
    o->across_devices = 0;
    o->baseline_runs = 1;
    o->base_device = o->cand_device = -1;
    o->filter = NULL;
}

int vb_cmp_metric_ok(const char *name)
{
    static const char *const ok[] = {"gpu", "kernel", "h2d", "d2h", "memset", "e2e"};
    size_t i;
    for (i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!strcmp(name, ok[i])) return 1;
    return 0;
}

const char *vb_cmp_phase_label(const char *phase)
{
    if (!strcmp(phase, "gpu")) return "GPU";
    if (!strcmp(phase, "h2d")) return "H2D";
    if (!strcmp(phase, "d2h")) return "D2H";
    return phase;
}

void vb_cmp_result_free(struct vb_cmp_result *res)
{
    free(res->rows);
    memset(res, 0, sizeof *res);
}

int vb_cmp_exit(const struct vb_cmp_result *res)
{
    if (res->count[VB_VERDICT_SLOWER] || res->count[VB_VERDICT_BROKEN]) return 1;
    return res->count[VB_VERDICT_NOISY] || !res->compared ? vb_code_exit(VB_E_INCONCLUSIVE) : 0;
}

int vb_cmp_severity(enum vb_verdict v)
{
    switch (v) {
    case VB_VERDICT_BROKEN:
        return 4;
    case VB_VERDICT_SLOWER:
        return 3;
    case VB_VERDICT_NOISY:
        return 2;
    case VB_VERDICT_FASTER:
        return 1;
    default:
        return 0;
    }
}

char *vb_cmp_fmt_change(double ratio, int decimals, char *buf, size_t n)
{
    if (isnan(ratio))
        snprintf(buf, n, "-");
    else if (isinf(ratio))
        snprintf(buf, n, "new"); /* none in the base */
    else
        snprintf(buf, n, "%+.*f%%", decimals, (ratio - 1) * 100);
    return buf;
}

char *vb_cmp_row_text(const struct vb_cmp_row *r, char *buf, size_t n)
{
    const char *v = vb_verdict_name(r->verdict);
    char ch[32];
    vb_cmp_fmt_change(r->ratio, 0, ch, sizeof ch);
    switch (r->verdict) {
    case VB_VERDICT_SLOWER:
    case VB_VERDICT_FASTER:
        snprintf(buf, n, "%s (%s %s)", v, vb_cmp_phase_label(r->phase), ch);
        break;
    case VB_VERDICT_SAME: /* its why: what the ledger saw beside it (environ.h) */
    case VB_VERDICT_NOISY:
    case VB_VERDICT_NOT_COMPARED:
        if (r->why[0])
            snprintf(buf, n, "%s (%s)", v, r->why);
        else
            snprintf(buf, n, "%s", v);
        break;
    case VB_VERDICT_BROKEN:
        snprintf(buf, n, "%s (%s -> %s)", v, r->status_base, r->status_cand);
        break;
    default:
        snprintf(buf, n, "%s", v);
    }
    return buf;
}

/* One side of a phase: its samples, sorted (owned), and what is read off them. */
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

/* fetch reads the timed samples of metric of the cases ids[0..n) (one case, or a pooled
 * baseline's), concatenated, into d, sorted. A stored sample that is no duration (negative,
 * infinite) is missing: left out, counted in r->dropped (r->dropped_col names the first column). */
static int fetch(struct vb_store *s, const int64_t *ids, int n, const char *metric, struct side *d,
                 struct vb_cmp_row *r, struct vb_err *err)
{
    int k, kept;
    memset(d, 0, sizeof *d);
    d->med = d->spread = NAN;
    if (vb_store_samples(s, ids[0], metric, &d->x, &d->n, err)) return -1;
    for (k = 1; k < n; k++) {
        double *x, *all;
        int m;
        if (vb_store_samples(s, ids[k], metric, &x, &m, err)) goto fail;
        if (m && !(all = realloc(d->x, sizeof *all * (size_t)(d->n + m)))) {
            free(x);
            vb_err_set(err, VB_E_SYS, "out of memory");
            goto fail;
        }
        if (m) {
            memcpy(all + d->n, x, sizeof *x * (size_t)m);
            d->x = all;
            d->n += m;
        }
        free(x);
    }
    for (k = kept = 0; k < d->n; k++)
        if (isfinite(d->x[k]) && d->x[k] >= 0) d->x[kept++] = d->x[k];
    if (kept < d->n && !r->dropped)
        snprintf(r->dropped_col, sizeof r->dropped_col, "%s_ns", metric);
    r->dropped += d->n - kept;
    d->n = kept;
    if (d->n > 0) {
        vb_stats_sort(d->x, (size_t)d->n);
        d->med = vb_stats_median_sorted(d->x, (size_t)d->n);
        d->spread = vb_stats_iqr_ratio(d->x, (size_t)d->n);
    }
    return 0;
fail:
    side_free(d);
    return -1;
}

/* The base side of a case: the base run's case, then its matches in the pooled runs. */
struct pool {
    int64_t id[VB_CMP_MAX_POOL];
    int n;
};

/* present: does the phase have samples on both sides, and any time on one of them? */
static int present(const struct side *b, const struct side *c)
{
    return b->n > 0 && c->n > 0 && (b->med > 0 || c->med > 0);
}

/* What a phase's samples are, for its limits (compare.h): flags of judge_phase and add_phase. */
enum {
    PH_PAGEABLE = 1,  /* it moves pageable host memory (a copy, or an e2e holding one) */
    PH_HOST_ONLY = 2, /* an e2e that is the case's only time: a CPU-only case, no records */
};

/* floor_of: the least relative change a phase must show, by what it is (compare.h) */
static double floor_of(const char *name, int flags, int unstable)
{
    if (!strcmp(name, "e2e")) {
        if (flags & PH_HOST_ONLY) return VB_CMP_HOST_FLOOR;
        return unstable ? VB_CMP_UNSTABLE_FLOOR : VB_CMP_E2E_FLOOR;
    }
    if (unstable) return VB_CMP_UNSTABLE_FLOOR;
    return !strcmp(name, "h2d") || !strcmp(name, "d2h") ? VB_CMP_COPY_FLOOR : 0;
}

/* judge_phase fills ph from the two sides (n > 0 each): the rule of compare.h. */
static void judge_phase(const char *name, const struct side *b, const struct side *c, int flags,
                        const struct vb_cmp_opts *o, struct vb_cmp_phase *ph)
{
    int ranked, slower, apart, e2e = !strcmp(name, "e2e");
    memset(ph, 0, sizeof *ph);
    snprintf(ph->name, sizeof ph->name, "%s", name);
    ph->n_base = b->n;
    ph->n_cand = c->n;
    ph->med_base = b->med;
    ph->med_cand = c->med;
    ph->p = ph->ratio = ph->spread = ph->limit = NAN;
    if (b->n == 0 || c->n == 0 || !isfinite(b->med) || !isfinite(c->med)) {
        ph->verdict = VB_VERDICT_NOISY;
        snprintf(ph->why, sizeof ph->why, "no timed samples on a side");
        return;
    }
    ph->ratio = b->med > 0 ? c->med / b->med : c->med > 0 ? INFINITY : 1.0;
    ph->spread = fmax(b->spread, c->spread); /* fmax ignores the NaN of a zero median */
    ph->limit = fmax(o->threshold, VB_CMP_NOISE_FACTOR * ph->spread);
    ph->unstable = (flags & (PH_PAGEABLE | PH_HOST_ONLY)) || ph->spread >= VB_CMP_UNSTABLE_SPREAD;
    ph->limit = fmax(ph->limit, floor_of(name, flags, ph->unstable));
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

/* add_phase judges metric's samples of the two cases into r's next phase. Nothing is judged
 * (*added = 0) when a phase other than e2e has no samples on a side or no time on either, or,
 * for a part of the GPU time (gpu: that phase, else NULL), when its base median is under
 * VB_CMP_SHARE of the base's GPU median, unless it is new: none in the base, VB_CMP_SHARE of the
 * candidate's GPU median or more (a memset or a copy the candidate added). */
static int add_phase(struct vb_store *base, const struct pool *bp, struct vb_store *cand,
                     int64_t cid, const char *metric, const struct vb_cmp_phase *gpu, int flags,
                     const struct vb_cmp_opts *o, struct vb_cmp_row *r, int *added,
                     struct vb_err *err)
{
    struct side b, c;
    int rc = -1;
    *added = 0;
    if (fetch(base, bp->id, bp->n, metric, &b, r, err)) return -1;
    if (fetch(cand, &cid, 1, metric, &c, r, err)) goto out;
    rc = 0;
    if (!present(&b, &c) && strcmp(metric, "e2e")) goto out;
    if (gpu && !(b.med > 0 && b.med >= VB_CMP_SHARE * gpu->med_base) &&
        !(b.med == 0 && c.med >= VB_CMP_SHARE * gpu->med_cand))
        goto out;
    judge_phase(metric, &b, &c, flags, o, &r->phases[r->nphases++]);
    *added = 1;
out:
    side_free(&b);
    side_free(&c);
    return rc;
}

void vb_cmp_decide(struct vb_cmp_row *r)
{
    const struct vb_cmp_phase *d = &r->phases[0];
    int i;
    for (i = 1; i < r->nphases; i++) {
        const struct vb_cmp_phase *p = &r->phases[i];
        int sp = vb_cmp_severity(p->verdict), sd = vb_cmp_severity(d->verdict);
        /* among equal verdicts a larger change, by more than rounding: a phase that is the
         * whole GPU time leaves the verdict to "gpu" */
        if (sp > sd ||
            (sp == sd && sp > 0 && fabs(log(p->ratio)) > fabs(log(d->ratio)) * (1 + 1e-9)))
            d = p;
    }
    snprintf(r->phase, sizeof r->phase, "%s", d->name);
    r->n_base = d->n_base;
    r->n_cand = d->n_cand;
    r->med_base = d->med_base;
    r->med_cand = d->med_cand;
    r->ratio = d->ratio;
    r->p = d->p;
    r->spread = d->spread;
    r->limit = d->limit;
    r->verdict = d->verdict;
    if (d->verdict == VB_VERDICT_NOISY)
        snprintf(r->why, sizeof r->why, "%s: %s", vb_cmp_phase_label(d->name), d->why);
}

/* pageable_phase: does the phase copy pageable host memory on either side (by the CUPTI
 * records the store kept; unknown counts as no, and the spread then decides)? e2e holds both
 * copies. Returns PH_PAGEABLE or 0. */
static int pageable_phase(const struct vb_case_row *b, const struct vb_case_row *c,
                          const char *phase)
{
    return vb_cmp_pageable(b->h2d_pageable == 1 || c->h2d_pageable == 1,
                           b->d2h_pageable == 1 || c->d2h_pageable == 1, phase)
               ? PH_PAGEABLE
               : 0;
}

int vb_cmp_pageable(int h2d, int d2h, const char *phase)
{
    return !strcmp(phase, "e2e")   ? h2d || d2h
           : !strcmp(phase, "h2d") ? h2d
                                   : !strcmp(phase, "d2h") && d2h;
}

/* settle_gpu holds the GPU time (phases[0]) to what its judged parts' limits allow it to move,
 * each weighted by its share of the base's GPU time (a part that moves within its own limit moves
 * the sum by its share of that), and to the unsettled floor when one of them is unsettled: each
 * part is judged on its own. Called before e2e is added (e2e is not a part of the GPU time). */
static void settle_gpu(struct vb_cmp_row *r)
{
    struct vb_cmp_phase *g = &r->phases[0];
    double moved = 0; /* what the parts' limits allow the sum */
    int i;
    if (strcmp(g->name, "gpu")) return;
    for (i = 1; i < r->nphases; i++) {
        const struct vb_cmp_phase *p = &r->phases[i];
        g->unstable |= p->unstable;
        if (isfinite(p->limit) && g->med_base > 0 && p->med_base > 0)
            moved += p->med_base / g->med_base * p->limit;
    }
    g->limit = fmax(g->limit, moved);
    if (g->unstable) g->limit = fmax(g->limit, VB_CMP_UNSTABLE_FLOOR);
    if (g->verdict != VB_VERDICT_SAME && fabs(g->ratio - 1) < g->limit) {
        g->verdict = VB_VERDICT_SAME;
        g->why[0] = '\0';
    }
}

/* e2e_ratio sets r->e2e_ratio: from its e2e phase when judged, else from the samples (one fetch
 * of each side's e2e samples a case). 0 or -1 with err. */
static int e2e_ratio(struct vb_store *base, const struct pool *bp, struct vb_store *cand,
                     const struct vb_case_row *c, struct vb_cmp_row *r, struct vb_err *err)
{
    struct side eb, ec;
    int i;
    for (i = 0; i < r->nphases; i++)
        if (!strcmp(r->phases[i].name, "e2e")) {
            r->e2e_ratio =
                r->phases[i].med_base > 0 ? r->phases[i].med_cand / r->phases[i].med_base : NAN;
            return 0;
        }
    if (fetch(base, bp->id, bp->n, "e2e", &eb, r, err)) return -1;
    if (fetch(cand, &c->id, 1, "e2e", &ec, r, err)) {
        side_free(&eb);
        return -1;
    }
    r->e2e_ratio = eb.med > 0 ? ec.med / eb.med : NAN;
    side_free(&eb);
    side_free(&ec);
    return 0;
}

/* judge fills r's phases and verdict from the two cases' samples; the base side's samples are
 * those of the cases of bp (b's, then its pooled matches). */
static int judge(struct vb_store *base, const struct vb_case_row *b, const struct pool *bp,
                 struct vb_store *cand, const struct vb_case_row *c, const struct vb_cmp_opts *o,
                 struct vb_cmp_row *r, struct vb_err *err)
{
    int added, i, same = -1;
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
    if (!b->needs_gpu) {
        snprintf(r->basis, sizeof r->basis, "CPU-only");
    } else if (!b->have_records || !c->have_records) {
        snprintf(r->basis, sizeof r->basis, "no CUPTI records");
    } else if (strcmp(o->metric, "e2e")) {
        if (add_phase(base, bp, cand, c->id, o->metric, NULL, pageable_phase(b, c, o->metric), o, r,
                      &added, err))
            return -1;
        if (!added)
            snprintf(r->basis, sizeof r->basis, "no %s records", vb_cmp_phase_label(o->metric));
        else if (!strcmp(o->metric, "gpu"))
            for (i = 0; i < 4; i++)
                if (add_phase(base, bp, cand, c->id, parts[i], &r->phases[0],
                              pageable_phase(b, c, parts[i]), o, r, &added, err))
                    return -1;
        settle_gpu(r);
        /* and the host's side of the same samples */
        if (r->nphases && !strcmp(o->metric, "gpu") &&
            add_phase(base, bp, cand, c->id, "e2e", NULL, pageable_phase(b, c, "e2e"), o, r, &added,
                      err))
            return -1;
    }
    if (!r->nphases &&
        add_phase(base, bp, cand, c->id, "e2e", NULL,
                  r->basis[0] ? PH_HOST_ONLY : pageable_phase(b, c, "e2e"), o, r, &added, err))
        return -1;
    if (e2e_ratio(base, bp, cand, c, r, err)) return -1;
    if (b->needs_gpu && vb_code_case(base, b->id, cand, c->id, &same, err)) return -1;
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
    return 0;
}

static struct vb_cmp_row *add_row(struct vb_cmp_result *res, int *cap, struct vb_err *err)
{
    struct vb_cmp_row *r;
    if (res->nrows == *cap) {
        void *p = realloc(res->rows, sizeof *res->rows * (size_t)(*cap = *cap ? *cap * 2 : 32));
        if (!p) {
            vb_err_set(err, VB_E_SYS, "out of memory");
            return NULL;
        }
        res->rows = p;
    }
    r = &res->rows[res->nrows++];
    memset(r, 0, sizeof *r);
    r->ratio = r->p = r->med_base = r->med_cand = r->e2e_ratio = r->spread = r->limit = NAN;
    r->code_same = -1;
    return r;
}

/* check_run refuses a run that is not complete: its cases may be missing or half-written, and
 * a comparison of them would pass for a verdict on the whole suite. Sets gpu to its GPU. */
static int check_run(struct vb_store *s, int64_t run, const char *side, char *gpu, size_t n,
                     struct vb_err *err)
{
    struct vb_run_info_row ri;
    const char *why;
    if (vb_store_run_info(s, run, &ri, err)) return -1;
    snprintf(gpu, n, "%s", ri.gpu);
    if (!strcmp(ri.status, "complete")) return 0;
    if (!strcmp(ri.status, "running"))
        why = "it did not finish (killed, or still writing)";
    else if (!strcmp(ri.status, "interrupted"))
        why = "it was stopped before its end";
    else if (!strcmp(ri.status, "failed"))
        why = "it failed";
    else
        why = "it did not end as complete";
    vb_err_set(err, VB_E_USAGE, "%s run %lld is '%s': %s%s%s%s; compare a complete run", side,
               (long long)run, ri.status, why, ri.message[0] ? " ('" : "", ri.message,
               ri.message[0] ? "')" : "");
    return vb_err_hint(err, "without --base-run/--cand-run, compare takes each database's newest "
                            "complete run");
}

/* judged: did the row get a verdict on its times or its result? */
static int judged(const struct vb_cmp_row *r)
{
    return r->verdict == VB_VERDICT_SAME || r->verdict == VB_VERDICT_FASTER ||
           r->verdict == VB_VERDICT_SLOWER || r->verdict == VB_VERDICT_NOISY ||
           r->verdict == VB_VERDICT_BROKEN;
}

/* conclude counts the compared cases and, when there are none, says why in res->why. A run
 * with GPU cases is judged on them: its CPU references alone make no GPU comparison (a run on
 * a machine without a GPU skips every GPU case and still times the references). */
static void conclude(struct vb_cmp_result *res)
{
    int i, gpu = 0, cpu_judged = 0, nc = 0, ob = 0, oc = 0, total = 0;
    for (i = 0; i < res->nrows; i++)
        gpu |= res->rows[i].needs_gpu;
    for (i = 0; i < res->nrows; i++) {
        const struct vb_cmp_row *r = &res->rows[i];
        if (gpu && !r->needs_gpu) {
            cpu_judged += judged(r);
            continue;
        }
        total++;
        if (judged(r)) res->compared++;
        nc += r->verdict == VB_VERDICT_NOT_COMPARED;
        ob += r->verdict == VB_VERDICT_ONLY_BASE;
        oc += r->verdict == VB_VERDICT_ONLY_CAND;
    }
    if (res->compared) return;
    if (!total) {
        snprintf(res->why, sizeof res->why, "nothing was compared: neither run has a case");
        return;
    }
    snprintf(res->why, sizeof res->why,
             "nothing was compared%s: of %d %scases, %d not-compared (skipped, or not ok in the "
             "base), %d only in the base run, %d only in the candidate run%s%s",
             gpu ? " on the GPU" : "", total, gpu ? "GPU " : "", nc, ob, oc,
             cpu_judged ? "; CPU-only cases alone do not judge the GPU" : "",
             gpu && nc ? " (a run without a GPU skips every GPU case)" : "");
}

/* model_of copies into gpu the GPU model of the first GPU case of rows[0..n), if there is one:
 * the model of the device judged, which need not be the run's device 0. */
static void model_of(const struct vb_case_row *rows, int n, char *gpu, size_t cap)
{
    int i;
    for (i = 0; i < n; i++)
        if (rows[i].device_id >= 0 && rows[i].device[0]) {
            snprintf(gpu, cap, "%s", rows[i].device);
            return;
        }
}

/* keep_glob keeps, in order, the cases of rows[0..*n) whose variant glob matches (glob.h) */
static void keep_glob(struct vb_case_row *rows, int *n, const char *glob)
{
    int i, m = 0;
    for (i = 0; glob && i < *n; i++)
        if (vb_variant_glob(glob, rows[i].family, rows[i].variant)) rows[m++] = rows[i];
    if (glob) *n = m;
}

/* all_traced: whether rows[0..n) are cases of varbench trace (and there are some) */
static int all_traced(const struct vb_case_row *rows, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (strcmp(rows[i].family, "trace")) return 0;
    return n > 0;
}

/* pool_of fills bp with b's id, then the id of b's match (same variant and axes, ok, not
 * throttled: its times are comparable) in each pooled run pr[1..npool). */
static void pool_of(const struct vb_case_row *b, struct vb_case_row *const *pr, const int *pn,
                    int npool, struct pool *bp)
{
    int k, j;
    bp->id[0] = b->id;
    bp->n = 1;
    for (k = 1; k < npool; k++)
        for (j = 0; j < pn[k]; j++) {
            const struct vb_case_row *p = &pr[k][j];
            if (strcmp(p->variant, b->variant) || strcmp(p->axes, b->axes)) continue;
            if (!strcmp(p->status, "ok") && !p->throttled) bp->id[bp->n++] = p->id;
            break;
        }
}

int vb_compare_runs(struct vb_store *base, int64_t run_base, struct vb_store *cand,
                    int64_t run_cand, const struct vb_cmp_opts *o, struct vb_cmp_result *res,
                    struct vb_err *err)
{
    struct vb_case_row *cb = NULL, *cc = NULL, *pr[VB_CMP_MAX_POOL] = {NULL};
    int nb = 0, nc = 0, i, j, cap = 0, rc = -1, pn[VB_CMP_MAX_POOL] = {0}, traced;
    char *used = NULL;
    memset(res, 0, sizeof *res);
    if (!vb_cmp_metric_ok(o->metric))
        return vb_err_set(err, VB_E_USAGE,
                          "unknown metric '%s' (gpu, kernel, h2d, d2h, memset "
                          "or e2e)",
                          o->metric);
    if (o->baseline_runs < 1 || o->baseline_runs > VB_CMP_MAX_POOL)
        return vb_err_set(err, VB_E_USAGE, "baseline runs %d: from 1 to %d", o->baseline_runs,
                          VB_CMP_MAX_POOL);
    if ((run_base <= 0 && vb_store_latest_run(base, &run_base, err)) ||
        (run_cand <= 0 && vb_store_latest_run(cand, &run_cand, err)))
        return -1;
    res->run_base = run_base;
    res->run_cand = run_cand;
    if (check_run(base, run_base, "base", res->gpu_base, sizeof res->gpu_base, err) ||
        check_run(cand, run_cand, "candidate", res->gpu_cand, sizeof res->gpu_cand, err))
        goto out;
    if (vb_store_cases(base, run_base, &cb, &nb, err) ||
        vb_store_cases(cand, run_cand, &cc, &nc, err))
        goto out;
    keep_glob(cb, &nb, o->filter);
    keep_glob(cc, &nc, o->filter);
    if (o->filter && !nb && !nc) {
        vb_err_set(err, VB_E_USAGE, "--filter '%s' matches no case of either run", o->filter);
        vb_err_hint(err, "'varbench list' lists the variants; globs are family/variant ('mesh/*')");
        goto out;
    }
    /* two traced runs match their processes by rank (an axis), each on its own device */
    traced = all_traced(cb, nb) && all_traced(cc, nc);
    if (traced) {
        res->dev_base = res->dev_cand = -1;
    } else if (vb_boards_pick(cb, &nb, o->base_device, o->across_devices, "base", run_base,
                              &res->dev_base, &res->ndev_base, res->dev_note[0],
                              sizeof res->dev_note[0], err) ||
               vb_boards_pick(cc, &nc, o->cand_device, o->across_devices, "candidate", run_cand,
                              &res->dev_cand, &res->ndev_cand, res->dev_note[1],
                              sizeof res->dev_note[1], err)) {
        goto out;
    }
    model_of(cb, nb, res->gpu_base, sizeof res->gpu_base);
    model_of(cc, nc, res->gpu_cand, sizeof res->gpu_cand);
    if (!o->across_devices && strcmp(res->gpu_base, res->gpu_cand)) {
        vb_err_set(
            err, VB_E_USAGE, "the runs are on different GPU models: base '%s', candidate '%s'",
            res->gpu_base[0] ? res->gpu_base : "none", res->gpu_cand[0] ? res->gpu_cand : "none");
        vb_err_hint(err, "a regression verdict needs the same GPU model; pass "
                         "--across-devices for a hardware comparison");
        goto out;
    }
    if (vb_store_run_pool(base, run_base, res->pool, o->baseline_runs, &res->npool, err)) goto out;
    for (i = 1; i < res->npool; i++) {
        if (vb_store_cases(base, res->pool[i], &pr[i], &pn[i], err)) goto out;
        keep_glob(pr[i], &pn[i], o->filter);
        if (!traced) vb_boards_keep(pr[i], &pn[i], res->dev_base);
    }
    used = calloc((size_t)nc + 1, 1);
    if (!used) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        goto out;
    }
    for (i = 0; i < nb; i++) {
        struct vb_cmp_row *r = add_row(res, &cap, err);
        if (!r) goto out;
        snprintf(r->variant, sizeof r->variant, "%s", cb[i].variant);
        snprintf(r->axes, sizeof r->axes, "%s", cb[i].axes);
        snprintf(r->status_base, sizeof r->status_base, "%s", cb[i].status);
        r->needs_gpu = cb[i].needs_gpu;
        for (j = 0; j < nc; j++)
            if (!used[j] && !strcmp(cc[j].variant, cb[i].variant) &&
                !strcmp(cc[j].axes, cb[i].axes))
                break;
        if (j == nc) {
            r->verdict = VB_VERDICT_ONLY_BASE;
        } else {
            struct pool bp;
            used[j] = 1;
            snprintf(r->status_cand, sizeof r->status_cand, "%s", cc[j].status);
            pool_of(&cb[i], pr, pn, res->npool, &bp);
            if (judge(base, &cb[i], &bp, cand, &cc[j], o, r, err)) {
                vb_err_context(err, "case '%s' %s", cb[i].variant, cb[i].axes);
                goto out;
            }
        }
        res->count[r->verdict]++;
    }
    for (j = 0; j < nc; j++) {
        struct vb_cmp_row *r;
        if (used[j]) continue;
        if (!(r = add_row(res, &cap, err))) goto out;
        snprintf(r->variant, sizeof r->variant, "%s", cc[j].variant);
        snprintf(r->axes, sizeof r->axes, "%s", cc[j].axes);
        snprintf(r->status_cand, sizeof r->status_cand, "%s", cc[j].status);
        r->needs_gpu = cc[j].needs_gpu;
        r->verdict = VB_VERDICT_ONLY_CAND;
        res->count[r->verdict]++;
    }
    conclude(res);
    rc = 0;
out:
    for (i = 1; i < VB_CMP_MAX_POOL; i++)
        free(pr[i]);
    free(cb);
    free(cc);
    free(used);
    if (rc) vb_cmp_result_free(res);
    return rc;
}
