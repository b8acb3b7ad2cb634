/* result: names and lookups over a case's results (see result.h). */
#include "result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metric_set.h"
#include "stats.h"

static const char *const status_names[] = {
#define X(id, name) name,
    VB_STATUSES(X)
#undef X
};

const char *const vb_case_stage_names[VB_STAGE_COUNT] = {
#define X(id, name) name,
    VB_CASE_STAGES(X)
#undef X
};

const char *vb_status_name(enum vb_status s)
{
    return s < VB_STATUS_COUNT ? status_names[s] : "?";
}

static const char *const metrics_names[] = {
#define X(id, name) name,
    VB_METRICS_STATUSES(X)
#undef X
};

const char *vb_metrics_status_name(enum vb_metrics_status s)
{
    return (size_t)s < sizeof metrics_names / sizeof *metrics_names ? metrics_names[s] : NULL;
}

double vb_metric_values_gst(const struct vb_metric_value *m, size_t n)
{
    double num = 0, den = 0, sum = 0;
    size_t i, j;
    int cnt = 0;
    for (i = 0; i < n; i++) {
        double sectors = NAN;
        if (strcmp(m[i].metric, VB_METRIC_GST_EFF) || !isfinite(m[i].value)) continue;
        for (j = 0; j < n; j++)
            if (m[j].launch == m[i].launch && !strcmp(m[j].metric, VB_METRIC_ST_SECTORS))
                sectors = m[j].value;
        if (isfinite(sectors)) {
            num += m[i].value * sectors;
            den += sectors;
        } else {
            sum += m[i].value;
            cnt++;
        }
    }
    return den > 0 ? num / den : cnt ? sum / cnt : NAN;
}

static int by_correlation(const void *a, const void *b)
{
    const struct vb_kernel_rec *x = *(const struct vb_kernel_rec *const *)a;
    const struct vb_kernel_rec *y = *(const struct vb_kernel_rec *const *)b;
    return x->correlation < y->correlation ? -1 : x->correlation > y->correlation;
}

int vb_metric_values_name(struct vb_metric_value *m, size_t n, const struct vb_kernel_rec *k,
                          size_t nk)
{
    const struct vb_kernel_rec **order;
    size_t i, nl = 0, launches = 0;
    int rc = -1;
    for (i = 0; i < n; i++)
        if ((size_t)m[i].launch + 1 > launches) launches = (size_t)m[i].launch + 1;
    if (!nk || !launches || !(order = malloc(sizeof *order * nk))) return -1;
    for (i = 0; i < nk; i++)
        order[i] = &k[i];
    qsort(order, nk, sizeof *order, by_correlation);
    for (i = 0; i < nk; i++) /* one per launch: replays repeat the correlation id */
        if (!nl || order[i]->correlation != order[nl - 1]->correlation) order[nl++] = order[i];
    if (nl == launches) {
        for (i = 0; i < n; i++) {
            char *name = strdup(order[m[i].launch]->name ? order[m[i].launch]->name : "");
            if (!name) goto out;
            free(m[i].kernel);
            m[i].kernel = name;
        }
        rc = 0;
    }
out:
    free(order);
    return rc;
}

void vb_metric_values_free(struct vb_metric_value *m, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        free(m[i].kernel);
        free(m[i].metric);
    }
    free(m);
}

void vb_result_pageable(const struct vb_case_result *r, int *h2d, int *d2h)
{
    size_t i;
    *h2d = *d2h = 0;
    for (i = 0; i < r->activity.ncopies; i++) {
        const struct vb_copy_rec *k = &r->activity.copies[i];
        *h2d |= k->copy_kind == VB_COPY_HTOD && k->src_kind == VB_MEM_PAGEABLE;
        *d2h |= k->copy_kind == VB_COPY_DTOH && k->dst_kind == VB_MEM_PAGEABLE;
    }
}

int vb_sample_find(const struct vb_case_result *r, uint64_t t)
{
    int lo = 0, hi = r->nsamples - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (t < r->samples[mid].start)
            hi = mid - 1;
        else if (t > r->samples[mid].end)
            lo = mid + 1;
        else
            return mid;
    }
    return -1;
}

const char *const vb_phase_names[VB_PH_COUNT] = {"gpu", "h2d", "kernel", "d2h", "memset", "e2e"};

double vb_sample_phase(const struct vb_sample *s, int ph)
{
    switch (ph) {
    case VB_PH_GPU:
        return s->gpu_ns;
    case VB_PH_H2D:
        return s->h2d_ns;
    case VB_PH_KERNEL:
        return s->kernel_ns;
    case VB_PH_D2H:
        return s->d2h_ns;
    case VB_PH_MEMSET:
        return s->memset_ns;
    default:
        return s->e2e_ns;
    }
}

/* counts: a timed sample that is not dropped */
static int counts(const struct vb_sample *s)
{
    return s->kind == VB_SAMPLE_TIMED && !s->dropped;
}

int vb_result_stats(struct vb_case_result *r)
{
    struct vb_stats *st[VB_PH_COUNT] = {&r->gpu_ms, &r->h2d_ms,    &r->kernel_ms,
                                        &r->d2h_ms, &r->memset_ms, &r->e2e_ms};
    double *x = malloc(sizeof *x * (size_t)(r->nsamples + 1)), med, lo, hi;
    const struct vb_sample *first = NULL, *pick = NULL;
    int i, n, ph, rc = 0, pick_ph = r->have_records ? VB_PH_GPU : VB_PH_E2E;
    if (!x) return -1;
    for (ph = 0; ph < VB_PH_COUNT; ph++) {
        if (ph != VB_PH_E2E && !r->have_records) {
            vb_stats_compute(NULL, 0, st[ph]);
            continue;
        }
        for (i = n = 0; i < r->nsamples; i++)
            if (counts(&r->samples[i]) && isfinite(vb_sample_phase(&r->samples[i], ph)))
                x[n++] = vb_sample_phase(&r->samples[i], ph) / 1e6;
        rc |= vb_stats_compute(x, (size_t)n, st[ph]);
        if (ph == pick_ph) r->gpu_ci_pct = 100 * vb_stats_median_ci(x, (size_t)n, &lo, &hi);
    }
    free(x);
    med = st[pick_ph]->median;
    for (i = 0; i < r->nsamples; i++) {
        const struct vb_sample *s = &r->samples[i];
        if (!counts(s)) continue;
        if (!first)
            first = s;
        else if (s->h2d_bytes != first->h2d_bytes || s->d2h_bytes != first->d2h_bytes ||
                 s->h2d_count != first->h2d_count || s->d2h_count != first->d2h_count ||
                 s->kernel_count != first->kernel_count)
            r->traffic_varies = 1;
        if (!isfinite(vb_sample_phase(s, pick_ph))) continue;
        if (!pick || fabs(vb_sample_phase(s, pick_ph) / 1e6 - med) <
                         fabs(vb_sample_phase(pick, pick_ph) / 1e6 - med))
            pick = s;
    }
    if (pick) {
        r->h2d_bytes = pick->h2d_bytes;
        r->d2h_bytes = pick->d2h_bytes;
        r->h2d_count = pick->h2d_count;
        r->d2h_count = pick->d2h_count;
        r->kernel_count = pick->kernel_count;
    }
    return rc;
}
