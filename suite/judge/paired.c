/*
 * paired: see paired.h.
 */
#include "paired.h"

#include <math.h>
#include <stdlib.h>

#include "stats.h"

int vb_paired_judge(const double *a, const double *b, int n, double limit, double floor_ns,
                    double alpha, struct vb_paired *out)
{
    double *l = malloc(sizeof *l * (size_t)(n > 0 ? 3 * n : 1)), *va, *vb;
    int m = 0, i;
    out->n = 0;
    out->med_a = out->med_b = out->ratio = out->p = NAN;
    out->limit = limit;
    out->lo = 0;
    out->hi = INFINITY;
    out->verdict = VB_VERDICT_NOISY;
    if (!l) return -1;
    va = l + n;
    vb = l + 2 * n;
    for (i = 0; i < n; i++)
        if (a[i] > 0 && b[i] > 0 && isfinite(a[i]) && isfinite(b[i])) {
            va[m] = a[i];
            vb[m] = b[i];
            l[m++] = log(b[i] / a[i]);
        }
    out->n = m;
    if (m) {
        double lo, hi;
        out->med_a = vb_stats_median(va, (size_t)m);
        out->med_b = vb_stats_median(vb, (size_t)m);
        out->ratio = exp(vb_stats_median(l, (size_t)m));
        out->p = vb_stats_signed_rank(l, (size_t)m);
        if (vb_stats_sign_ci(l, (size_t)m, alpha, &lo, &hi) == 0) {
            out->lo = exp(lo);
            out->hi = exp(hi);
        }
        /* the floor as a share of the phase: a change under it is never material */
        double lim = fmax(limit, floor_ns / out->med_a);
        out->limit = lim;
        if (out->lo >= 1 / (1 + lim) && out->hi <= 1 + lim)
            out->verdict = VB_VERDICT_SAME;
        else if (out->lo > 1 + lim)
            out->verdict = VB_VERDICT_SLOWER;
        else if (out->hi < 1 / (1 + lim))
            out->verdict = VB_VERDICT_FASTER;
    }
    free(l);
    return 0;
}
