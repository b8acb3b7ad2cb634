/*
 * crossover (report side): the CPU/GPU crossover of each problem of a run (suite/crossover.h),
 * from its cases: along the problem's first integer axis that the run swept (calx model_size,
 * mesh nx, gufunc rows, ufunc n), once per value of its other axes (gufunc's func and cols),
 * the CPU reference's end-to-end median against the best correct GPU rung's at each size.
 * Workload: a run's few hundred cases, scanned per problem.
 */
#include "crossover.h"
#include "report_int.h"

#define MAX_POINTS 64

/* usable: an ok case with an end-to-end median */
static int usable(const struct vb_case_row *r)
{
    return !strcmp(r->status, "ok") && !r->throttled && isfinite(r->e2e_median_ns) &&
           r->e2e_median_ns > 0;
}

/* swept_axis: the index (in the reference case ref's axes) of the first integer axis whose
 * value differs between problem p's reference cases; -1 when none does. */
static int swept_axis(const struct run_data *rd, const char *p, const struct vb_case_row *ref)
{
    int a, i;
    for (a = 0; a < ref->naxes; a++) {
        if (ref->axis[a].label[0]) continue;
        for (i = 0; i < rd->n; i++) {
            const struct vb_case_row *r = &rd->cases[i];
            if (r->is_reference && !strcmp(rd->problem[i], p) && a < r->naxes &&
                !strcmp(r->axis[a].name, ref->axis[a].name) &&
                r->axis[a].value != ref->axis[a].value)
                return a;
        }
    }
    return -1;
}

/* constant_or_lockstep: does integer axis b of problem p's reference cases hold one value, or
 * the value of swept axis a in each ("ny same as nx")? Such an axis names no group. */
static int constant_or_lockstep(const struct run_data *rd, const char *p, int a, int b)
{
    const struct vb_case_row *first = NULL;
    int i, same = 1, lockstep = 1;
    for (i = 0; i < rd->n; i++) {
        const struct vb_case_row *r = &rd->cases[i];
        if (!r->is_reference || strcmp(rd->problem[i], p) || a >= r->naxes || b >= r->naxes)
            continue;
        if (!first) first = r;
        same &= r->axis[b].value == first->axis[b].value;
        lockstep &= r->axis[b].value == r->axis[a].value;
    }
    return same || lockstep;
}

/* others writes the axes of r that tell its group apart, those but the swept axis a that are a
 * label or vary on their own ("func=powsum"), into buf */
static char *others(const struct run_data *rd, const char *p, const struct vb_case_row *r, int a,
                    char *buf, size_t n)
{
    size_t len = 0;
    int b;
    buf[0] = '\0';
    for (b = 0; b < r->naxes && len < n; b++) {
        if (b == a) continue;
        if (r->axis[b].label[0])
            len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", len ? "," : "", r->axis[b].name,
                                    r->axis[b].label);
        else if (!constant_or_lockstep(rd, p, a, b))
            len += (size_t)snprintf(buf + len, n - len, "%s%s=%lld", len ? "," : "",
                                    r->axis[b].name, (long long)r->axis[b].value);
    }
    return buf;
}

/* sig3: x rounded to 3 significant digits (2336.46 -> 2340) */
static double sig3(double x)
{
    double m = pow(10, floor(log10(x)) - 2);
    return x >= 100 ? round(x / m) * m : round(x);
}

/* best_gpu: the smallest end-to-end median of the correct GPU rungs of ref's problem and point */
static double best_gpu(const struct run_data *rd, const struct vb_case_row *ref, const char *p)
{
    double best = NAN;
    int i;
    for (i = 0; i < rd->n; i++) {
        const struct vb_case_row *r = &rd->cases[i];
        if (!r->needs_gpu || r->is_reference || !usable(r) || strcmp(rd->problem[i], p) ||
            strcmp(r->axes, ref->axes))
            continue;
        if (!(best <= r->e2e_median_ns)) best = r->e2e_median_ns;
    }
    return best;
}

/* group appends the crossover of problem p at the other axes of reference case g (swept along
 * axis a) to line */
static void group(const struct run_data *rd, const char *p, const struct vb_case_row *g, int a,
                  char *line, size_t cap)
{
    struct vb_cross_point pts[MAX_POINTS], t;
    struct vb_crossover x;
    char key[256], k2[256];
    const char *name = g->axis[a].name;
    size_t len = strlen(line);
    int i, j, n = 0;
    others(rd, p, g, a, key, sizeof key);
    for (i = 0; i < rd->n && n < MAX_POINTS; i++) {
        const struct vb_case_row *r = &rd->cases[i];
        if (!r->is_reference || !usable(r) || strcmp(rd->problem[i], p) || a >= r->naxes ||
            strcmp(others(rd, p, r, a, k2, sizeof k2), key))
            continue;
        pts[n] =
            (struct vb_cross_point){(double)r->axis[a].value, r->e2e_median_ns, best_gpu(rd, r, p)};
        for (j = n++; j > 0 && pts[j - 1].size > pts[j].size; j--) { /* by size */
            t = pts[j];
            pts[j] = pts[j - 1];
            pts[j - 1] = t;
        }
    }
    vb_crossover_find(pts, n, &x);
    if (x.kind == VB_CROSS_UNKNOWN || len + 1 >= cap) return;
    len += (size_t)snprintf(line + len, cap - len, "%s%s%s%s%s%s: ", len ? "; " : "", g->family,
                            strcmp(p, g->family) ? "/" : "", strcmp(p, g->family) ? p : "",
                            key[0] ? " " : "", key);
    if (len >= cap) return;
    if (x.kind == VB_CROSS_AT)
        snprintf(line + len, cap - len, "the GPU wins from %s ~ %.0f (between %.0f and %.0f)", name,
                 sig3(x.at), x.lo, x.hi);
    else if (x.kind == VB_CROSS_ALWAYS)
        snprintf(line + len, cap - len, "the GPU wins at every size, from %s=%.0f", name, x.lo);
    else
        snprintf(line + len, cap - len, "the GPU wins at no size up to %s=%.0f", name, x.hi);
}

void vb_report_crossovers(const struct run_data *rd, char *line, size_t cap)
{
    int i, j, a;
    char key[256], k2[256];
    line[0] = '\0';
    for (i = 0; i < rd->n; i++) {
        const struct vb_case_row *r = &rd->cases[i];
        if (!r->is_reference || (a = swept_axis(rd, rd->problem[i], r)) < 0) continue;
        /* the first reference case of its problem and other axes leads its group */
        others(rd, rd->problem[i], r, a, key, sizeof key);
        for (j = 0; j < i; j++)
            if (rd->cases[j].is_reference && !strcmp(rd->problem[j], rd->problem[i]) &&
                swept_axis(rd, rd->problem[j], &rd->cases[j]) == a &&
                !strcmp(others(rd, rd->problem[j], &rd->cases[j], a, k2, sizeof k2), key))
                break;
        if (j == i) group(rd, rd->problem[i], r, a, line, cap);
    }
}
