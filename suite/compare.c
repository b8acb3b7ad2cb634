/* compare: matching cases of two runs and judging each (see compare.h). */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static const char *const names[] = {
#define X(id, name) name,
    VB_VERDICTS(X)
#undef X
};

const char *vb_verdict_name(enum vb_verdict v)
{
    return v < VB_VERDICT_COUNT ? names[v] : "?";
}

void vb_cmp_opts_default(struct vb_cmp_opts *o)
{
    o->threshold = 0.05;
    o->alpha = 0.001;
    o->min_samples = 5;
    o->metric = "kernel";
    o->across_devices = 0;
}

void vb_cmp_result_free(struct vb_cmp_result *res)
{
    free(res->rows);
    memset(res, 0, sizeof *res);
}

int vb_cmp_exit(const struct vb_cmp_result *res)
{
    if (res->count[VB_VERDICT_SLOWER] || res->count[VB_VERDICT_BROKEN]) return 1;
    return res->count[VB_VERDICT_NOISY] ? 3 : 0;
}

/* run_gpu copies the name of the run's first GPU ("" without one) into buf. */
static int run_gpu(struct vb_store *s, int64_t run, char *buf, size_t n, struct vb_err *err)
{
    struct vb_run_row *runs;
    int nr, i;
    buf[0] = '\0';
    if (vb_store_runs(s, &runs, &nr, err)) return -1;
    for (i = 0; i < nr; i++)
        if (runs[i].id == run) snprintf(buf, n, "%s", runs[i].gpu);
    free(runs);
    return 0;
}

/* judge fills r's statistics and verdict from the two sample sets. */
static int judge(struct vb_store *base, const struct vb_case_row *b, struct vb_store *cand,
                 const struct vb_case_row *c, const struct vb_cmp_opts *o, struct vb_cmp_row *r,
                 struct vb_err *err)
{
    double *xb = NULL, *xc = NULL;
    int nb, nc;
    if (strcmp(b->status, "ok") || !strcmp(c->status, "skipped")) {
        r->verdict = VB_VERDICT_NOT_COMPARED;
        return 0;
    }
    if (strcmp(c->status, "ok")) {
        r->verdict = VB_VERDICT_BROKEN;
        return 0;
    }
    r->e2e_ratio = c->e2e_median_ns / b->e2e_median_ns;
    if (!strcmp(o->metric, "kernel") && !b->needs_gpu) {
        r->verdict = VB_VERDICT_NOT_COMPARED; /* a CPU-only case has no kernel time */
        return 0;
    }
    if (vb_store_samples(base, b->id, o->metric, &xb, &nb, err) ||
        vb_store_samples(cand, c->id, o->metric, &xc, &nc, err)) {
        free(xb);
        return -1;
    }
    r->n_base = nb;
    r->n_cand = nc;
    r->med_base = vb_stats_median(xb, (size_t)nb);
    r->med_cand = vb_stats_median(xc, (size_t)nc);
    r->ratio = r->med_cand / r->med_base;
    r->p = vb_stats_mann_whitney(xb, (size_t)nb, xc, (size_t)nc);
    if (nb < o->min_samples || nc < o->min_samples || !isfinite(r->ratio))
        r->verdict = VB_VERDICT_NOISY;
    else if (fabs(r->ratio - 1) < o->threshold)
        r->verdict = VB_VERDICT_SAME;
    else if (!(r->p < o->alpha))
        r->verdict = VB_VERDICT_NOISY;
    else
        r->verdict = r->ratio > 1 ? VB_VERDICT_SLOWER : VB_VERDICT_FASTER;
    free(xb);
    free(xc);
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
    r->ratio = r->p = r->med_base = r->med_cand = r->e2e_ratio = NAN;
    return r;
}

int vb_compare_runs(struct vb_store *base, int64_t run_base, struct vb_store *cand,
                    int64_t run_cand, const struct vb_cmp_opts *o, struct vb_cmp_result *res,
                    struct vb_err *err)
{
    struct vb_case_row *cb = NULL, *cc = NULL;
    int nb = 0, nc = 0, i, j, cap = 0, rc = -1;
    char *used = NULL;
    memset(res, 0, sizeof *res);
    if ((run_base <= 0 && vb_store_latest_run(base, &run_base, err)) ||
        (run_cand <= 0 && vb_store_latest_run(cand, &run_cand, err)))
        return -1;
    {
        char st[32];
        if (vb_store_run_status(base, run_base, st, sizeof st, err) ||
            vb_store_run_status(cand, run_cand, st, sizeof st, err)) {
            err->code = VB_E_USAGE;
            return -1;
        }
    }
    res->run_base = run_base;
    res->run_cand = run_cand;
    if (run_gpu(base, run_base, res->gpu_base, sizeof res->gpu_base, err) ||
        run_gpu(cand, run_cand, res->gpu_cand, sizeof res->gpu_cand, err))
        return -1;
    if (!o->across_devices && strcmp(res->gpu_base, res->gpu_cand)) {
        vb_err_set(err, VB_E_USAGE, "the runs are on different GPU models: base '%s', candidate '%s'",
                   res->gpu_base[0] ? res->gpu_base : "none", res->gpu_cand[0] ? res->gpu_cand : "none");
        return vb_err_hint(err, "a regression verdict needs the same GPU model; pass "
                                "--across-devices for a hardware comparison");
    }
    if (vb_store_cases(base, run_base, &cb, &nb, err) || vb_store_cases(cand, run_cand, &cc, &nc, err))
        goto out;
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
        for (j = 0; j < nc; j++)
            if (!used[j] && !strcmp(cc[j].variant, cb[i].variant) && !strcmp(cc[j].axes, cb[i].axes))
                break;
        if (j == nc) {
            r->verdict = VB_VERDICT_ONLY_BASE;
        } else {
            used[j] = 1;
            snprintf(r->status_cand, sizeof r->status_cand, "%s", cc[j].status);
            if (judge(base, &cb[i], cand, &cc[j], o, r, err)) goto out;
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
        r->verdict = VB_VERDICT_ONLY_CAND;
        res->count[r->verdict]++;
    }
    rc = 0;
out:
    free(cb);
    free(cc);
    free(used);
    if (rc) vb_cmp_result_free(res);
    return rc;
}
