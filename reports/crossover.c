/*
 * crossover (report side): the CPU/GPU crossover of each problem of a run (suite/crossover.h),
 * from its cases: along the problem's first integer axis that the run swept (calx model_size,
 * mesh nx, gufunc rows, ufunc n), once per value of its other axes (gufunc's func and cols),
 * the CPU reference's end-to-end median against the best correct GPU rung's at each size.
 * Workload: a run's few hundred cases, scanned per problem.
 */
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

/* cross fills g's crossover and its text from the reference cases of g's problem and key
 * swept along axis a */
static void cross(const struct run_data *rd, int a, struct sweep_group *g)
{
    struct vb_cross_point pts[MAX_POINTS], t;
    char k2[256];
    int i, j, n = 0;
    for (i = 0; i < rd->n && n < MAX_POINTS; i++) {
        const struct vb_case_row *r = &rd->cases[i];
        if (!r->is_reference || !usable(r) || strcmp(rd->problem[i], g->problem) || a >= r->naxes ||
            strcmp(others(rd, g->problem, r, a, k2, sizeof k2), g->key))
            continue;
        pts[n] = (struct vb_cross_point){(double)r->axis[a].value, r->e2e_median_ns,
                                         best_gpu(rd, r, g->problem)};
        for (j = n++; j > 0 && pts[j - 1].size > pts[j].size; j--) { /* by size */
            t = pts[j];
            pts[j] = pts[j - 1];
            pts[j - 1] = t;
        }
        if (!g->largest || r->axis[a].value > g->largest->axis[a].value) g->largest = r;
    }
    vb_crossover_find(pts, n, &g->cross);
    if (g->cross.kind == VB_CROSS_AT)
        snprintf(g->cross_text, sizeof g->cross_text, "from %s ~ %.0f (between %.0f and %.0f)",
                 g->axis, sig3(g->cross.at), g->cross.lo, g->cross.hi);
    else if (g->cross.kind == VB_CROSS_ALWAYS)
        snprintf(g->cross_text, sizeof g->cross_text, "at every size, from %s=%.0f", g->axis,
                 g->cross.lo);
    else if (g->cross.kind == VB_CROSS_NEVER)
        snprintf(g->cross_text, sizeof g->cross_text, "at no size up to %s=%.0f", g->axis,
                 g->cross.hi);
}

int vb_report_groups(const struct run_data *rd, struct sweep_group *g, int cap)
{
    int i, j, a, n = 0;
    char key[256];
    for (i = 0; i < rd->n && n < cap; i++) {
        const struct vb_case_row *r = &rd->cases[i];
        const char *p = rd->problem[i];
        if (!r->is_reference) continue;
        a = swept_axis(rd, p, r);
        if (a < 0)
            snprintf(key, sizeof key, "%s", r->axes); /* one point: its own group */
        else
            others(rd, p, r, a, key, sizeof key);
        for (j = 0; j < n && (strcmp(g[j].problem, p) || strcmp(g[j].key, key)); j++) {
        }
        if (j < n) continue; /* the first reference case of a problem and key leads its group */
        memset(&g[n], 0, sizeof g[n]);
        g[n].family = r->family;
        g[n].problem = p;
        snprintf(g[n].key, sizeof g[n].key, "%s", key);
        g[n].largest = r;
        g[n].cross.kind = VB_CROSS_UNKNOWN;
        if (a >= 0) {
            snprintf(g[n].axis, sizeof g[n].axis, "%s", r->axis[a].name);
            g[n].largest = NULL;
            cross(rd, a, &g[n]);
            if (!g[n].largest) g[n].largest = r; /* no usable reference case: the first */
        }
        n++;
    }
    return n;
}

void vb_report_crossovers(const struct run_data *rd, char *line, size_t cap)
{
    struct sweep_group g[VB_REPORT_MAX_GROUPS];
    size_t len = 0;
    int i, n = vb_report_groups(rd, g, VB_REPORT_MAX_GROUPS);
    line[0] = '\0';
    for (i = 0; i < n && len + 1 < cap; i++)
        if (g[i].cross.kind != VB_CROSS_UNKNOWN)
            len += (size_t)snprintf(line + len, cap - len, "%s%s%s%s%s%s: the GPU wins %s",
                                    len ? "; " : "", g[i].family,
                                    strcmp(g[i].problem, g[i].family) ? "/" : "",
                                    strcmp(g[i].problem, g[i].family) ? g[i].problem : "",
                                    g[i].key[0] ? " " : "", g[i].key, g[i].cross_text);
}
