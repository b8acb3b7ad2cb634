/* Tests of suite/judge/crossover.c: where the GPU starts to beat the CPU reference on a sweep. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "crossover.h"
#include "test.h"
#include "tests.h"

int test_crossover(const char *arg)
{
    /* calx on the lent H100 (2026-11-25, default run): the CPU reference's e2e and the best GPU
     * rung's (tiled-pinned) at model_size 960 .. 10^7, in us */
    static const struct vb_cross_point calx[] = {{960, 15.6, 33.4},
                                                 {1e4, 167.3, 48.2},
                                                 {1e5, 3136.7, 73.6},
                                                 {1e6, 17032.0, 342.4},
                                                 {1e7, 171890.6, 3049.4}};
    /* mesh there: the GPU wins at both sizes */
    static const struct vb_cross_point mesh[] = {{1000, 27553.9, 182.2}, {4000, 454923.1, 2402.3}};
    struct vb_cross_point p[4];
    struct vb_crossover c;
    (void)arg;
    /* ln(33.4/15.6) / (ln(33.4/15.6) - ln(48.2/167.3)) = 0.37956 of the way from ln 960 to
     * ln 10^4: 2336.46 */
    vb_crossover_find(calx, 5, &c);
    ASSERT_INT_EQ(c.kind, VB_CROSS_AT);
    ASSERT_NEAR(c.at, 2336.46, 0.01);
    ASSERT_NEAR(c.lo, 960, 0);
    ASSERT_NEAR(c.hi, 1e4, 0);
    vb_crossover_find(mesh, 2, &c);
    ASSERT_INT_EQ(c.kind, VB_CROSS_ALWAYS);
    ASSERT_NEAR(c.lo, 1000, 0);
    ASSERT_NEAR(c.hi, 4000, 0);
    /* the GPU slower everywhere: never, up to the largest size */
    p[0] = (struct vb_cross_point){10, 1, 5};
    p[1] = (struct vb_cross_point){100, 2, 5};
    vb_crossover_find(p, 2, &c);
    ASSERT_INT_EQ(c.kind, VB_CROSS_NEVER);
    ASSERT_NEAR(c.hi, 100, 0);
    /* a tie loses: the crossover is at it (ratio 1); mirrored ratios cross half-way in log size */
    p[0] = (struct vb_cross_point){10, 4, 4};
    p[1] = (struct vb_cross_point){1000, 4, 1};
    vb_crossover_find(p, 2, &c);
    ASSERT_INT_EQ(c.kind, VB_CROSS_AT);
    ASSERT_NEAR(c.at, 10, 1e-9);
    p[0] = (struct vb_cross_point){10, 1, 2};
    p[1] = (struct vb_cross_point){1000, 2, 1};
    vb_crossover_find(p, 2, &c);
    ASSERT_NEAR(c.at, 100, 1e-9);
    /* wins, loses, wins: the last change counts; a point without a time is left out */
    p[0] = (struct vb_cross_point){10, 2, 1};
    p[1] = (struct vb_cross_point){100, 1, 2};
    p[2] = (struct vb_cross_point){1000, NAN, 1};
    p[3] = (struct vb_cross_point){10000, 2, 1};
    vb_crossover_find(p, 4, &c);
    ASSERT_INT_EQ(c.kind, VB_CROSS_AT);
    ASSERT_NEAR(c.lo, 100, 0);
    ASSERT_NEAR(c.hi, 10000, 0);
    ASSERT_NEAR(c.at, 1000, 1e-9);
    /* nothing usable */
    vb_crossover_find(p + 2, 1, &c);
    ASSERT_INT_EQ(c.kind, VB_CROSS_UNKNOWN);
    vb_crossover_find(p, 0, &c);
    ASSERT_INT_EQ(c.kind, VB_CROSS_UNKNOWN);
    return 0;
}

/* row: a case of a synthetic run; axes "name=value" pairs, a label when value < 0 (func) */
static void row(struct vb_case_row *r, const char *family, const char *name, int ref, double ms,
                const char *a0, long v0, const char *a1, long v1, const char *label)
{
    memset(r, 0, sizeof *r);
    snprintf(r->family, sizeof r->family, "%s", family);
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->status, sizeof r->status, "ok");
    r->is_reference = ref;
    r->needs_gpu = !ref;
    r->flags = -1; /* not stored (an older database): the catalog says */
    r->e2e_median_ns = ms * 1e6;
    r->naxes = 0;
    if (label) {
        snprintf(r->axis[0].name, sizeof r->axis[0].name, "func");
        snprintf(r->axis[0].label, sizeof r->axis[0].label, "%s", label);
        r->naxes = 1;
    }
    snprintf(r->axis[r->naxes].name, sizeof r->axis[0].name, "%s", a0);
    r->axis[r->naxes++].value = v0;
    if (a1) {
        snprintf(r->axis[r->naxes].name, sizeof r->axis[0].name, "%s", a1);
        r->axis[r->naxes++].value = v1;
    }
    snprintf(r->axes, sizeof r->axes, "%s%s%s%s=%ld", label ? "func=" : "", label ? label : "",
             label ? "," : "", a0, v0);
    if (a1)
        snprintf(r->axes + strlen(r->axes), sizeof r->axes - strlen(r->axes), ",%s=%ld", a1, v1);
}

int test_crossover_groups(const char *arg)
{
    /* g: two funcs (a label axis) swept along rows, cols held; m: nx swept, ny in lock step;
     * f: one point (unswept); q: GPU rungs only, no reference */
    static struct vb_case_row r[16];
    static struct vb_cross_run cr;
    const struct vb_cross_group *g = cr.g;
    char name[64];
    int n = 0, k;
    (void)arg;
    row(&r[n++], "g", "ref", 1, 1.0, "rows", 10, "cols", 4, "pow");
    row(&r[n++], "g", "gpu", 0, 2.0, "rows", 10, "cols", 4, "pow");
    row(&r[n++], "g", "ref", 1, 100.0, "rows", 1000, "cols", 4, "pow");
    row(&r[n++], "g", "gpu", 0, 4.0, "rows", 1000, "cols", 4, "pow");
    row(&r[n++], "g", "ref", 1, 1.0, "rows", 10, "cols", 4, "her");
    row(&r[n++], "g", "gpu", 0, 0.5, "rows", 10, "cols", 4, "her");
    row(&r[n++], "g", "ref", 1, 100.0, "rows", 1000, "cols", 4, "her");
    row(&r[n++], "g", "gpu", 0, 4.0, "rows", 1000, "cols", 4, "her");
    row(&r[n++], "m", "ref", 1, 10.0, "nx", 100, "ny", 100, NULL);
    row(&r[n++], "m", "gpu", 0, 1.0, "nx", 100, "ny", 100, NULL);
    row(&r[n++], "m", "ref", 1, 90.0, "nx", 300, "ny", 300, NULL);
    row(&r[n++], "m", "gpu", 0, 2.0, "nx", 300, "ny", 300, NULL);
    row(&r[n++], "f", "ref", 1, 5.0, "h", 720, "w", 1280, NULL);
    row(&r[n++], "f", "gpu", 0, 1.0, "h", 720, "w", 1280, NULL);
    row(&r[n++], "q", "gpu", 0, 1.0, "n", 10, NULL, 0, NULL);
    row(&r[n++], "q", "gpu", 0, 3.0, "n", 1000, NULL, 0, NULL);
    ASSERT_INT_EQ(vb_crossover_run(r, n, &cr), 0); /* families unknown: each its own problem */
    k = cr.ng;
    ASSERT_INT_EQ(k, 5);
    ASSERT_STR_EQ(vb_cross_group_name(&g[0], name, sizeof name), "g func=pow");
    ASSERT_STR_EQ(g[0].axis, "rows");
    ASSERT_INT_EQ(g[0].cross.kind, VB_CROSS_AT); /* loses at 10 (2x), wins at 1000 (25x) */
    ASSERT_NEAR(g[0].cross.at, 10 * pow(100, log(2) / (log(2) + log(25))), 1e-6);
    ASSERT_STR_EQ(g[0].largest->axes, "func=pow,rows=1000,cols=4");
    ASSERT(g[0].largest->is_reference);
    ASSERT_STR_EQ(vb_cross_group_name(&g[1], name, sizeof name), "g func=her");
    ASSERT_INT_EQ(g[1].cross.kind, VB_CROSS_ALWAYS);
    ASSERT_STR_EQ(g[1].text, "at every size, from rows=10");
    ASSERT_STR_EQ(vb_cross_group_name(&g[2], name, sizeof name), "m"); /* ny: lock step */
    ASSERT_STR_EQ(g[2].axis, "nx");
    ASSERT_STR_EQ(g[3].key, "h=720,w=1280"); /* one point: its own group, no crossover */
    ASSERT_INT_EQ(g[3].cross.kind, VB_CROSS_UNKNOWN);
    ASSERT_STR_EQ(g[3].axis, "");
    ASSERT_STR_EQ(g[4].problem, "q"); /* no reference: a group at its largest size, no crossover */
    ASSERT_INT_EQ(g[4].cross.kind, VB_CROSS_UNKNOWN);
    ASSERT_STR_EQ(g[4].largest->axes, "n=1000");
    /* every case is in its group, GPU rungs too */
    ASSERT_INT_EQ(cr.member[3], 0);
    ASSERT_INT_EQ(cr.member[7], 1);
    ASSERT_INT_EQ(cr.member[11], 2);
    ASSERT_INT_EQ(cr.member[13], 3);
    ASSERT_INT_EQ(cr.member[14], 4);
    vb_crossover_run_free(&cr);
    return 0;
}

/* A problem with a graph rung (calx/tiled-graph, VB_GRAPH in the catalog): its crossover is given
 * with it and without it, and the line says both; a problem without one has no second. */
int test_crossover_graph(const char *arg)
{
    static struct vb_case_row r[8];
    static struct vb_cross_run cr;
    char line[512];
    int n = 0;
    (void)arg;
    /* calx at 960 and 10^4: CPU 15.6 and 167 us; tiled-pinned 33.4 and 48.2; the graph 12 and 30 */
    row(&r[n++], "calx", "cpu-reference", 1, 0.0156, "model_size", 960, "smooth_steps", 12, NULL);
    row(&r[n++], "calx", "tiled-pinned", 0, 0.0334, "model_size", 960, "smooth_steps", 12, NULL);
    row(&r[n++], "calx", "tiled-graph", 0, 0.0120, "model_size", 960, "smooth_steps", 12, NULL);
    row(&r[n++], "calx", "cpu-reference", 1, 0.167, "model_size", 10000, "smooth_steps", 12, NULL);
    row(&r[n++], "calx", "tiled-pinned", 0, 0.0482, "model_size", 10000, "smooth_steps", 12, NULL);
    row(&r[n++], "calx", "tiled-graph", 0, 0.0300, "model_size", 10000, "smooth_steps", 12, NULL);
    ASSERT_INT_EQ(vb_crossover_run(r, n, &cr), 0);
    ASSERT_INT_EQ(cr.ng, 1);
    ASSERT(cr.g[0].graph);
    ASSERT_INT_EQ(cr.g[0].cross.kind, VB_CROSS_ALWAYS); /* the graph wins at 960 already */
    ASSERT_INT_EQ(cr.g[0].plain.kind, VB_CROSS_AT);     /* tiled-pinned: between 960 and 10^4 */
    ASSERT_NEAR(cr.g[0].plain.at,
                960 * pow(10000.0 / 960, log(33.4 / 15.6) / (log(33.4 / 15.6) + log(167 / 48.2))),
                1e-6);
    vb_crossover_line(cr.g, cr.ng, line, sizeof line);
    ASSERT_STR_EQ(line, "calx: the GPU wins at every size, from model_size=960, without its graph "
                        "rung from model_size ~ 2340 (between 960 and 10000)");
    vb_crossover_run_free(&cr);
    /* without the graph rung's cases: one crossover, no second */
    ASSERT_INT_EQ(vb_crossover_run(r, 2, &cr), 0);
    ASSERT(!cr.g[0].graph && !cr.g[0].plain_text[0]);
    vb_crossover_run_free(&cr);
    return 0;
}
