/*
 * crossover: the CPU/GPU crossover of a sweep, and of a run's cases (see crossover.h).
 */
#include "crossover.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

/* the cases of a run and the problem each computes */
struct set {
    const struct vb_case_row *cases;
    const char *const *problem;
    int n;
};

/* usable: a point with a positive, finite size and both times */
static int usable_point(const struct vb_cross_point *p)
{
    return isfinite(p->size) && p->size > 0 && isfinite(p->cpu_ns) && p->cpu_ns > 0 &&
           isfinite(p->gpu_ns) && p->gpu_ns > 0;
}

void vb_crossover_find(const struct vb_cross_point *pts, int n, struct vb_crossover *out)
{
    const struct vb_cross_point *first = 0, *last = 0, *lose = 0, *win_after = 0;
    double rl, rw, t;
    int i;
    out->kind = VB_CROSS_UNKNOWN;
    out->at = out->lo = out->hi = NAN;
    for (i = 0; i < n; i++) {
        const struct vb_cross_point *p = &pts[i];
        if (!usable_point(p)) continue;
        if (!first) first = p;
        last = p;
        if (p->gpu_ns >= p->cpu_ns) {
            lose = p;
            win_after = 0;
        } else if (lose && !win_after) {
            win_after = p;
        }
    }
    if (!first) return;
    if (!lose) {
        out->kind = VB_CROSS_ALWAYS;
        out->lo = first->size;
        out->hi = last->size;
        return;
    }
    if (!win_after) {
        out->kind = VB_CROSS_NEVER;
        out->lo = first->size;
        out->hi = last->size;
        return;
    }
    rl = log(lose->gpu_ns / lose->cpu_ns);           /* >= 0 */
    rw = log(win_after->gpu_ns / win_after->cpu_ns); /* < 0 */
    t = rl / (rl - rw);
    out->kind = VB_CROSS_AT;
    out->lo = lose->size;
    out->hi = win_after->size;
    out->at = exp(log(lose->size) + t * (log(win_after->size) - log(lose->size)));
}

#define MAX_POINTS 64

/* usable: an ok case with an end-to-end median */
static int usable(const struct vb_case_row *r)
{
    return !strcmp(r->status, "ok") && !r->throttled && isfinite(r->e2e_median_ns) &&
           r->e2e_median_ns > 0;
}

/* swept_axis: the index (in case ref's axes) of the first integer axis whose value differs
 * between problem p's cases; -1 when none does. */
static int swept_axis(const struct set *rd, const char *p, const struct vb_case_row *ref)
{
    int a, i;
    for (a = 0; a < ref->naxes; a++) {
        if (ref->axis[a].label[0]) continue;
        for (i = 0; i < rd->n; i++) {
            const struct vb_case_row *r = &rd->cases[i];
            if (!strcmp(rd->problem[i], p) && a < r->naxes &&
                !strcmp(r->axis[a].name, ref->axis[a].name) &&
                r->axis[a].value != ref->axis[a].value)
                return a;
        }
    }
    return -1;
}

/* constant_or_lockstep: does integer axis b of problem p's cases hold one value, or the value
 * of swept axis a in each ("ny same as nx"; a proportional pair would not count)? Such an axis
 * names no group. */
static int constant_or_lockstep(const struct set *rd, const char *p, int a, int b)
{
    const struct vb_case_row *first = NULL;
    int i, same = 1, lockstep = 1;
    for (i = 0; i < rd->n; i++) {
        const struct vb_case_row *r = &rd->cases[i];
        if (strcmp(rd->problem[i], p) || a >= r->naxes || b >= r->naxes) continue;
        if (!first) first = r;
        same &= r->axis[b].value == first->axis[b].value;
        lockstep &= r->axis[b].value == r->axis[a].value;
    }
    return same || lockstep;
}

/* others writes the axes of r that tell its group apart, those but the swept axis a that are a
 * label or vary on their own ("func=powsum"), into buf */
static char *others(const struct set *rd, const char *p, const struct vb_case_row *r, int a,
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

/* is_graph: whether r's rung replays a CUDA graph (its stored flags; a database older than
 * schema 8 has none: today's catalog then) */
static int is_graph(const struct vb_case_row *r)
{
    const struct vb_variant *v = r->flags >= 0 ? NULL : vb_variant_of(r->family, r->name);
    return r->flags >= 0 ? !!(r->flags & VB_GRAPH) : v && (v->flags & VB_GRAPH);
}

/* best_gpu: the smallest end-to-end median of the correct GPU rungs of ref's problem and point
 * (plain: graph rungs left out); *graph is set when a graph rung was among them */
static double best_gpu(const struct set *rd, const struct vb_case_row *ref, const char *p,
                       int plain, int *graph)
{
    double best = NAN;
    int i;
    for (i = 0; i < rd->n; i++) {
        const struct vb_case_row *r = &rd->cases[i];
        if (!r->needs_gpu || r->is_reference || !usable(r) || strcmp(rd->problem[i], p) ||
            strcmp(r->axes, ref->axes))
            continue;
        if (is_graph(r)) {
            *graph = 1;
            if (plain) continue;
        }
        if (!(best <= r->e2e_median_ns)) best = r->e2e_median_ns;
    }
    return best;
}

/* describe writes crossover x along axis into text */
static void describe(const struct vb_crossover *x, const char *axis, char *text, size_t n)
{
    text[0] = '\0';
    if (x->kind == VB_CROSS_AT)
        snprintf(text, n, "from %s ~ %.0f (between %.0f and %.0f)", axis, sig3(x->at), x->lo,
                 x->hi);
    else if (x->kind == VB_CROSS_ALWAYS)
        snprintf(text, n, "at every size, from %s=%.0f", axis, x->lo);
    else if (x->kind == VB_CROSS_NEVER)
        snprintf(text, n, "at no size up to %s=%.0f", axis, x->hi);
}

/* cross fills group gi's crossover and its text from its reference cases (member[i] == gi),
 * swept along axis a; plain: without the graph rungs (the group's plain and plain_text) */
static void cross(const struct set *rd, const int *member, int gi, int a, struct vb_cross_group *g,
                  int plain)
{
    struct vb_cross_point pts[MAX_POINTS], t;
    int i, j, n = 0;
    for (i = 0; i < rd->n && n < MAX_POINTS; i++) {
        const struct vb_case_row *r = &rd->cases[i];
        if (member[i] != gi || !r->is_reference || !usable(r)) continue;
        pts[n] = (struct vb_cross_point){(double)r->axis[a].value, r->e2e_median_ns,
                                         best_gpu(rd, r, g->problem, plain, &g->graph)};
        for (j = n++; j > 0 && pts[j - 1].size > pts[j].size; j--) { /* by size */
            t = pts[j];
            pts[j] = pts[j - 1];
            pts[j - 1] = t;
        }
    }
    vb_crossover_find(pts, n, plain ? &g->plain : &g->cross);
    if (plain)
        describe(&g->plain, g->axis, g->plain_text, sizeof g->plain_text);
    else
        describe(&g->cross, g->axis, g->text, sizeof g->text);
}

/* key_of writes the key of case r of problem p (its group among p's cases) into key; returns
 * the swept axis's index, or -1 when p is not swept */
static int key_of(const struct set *rd, const char *p, const struct vb_case_row *r, char *key,
                  size_t n)
{
    int a = swept_axis(rd, p, r);
    if (a < 0)
        snprintf(key, n, "%s", r->axes); /* one point: its own group */
    else
        others(rd, p, r, a, key, n);
    return a;
}

/* find: the index of the group of problem p and key among g[0..n), or -1 */
static int find(const struct vb_cross_group *g, int n, const char *p, const char *key)
{
    int j;
    for (j = 0; j < n && (strcmp(g[j].problem, p) || strcmp(g[j].key, key)); j++) {
    }
    return j < n ? j : -1;
}

/* largest_of: a case of group gi at its largest size along axis a (a < 0: its one point), its
 * reference case when the run has one there */
static const struct vb_case_row *largest_of(const struct set *rd, const int *member, int gi, int a)
{
    const struct vb_case_row *best = NULL;
    int i;
    for (i = 0; i < rd->n; i++) {
        const struct vb_case_row *r = &rd->cases[i];
        if (member[i] != gi) continue;
        if (!best || (a >= 0 && r->axis[a].value > best->axis[a].value) ||
            ((a < 0 || r->axis[a].value == best->axis[a].value) && r->is_reference &&
             !best->is_reference))
            best = r;
    }
    return best;
}

/* groups_of puts each case in its group (member[i]; -1 past cap groups), then fills each
 * group's crossover and largest point; returns how many groups */
static int groups_of(const struct set *rd, struct vb_cross_group *g, int cap, int *member)
{
    int axis[VB_CROSS_MAX_GROUPS];
    int i, a, k, n = 0;
    char key[256];
    for (i = 0; i < rd->n; i++) {
        const struct vb_case_row *r = &rd->cases[i];
        const char *p = rd->problem[i];
        a = key_of(rd, p, r, key, sizeof key);
        if ((member[i] = find(g, n, p, key)) >= 0 || n == cap) continue;
        memset(&g[n], 0, sizeof g[n]); /* the group's first case makes it */
        g[n].family = r->family;
        g[n].problem = p;
        snprintf(g[n].key, sizeof g[n].key, "%s", key);
        if (a >= 0) snprintf(g[n].axis, sizeof g[n].axis, "%s", r->axis[a].name);
        axis[n] = a;
        member[i] = n++;
    }
    for (k = 0; k < n; k++) {
        g[k].cross.kind = g[k].plain.kind = VB_CROSS_UNKNOWN;
        if (axis[k] >= 0) cross(rd, member, k, axis[k], &g[k], 0);
        if (axis[k] >= 0 && g[k].graph) cross(rd, member, k, axis[k], &g[k], 1);
        g[k].largest = largest_of(rd, member, k, axis[k]);
    }
    return n;
}

char *vb_cross_group_name(const struct vb_cross_group *g, char *buf, size_t n)
{
    int sub = strcmp(g->problem, g->family) != 0, keyed = g->axis[0] && g->key[0];
    snprintf(buf, n, "%s%s%s%s%s", g->family, sub ? "/" : "", sub ? g->problem : "",
             keyed ? " " : "", keyed ? g->key : "");
    return buf;
}

char *vb_cross_group_wins(const struct vb_cross_group *g, const char *sep, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s%s", g->text, g->plain_text[0] ? sep : "",
             g->plain_text[0] ? "without its graph rung " : "", g->plain_text);
    return buf;
}

void vb_crossover_line(const struct vb_cross_group *g, int n, char *line, size_t cap)
{
    char name[320], wins[360];
    size_t len = 0;
    int i;
    line[0] = '\0';
    for (i = 0; i < n && len + 1 < cap; i++)
        if (g[i].cross.kind != VB_CROSS_UNKNOWN)
            len += (size_t)snprintf(line + len, cap - len, "%s%s: the GPU wins %s", len ? "; " : "",
                                    vb_cross_group_name(&g[i], name, sizeof name),
                                    vb_cross_group_wins(&g[i], ", ", wins, sizeof wins));
}

int vb_crossover_run(const struct vb_case_row *rows, int n, struct vb_cross_run *cr)
{
    struct set s = {rows, NULL, n};
    int i;
    cr->ng = 0;
    cr->problem = calloc((size_t)n + 1, sizeof *cr->problem);
    cr->member = calloc((size_t)n + 1, sizeof *cr->member);
    if (!cr->problem || !cr->member) {
        vb_crossover_run_free(cr);
        return -1;
    }
    for (i = 0; i < n; i++)
        cr->problem[i] = rows[i].problem[0] ? rows[i].problem /* stored: a user's too */
                                            : vb_problem_of(rows[i].family, rows[i].name);
    s.problem = cr->problem;
    cr->ng = groups_of(&s, cr->g, VB_CROSS_MAX_GROUPS, cr->member);
    return 0;
}

void vb_crossover_run_free(struct vb_cross_run *cr)
{
    free(cr->problem);
    free(cr->member);
    cr->problem = NULL;
    cr->member = NULL;
    cr->ng = 0;
}
