/* result: names and lookups over a case's results (see result.h). */
#include "result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metric_set.h"

static const char *const status_names[] = {
#define X(id, name) name,
    VB_STATUSES(X)
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
