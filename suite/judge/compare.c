/* compare: matching the cases of two runs and judging each, phase by phase (see compare.h). */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boards.h"
#include "code_diff.h"
#include "ranks.h"
#include "environ.h"
#include "glob.h"
#include "judge_case.h"
#include "moved.h"
#include "norm.h"
#include "stats.h"

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

/* multi_rank: is c a rank's range in rows[0..n) where another rank sampled the same range of
 * the same program? */
static int multi_rank(const struct vb_case_row *rows, int n, const struct vb_case_row *c)
{
    const char *range, *r2;
    long rank, rank2;
    int i;
    if (!vb_rank_of(c, &range, &rank)) return 0;
    for (i = 0; i < n; i++)
        if (vb_rank_of(&rows[i], &r2, &rank2) && rank2 != rank && !strcmp(r2, range) &&
            !strcmp(rows[i].variant, c->variant))
            return 1;
    return 0;
}

/* job_ids writes the ids of the ranks' cases of range of variant in rows[0..n) into ids (cap n);
 * returns how many */
static int job_ids(const struct vb_case_row *rows, int n, const char *variant, const char *range,
                   int64_t *ids)
{
    const char *r2;
    long rank;
    int i, m = 0;
    for (i = 0; i < n; i++)
        if (vb_rank_of(&rows[i], &r2, &rank) && !strcmp(r2, range) &&
            !strcmp(rows[i].variant, variant))
            ids[m++] = rows[i].id;
    return m;
}

/* job_rows adds a row for each range that two or more ranks of a program sampled in both runs:
 * the job's steps (ranks.h's vb_rank_job_steps), judged on their e2e as a traced range's are */
static int job_rows(struct vb_store *base, const struct vb_case_row *cb, int nb,
                    struct vb_store *cand, const struct vb_case_row *cc, int nc,
                    const struct vb_cmp_opts *o, struct vb_cmp_result *res, int *cap,
                    struct vb_err *err)
{
    int64_t *ib = malloc(sizeof *ib * (size_t)(nb + 1)),
            *ic = malloc(sizeof *ic * (size_t)(nc + 1));
    int i, k, rc = -1;
    if (!ib || !ic) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        goto out;
    }
    for (i = 0; i < nc; i++) {
        const char *range, *r2;
        long rank, rank2;
        int mb, mc, seen = 0, nsb, nsc;
        double *xb, *xc;
        struct vb_cmp_row *r;
        if (!multi_rank(cc, nc, &cc[i]) || !vb_rank_of(&cc[i], &range, &rank)) continue;
        for (k = 0; k < i && !seen; k++) /* each range once: at its first rank */
            seen = vb_rank_of(&cc[k], &r2, &rank2) && !strcmp(r2, range) &&
                   !strcmp(cc[k].variant, cc[i].variant);
        mb = job_ids(cb, nb, cc[i].variant, range, ib);
        mc = job_ids(cc, nc, cc[i].variant, range, ic);
        if (seen || mb < 2) continue;
        if (vb_rank_job_steps(base, ib, mb, &xb, &nsb, err)) goto out;
        if (vb_rank_job_steps(cand, ic, mc, &xc, &nsc, err)) {
            free(xb);
            goto out;
        }
        if (!(r = add_row(res, cap, err))) {
            free(xb);
            free(xc);
            goto out;
        }
        snprintf(r->variant, sizeof r->variant, "%s", cc[i].variant);
        snprintf(r->axes, sizeof r->axes, "range=%s,ranks=%d", range, mc);
        snprintf(r->status_base, sizeof r->status_base, "ok");
        snprintf(r->status_cand, sizeof r->status_cand, "ok");
        snprintf(r->basis, sizeof r->basis, "the job: each step's slowest rank");
        r->needs_gpu = cc[i].needs_gpu;
        vb_cmp_judge_values("e2e", xb, nsb, xc, nsc, 1, o, &r->phases[0]);
        free(xb);
        free(xc);
        r->nphases = 1;
        r->e2e_ratio = r->phases[0].ratio;
        vb_cmp_decide(r);
        res->count[r->verdict]++;
    }
    rc = 0;
out:
    free(ib);
    free(ic);
    return rc;
}

/* pool_of fills bp with b's id, then the id of b's match (same variant and axes, ok, not
 * throttled: its times are comparable) in each pooled run pr[1..npool). */
static void pool_of(const struct vb_case_row *b, struct vb_case_row *const *pr, const int *pn,
                    int npool, struct vb_cmp_pool *bp)
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

/* explain names in r->moved the counters that moved (moved.h) when r, a GPU case of b and c
 * measured by both runs' metrics passes, is slower or faster in a GPU phase; for a whole traced
 * process measured by trace --metrics on both sides, the kernels that moved and their counters.
 * 0, or -1 with err. */
static int explain(struct vb_store *base, const struct vb_case_row *b, struct vb_store *cand,
                   const struct vb_case_row *c, const struct vb_cmp_opts *o, struct vb_cmp_row *r,
                   struct vb_err *err)
{
    if (vb_store_whole_process(b->family, b->axes)) /* trace --metrics: its kernels */
        return !strcmp(b->metrics_status, "ok") && !strcmp(c->metrics_status, "ok")
                   ? vb_moved_kernels(base, b->id, cand, c->id, o->threshold, r->moved,
                                      sizeof r->moved, err)
                   : 0;
    if ((r->verdict != VB_VERDICT_SLOWER && r->verdict != VB_VERDICT_FASTER) || !r->needs_gpu ||
        !r->phase[0] || !strcmp(r->phase, "e2e") || strcmp(b->metrics_status, "ok") ||
        strcmp(c->metrics_status, "ok"))
        return 0;
    return vb_moved_line(base, b->id, cand, c->id, r->ratio, o->threshold, r->moved,
                         sizeof r->moved, err);
}

int vb_compare_runs(struct vb_store *base, int64_t run_base, struct vb_store *cand,
                    int64_t run_cand, const struct vb_cmp_opts *o, struct vb_cmp_result *res,
                    struct vb_err *err)
{
    struct vb_case_row *cb = NULL, *cc = NULL, *pr[VB_CMP_MAX_POOL] = {NULL};
    struct vb_ceiling_row *kb = NULL, *kc = NULL;
    struct vb_ceil_set ceil[2];
    int nb = 0, nc = 0, i, j, cap = 0, rc = -1, pn[VB_CMP_MAX_POOL] = {0}, traced, nkb = 0, nkc = 0;
    int have_ceil[2] = {0, 0};
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
    /* the ceilings of each side's device: the controls of a run before schema 12 */
    if (vb_store_ceiling_rows(base, &kb, &nkb, err) || vb_store_ceiling_rows(cand, &kc, &nkc, err))
        goto out;
    have_ceil[0] = vb_ceil_set_of(kb, nkb, run_base, res->dev_base, &ceil[0]);
    have_ceil[1] = vb_ceil_set_of(kc, nkc, run_cand, res->dev_cand, &ceil[1]);
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
            struct vb_cmp_pool bp;
            used[j] = 1;
            snprintf(r->status_cand, sizeof r->status_cand, "%s", cc[j].status);
            pool_of(&cb[i], pr, pn, res->npool, &bp);
            if (vb_cmp_judge_case(
                    base, &cb[i], &bp, cand, &cc[j], o, have_ceil[0] ? &ceil[0] : NULL,
                    have_ceil[1] ? &ceil[1] : NULL,
                    traced && multi_rank(cb, nb, &cb[i]) && multi_rank(cc, nc, &cc[j]), r, err)) {
                vb_err_context(err, "case '%s' %s", cb[i].variant, cb[i].axes);
                goto out;
            }
            if (explain(base, &cb[i], cand, &cc[j], o, r, err)) {
                vb_err_context(err, "case '%s' %s: its counters", cb[i].variant, cb[i].axes);
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
    if (traced && job_rows(base, cb, nb, cand, cc, nc, o, res, &cap, err)) goto out;
    conclude(res);
    rc = 0;
out:
    for (i = 1; i < VB_CMP_MAX_POOL; i++)
        free(pr[i]);
    free(cb);
    free(cc);
    free(kb);
    free(kc);
    free(used);
    if (rc) vb_cmp_result_free(res);
    return rc;
}
