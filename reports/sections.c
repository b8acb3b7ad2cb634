/*
 * sections: what the report says about one run. Per family and point: a sentence per ladder
 * step (each variant against the last correct one before it: what moved, by how much, in
 * which part), the table of its cases and the breakdown of their time; per family, a sweep
 * plot for every group of cases that differ only in a number axis. A traced run gets the same
 * table for its processes. The sweeps read the cases' structured axes (vb_case_row.axis), never
 * the "a=1,b=2" text, which is only shown.
 */
#include <stdlib.h>

#include "report_int.h"
#include "table.h"

#define NCOL 15

/* case_table: the cases cs[0..n) of one point, or of a traced run, in one table. */
static void case_table(struct ctx *c, struct vb_case_row *const *cs, int n)
{
    static const char *const head[NCOL] = {"variant",
                                           "status",
                                           "H2D bytes (n)",
                                           "H2D ms",
                                           "kernel ms",
                                           "D2H bytes (n)",
                                           "D2H ms",
                                           "host and other ms",
                                           "e2e ms",
                                           "x floor (bound, of)",
                                           "samples",
                                           "max err",
                                           "cache",
                                           "SM clock min / median MHz",
                                           "dropped (throttled)"};
    char cell[NCOL][200], b[32];
    const char *row[NCOL];
    int i, k;
    for (k = 0; k < NCOL; k++)
        row[k] = cell[k];
    vb_page_table(&c->page, NCOL, head, "llrrrrrrrlrrlrr");
    for (i = 0; i < n; i++) {
        const struct vb_case_row *r = cs[i];
        snprintf(cell[0], sizeof cell[0], "%s", r->variant);
        snprintf(cell[1], sizeof cell[1], "%s", r->status);
        if (r->have_records) {
            snprintf(cell[2], sizeof cell[2], "%s (%lld)",
                     vb_fmt_bytes((unsigned long long)r->h2d_bytes, b, sizeof b),
                     (long long)r->h2d_count);
            snprintf(cell[5], sizeof cell[5], "%s (%lld)",
                     vb_fmt_bytes((unsigned long long)r->d2h_bytes, b, sizeof b),
                     (long long)r->d2h_count);
        } else {
            snprintf(cell[2], sizeof cell[2], "-");
            snprintf(cell[5], sizeof cell[5], "-");
        }
        vb_fmt_ms(r->h2d_median_ns, cell[3], sizeof cell[3]);
        vb_fmt_ms(r->kernel_median_ns, cell[4], sizeof cell[4]);
        vb_fmt_ms(r->d2h_median_ns, cell[6], sizeof cell[6]);
        snprintf(cell[7], sizeof cell[7], "%.3f", other_ms(r));
        vb_fmt_ms(r->e2e_median_ns, cell[8], sizeof cell[8]);
        if (isfinite(r->floor_ratio)) /* "1.08x (dram, kernel)" */
            snprintf(cell[9], sizeof cell[9], "%.2fx (%s, %s)", r->floor_ratio, r->floor_bound,
                     r->floor_of);
        else
            snprintf(cell[9], sizeof cell[9], "-");
        snprintf(cell[10], sizeof cell[10], "%d", r->samples);
        if (isfinite(r->max_abs_err))
            snprintf(cell[11], sizeof cell[11], "%.2g", r->max_abs_err);
        else
            snprintf(cell[11], sizeof cell[11], "-");
        snprintf(cell[12], sizeof cell[12], "%s", r->cache[0] ? r->cache : "-");
        if (isfinite(r->clock_min_mhz))
            snprintf(cell[13], sizeof cell[13], "%.0f / %.0f", r->clock_min_mhz,
                     r->clock_median_mhz);
        else
            snprintf(cell[13], sizeof cell[13], "-");
        snprintf(cell[14], sizeof cell[14], "%d", r->dropped_samples);
        vb_page_row(&c->page, !is_ok(r), row);
    }
    vb_page_table_end(&c->page);
}

/* step_sentence writes into s what moved between ladder steps a and b (b correct: by how much,
 * and the largest part with its cause; b wrong: that it is not compared). */
static void step_sentence(const struct vb_case_row *a, const struct vb_case_row *b, char *s,
                          size_t n)
{
    static const char *const part[] = {"H2D copies", "kernel time", "D2H copies",
                                       "host work outside copies and kernels"};
    double da[4] = {ms(a->h2d_median_ns), ms(a->kernel_median_ns), ms(a->d2h_median_ns),
                    other_ms(a)};
    double db[4] = {ms(b->h2d_median_ns), ms(b->kernel_median_ns), ms(b->d2h_median_ns),
                    other_ms(b)};
    double ta = ms(a->e2e_median_ns), tb = ms(b->e2e_median_ns);
    char ea[32], eb[32];
    size_t len;
    int k, big = 0;
    if (!is_ok(b)) {
        snprintf(s, n,
                 "%s gives a wrong answer (%s, max error %.3g): it is not a result and its "
                 "time is not compared.",
                 b->name, b->status, b->max_abs_err);
        return;
    }
    for (k = 1; k < 4; k++)
        if (fabs(db[k] - da[k]) > fabs(db[big] - da[big])) big = k;
    vb_fmt_ms(a->e2e_median_ns, ea, sizeof ea);
    vb_fmt_ms(b->e2e_median_ns, eb, sizeof eb);
    len = (size_t)snprintf(s, n,
                           "%s against %s: end to end %s -> %s ms (%.2fx %s). The largest "
                           "move is in %s (%.3f -> %.3f ms)",
                           b->name, a->name, ea, eb, ta > tb ? ta / tb : tb / ta,
                           ta > tb ? "faster" : "slower", part[big], da[big], db[big]);
    if (len >= n) return;
    if (big == 0 && a->h2d_bytes != b->h2d_bytes)
        len += (size_t)snprintf(s + len, n - len, ": %lld -> %lld bytes sent to the device",
                                (long long)a->h2d_bytes, (long long)b->h2d_bytes);
    else if (big == 2 && a->d2h_bytes == b->d2h_bytes && da[2] > 0 && db[2] > 0)
        len += (size_t)snprintf(s + len, n - len, ": the same %lld bytes at %.1f -> %.1f GB/s",
                                (long long)b->d2h_bytes, (double)a->d2h_bytes / da[2] / 1e6,
                                (double)b->d2h_bytes / db[2] / 1e6);
    else if (big == 1 && da[1] > 0 && db[1] > 0)
        len += (size_t)snprintf(s + len, n - len, ": the kernel is %.2fx %s",
                                da[1] > db[1] ? da[1] / db[1] : db[1] / da[1],
                                da[1] > db[1] ? "faster" : "slower");
    if (len < n) snprintf(s + len, n - len, ".");
}

/* ladder: a sentence per step of the point's cases cs[0..n), each against the last correct
 * case before it; nothing before the first correct case. */
static void ladder(struct ctx *c, struct vb_case_row *const *cs, int n)
{
    const struct vb_case_row *prev = NULL;
    char s[1200];
    int i;
    for (i = 0; i < n; i++) {
        if (prev) {
            step_sentence(prev, cs[i], s, sizeof s);
            vb_page_item(&c->page, "%s", s);
        }
        if (is_ok(cs[i])) prev = cs[i];
    }
    vb_page_list_end(&c->page);
}

/* axis_of: case r's axis called name, or NULL when it has none. */
static const struct vb_case_axis *axis_of(const struct vb_case_row *r, const char *name)
{
    int k;
    for (k = 0; k < r->naxes; k++)
        if (!strcmp(r->axis[k].name, name)) return &r->axis[k];
    return NULL;
}

/* sweep_axis: the first number axis of cs[0] whose value differs among cs[0..n), or NULL. */
static const char *sweep_axis(struct vb_case_row *const *cs, int n)
{
    const struct vb_case_axis *a, *b;
    int i, k;
    for (k = 0; n > 1 && k < cs[0]->naxes; k++) {
        a = &cs[0]->axis[k];
        if (a->label[0]) continue;
        for (i = 1; i < n; i++)
            if ((b = axis_of(cs[i], a->name)) && b->value != a->value) return a->name;
    }
    return NULL;
}

/* group_key writes the axes of r that place it in a sweep over axis: all but axis itself and
 * those equal to it in every case of cs[0..n) (zipped axes: mesh's ny follows nx), so that the
 * cases of one key form one sweep. */
static void group_key(struct vb_case_row *const *cs, int n, const struct vb_case_row *r,
                      const char *axis, char *out, size_t cap)
{
    const struct vb_case_axis *a, *x, *y;
    size_t len = 0;
    int i, k, zipped;
    out[0] = '\0';
    for (k = 0; k < r->naxes; k++) {
        a = &r->axis[k];
        zipped = 1;
        for (i = 0; i < n && zipped; i++)
            zipped = (x = axis_of(cs[i], a->name)) && (y = axis_of(cs[i], axis)) &&
                     x->value == y->value && !strcmp(x->label, y->label);
        if (zipped || len + 1 >= cap) continue; /* the swept axis is zipped with itself */
        if (a->label[0])
            len += (size_t)snprintf(out + len, cap - len, "%s%s=%s", len ? "," : "", a->name,
                                    a->label);
        else
            len += (size_t)snprintf(out + len, cap - len, "%s%s=%lld", len ? "," : "", a->name,
                                    (long long)a->value);
    }
}

/* sweeps: a plot of end-to-end time over the family's sweep axis for every group of its cases
 * cs[0..n) with more than one value of it; 0 or -1 (c->err). */
static int sweeps(struct ctx *c, const struct run_data *rd, const char *family,
                  struct vb_case_row *const *cs, int n)
{
    enum { KEY = 256, NAMES = 64 };
    const char *axis = c->no_plots ? NULL : sweep_axis(cs, n), *names[NAMES];
    const struct vb_case_axis *a;
    struct sweep_pt *pts = NULL;
    char *keys = NULL, *done = NULL, title[800];
    int i, j, k, np, nv, rc = -1;
    if (!axis) return 0;
    keys = malloc((size_t)n * KEY);
    done = calloc((size_t)n, 1);
    pts = malloc((size_t)n * sizeof *pts);
    if (!keys || !done || !pts) {
        vb_err_set(c->err, VB_E_SYS, "out of memory");
        goto out;
    }
    for (i = 0; i < n; i++)
        group_key(cs, n, cs[i], axis, keys + (size_t)i * KEY, KEY);
    for (i = 0; i < n; i++) {
        const char *key = keys + (size_t)i * KEY;
        int values = 0;
        if (done[i]) continue;
        for (np = nv = 0, j = i; j < n; j++) {
            if (strcmp(keys + (size_t)j * KEY, key)) continue;
            done[j] = 1;
            if (!(a = axis_of(cs[j], axis))) continue;
            pts[np].r = cs[j];
            pts[np].x = a->value;
            if (pts[np++].x != pts[0].x) values = 1;
            if (!is_ok(cs[j])) continue;
            for (k = 0; k < nv && strcmp(names[k], cs[j]->name); k++) {
            }
            if (k == nv && nv < NAMES) names[nv++] = cs[j]->name;
        }
        if (!values) continue; /* one value only: nothing to sweep */
        snprintf(title, sizeof title,
                 "%s over %s%s%s on %s: end to end, with the measured floors of the device", family,
                 axis, key[0] ? " at " : "", key, rd->run.gpu[0] ? rd->run.gpu : "the CPU");
        if (vb_plot_sweep(c, rd, title, axis, pts, np, names, nv)) goto out;
    }
    rc = 0;
out:
    free(keys);
    free(done);
    free(pts);
    return rc;
}

int vb_section_family(struct ctx *c, const struct run_data *rd, const char *family)
{
    struct vb_case_row **cs = calloc((size_t)rd->n + 1, sizeof *cs);
    struct vb_case_row **pt = calloc((size_t)rd->n + 1, sizeof *pt);
    char *seen = calloc((size_t)rd->n + 1, 1), title[800];
    const char *gpu = rd->run.gpu[0] ? rd->run.gpu : NULL;
    int i, j, n = 0, np, rc = -1;
    if (!cs || !pt || !seen) {
        vb_err_set(c->err, VB_E_SYS, "out of memory");
        goto out;
    }
    for (i = 0; i < rd->n; i++)
        if (!strcmp(rd->cases[i].family, family)) cs[n++] = &rd->cases[i];
    vb_page_heading(&c->page, 2, "%s on %s", family,
                    gpu ? gpu : "the CPU only (no GPU in this run)");
    for (i = 0; i < n; i++) { /* the points, in the order of their first case */
        if (seen[i]) continue;
        for (np = 0, j = i; j < n; j++)
            if (!seen[j] && !strcmp(cs[j]->axes, cs[i]->axes)) {
                seen[j] = 1;
                pt[np++] = cs[j];
            }
        vb_page_heading(&c->page, 3, "%s", cs[i]->axes);
        ladder(c, pt, np);
        case_table(c, pt, np);
        snprintf(title, sizeof title, "%s at %s on %s: where the time of one sample goes", family,
                 cs[i]->axes, gpu ? gpu : "the CPU");
        if (vb_plot_breakdown(c, title, pt, np)) goto out;
    }
    rc = sweeps(c, rd, family, cs, n);
out:
    free(cs);
    free(pt);
    free(seen);
    return rc;
}

int vb_section_trace(struct ctx *c, const struct run_data *rd)
{
    struct vb_case_row **cs = calloc((size_t)rd->n + 1, sizeof *cs);
    const char *gpu = rd->run.gpu[0] ? rd->run.gpu : "an unknown GPU";
    char title[800];
    int i, nok = 0, rc = 0;
    if (!cs) return vb_err_set(c->err, VB_E_SYS, "out of memory");
    vb_page_heading(&c->page, 2, "Traced programs on %s", gpu);
    vb_page_para(&c->page, NULL,
                 "%d process%s of an unmodified program, traced with varbench trace; e2e is each "
                 "process's traced life, H2D, kernel and D2H the sums of its copies and kernels. "
                 "'varbench summary --run %lld' lists its kernels and API calls.",
                 rd->n, rd->n == 1 ? "" : "es", (long long)rd->run.id);
    if (rd->n) {
        for (i = 0; i < rd->n; i++)
            cs[i] = &rd->cases[i];
        case_table(c, cs, rd->n);
        /* the plot: the traced processes (untraced ones have no parts) */
        for (i = 0; i < rd->n; i++)
            if (is_ok(&rd->cases[i])) cs[nok++] = &rd->cases[i];
        snprintf(title, sizeof title, "traced programs on %s: where the time of each process goes",
                 gpu);
        if (nok) rc = vb_plot_breakdown(c, title, cs, nok);
    }
    free(cs);
    return rc;
}
