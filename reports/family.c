/*
 * family: what the report says about one family in one run. Per problem and point: a sentence
 * per ladder step (each variant against the last correct one before it of the same problem:
 * what moved, by how much, in which part; a skipped or failed variant says why, a wrong one
 * that it is not compared), the ladder chart, the timeline of one sample of each variant, and
 * the table of its cases; per problem, a sweep plot for every group of cases that differ only
 * in a number axis. The sweeps read the cases' structured axes (vb_case_row.axis), never the
 * "a=1,b=2" text, which is only shown.
 */
#include <stdlib.h>

#include "report_int.h"
#include "fmt.h"

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
        snprintf(cell[7], sizeof cell[7], isfinite(r->e2e_median_ns) ? "%.3f" : "-", other_ms(r));
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
        vb_page_row(&c->page, is_bad(r), row);
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
    if (is_ok(b) && !has_time(b)) {
        snprintf(s, n, "%s is correct but has no timed sample (%s): no time to compare.", b->name,
                 b->stop_reason[0] ? b->stop_reason : "not timed");
        return;
    }
    if (!is_ok(b)) {
        if (!strcmp(b->status, "wrong-result"))
            snprintf(s, n,
                     "%s gives a wrong answer (max error %.3g): it is not a result and its "
                     "time is not compared.",
                     b->name, b->max_abs_err);
        else /* the reason's head: its detail (the CUDA call) is in the family's note */
            snprintf(s, n, "%s was %s%s%.*s: no time to compare.", b->name, b->status,
                     b->reason[0] ? ": " : "", head_len(b->reason), b->reason);
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
 * case before it; nothing before the first correct case. no_gpu: the run had no GPU, which the
 * family's note says once for all its skipped GPU cases: they get no sentence each. */
static void ladder(struct ctx *c, struct vb_case_row *const *cs, int n, int no_gpu)
{
    const struct vb_case_row *prev = NULL;
    char s[1200];
    int i;
    for (i = 0; i < n; i++) {
        if (no_gpu && gpu_skipped(cs[i])) continue;
        if (prev || !has_time(cs[i])) { /* a first rung without a time says why too */
            step_sentence(prev ? prev : cs[i], cs[i], s, sizeof s);
            vb_page_item(&c->page, "%s", s);
        }
        if (has_time(cs[i])) prev = cs[i];
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

/* sweeps: a plot of end-to-end time over the sweep axis of one problem (label) for every group of
 * its cases cs[0..n) with more than one value of it; 0 or -1 (c->err). */
static int sweeps(struct ctx *c, const struct run_data *rd, const char *label,
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
        int values = 0, first = -1; /* first: the first ok case's index in pts */
        if (done[i]) continue;
        for (np = nv = 0, j = i; j < n; j++) {
            if (strcmp(keys + (size_t)j * KEY, key)) continue;
            done[j] = 1;
            if (!(a = axis_of(cs[j], axis))) continue;
            pts[np].r = cs[j];
            pts[np].x = a->value;
            np++;
            if (!has_time(cs[j])) continue;
            if (first < 0) first = np - 1;
            if (pts[np - 1].x != pts[first].x) values = 1; /* two values with a time */
            for (k = 0; k < nv && strcmp(names[k], cs[j]->name); k++) {
            }
            if (k == nv && nv < NAMES) names[nv++] = cs[j]->name;
        }
        if (!values) continue; /* no two values with a time: nothing to sweep */
        snprintf(title, sizeof title, "%s over %s%s%s on %s: end to end%s", label, axis,
                 key[0] ? " at " : "", key, rd->run.gpu[0] ? rd->run.gpu : "the CPU",
                 vb_plot_sweep_floors(rd, pts, np) ? ", with the device's measured floors" : "");
        if (vb_plot_sweep(c, rd, title, axis, pts, np, names, nv)) goto out;
    }
    rc = 0;
out:
    free(keys);
    free(done);
    free(pts);
    return rc;
}

/* point: one point of one problem: its heading, the ladder's sentences, chart and timeline,
 * and the table of its cases pt[0..np); 0 or -1 (c->err). */
static int point(struct ctx *c, const struct run_data *rd, const char *label,
                 struct vb_case_row *const *pt, int np)
{
    const char *on = rd->run.gpu[0] ? rd->run.gpu : "the CPU";
    char title[800];
    int i, timed = 0;
    for (i = 0; i < np; i++)
        timed += has_time(pt[i]);
    vb_page_heading(&c->page, "%s at %s", label, pt[0]->axes);
    ladder(c, pt, np, !rd->run.gpu[0]);
    if (timed > 1) { /* a ladder of one bar compares nothing: the table says its time */
        snprintf(title, sizeof title, "%s at %s on %s: the ladder", label, pt[0]->axes, on);
        if (vb_plot_ladder(c, title, pt, np)) return -1;
        snprintf(title, sizeof title, "%s at %s on %s: one sample of each variant", label,
                 pt[0]->axes, on);
        if (vb_plot_timeline(c, rd, title, pt, np)) return -1;
    }
    case_table(c, pt, np);
    return 0;
}

/* per_device writes point pt[0..np) once per GPU it ran on (a --device all run holds each
 * GPU case once per device; the CPU cases join every device's ladder), or once when it ran on
 * one device or none. 0 or -1. */
static int per_device(struct ctx *c, const struct run_data *rd, const char *label,
                      struct vb_case_row **pt, int np)
{
    struct vb_case_row **sub;
    char lab[240];
    int i, j, d, ns, devices = 0, rc = 0;
    for (i = 0; i < np; i++) { /* the devices, counted by their first case */
        for (j = 0; j < i && pt[j]->device_id != pt[i]->device_id; j++) {
        }
        devices += j == i && pt[i]->device_id >= 0;
    }
    if (devices < 2) return point(c, rd, label, pt, np);
    if (!(sub = calloc((size_t)np, sizeof *sub)))
        return vb_err_set(c->err, VB_E_SYS, "out of memory");
    for (i = 0; i < np && !rc; i++) {
        if ((d = pt[i]->device_id) < 0) continue;
        for (j = 0; j < i && pt[j]->device_id != d; j++) {
        }
        if (j < i) continue; /* not the device's first case */
        for (ns = 0, j = 0; j < np; j++)
            if (pt[j]->device_id == d || pt[j]->device_id < 0) sub[ns++] = pt[j];
        snprintf(lab, sizeof lab, "%s on device %d", label, d);
        rc = point(c, rd, lab, sub, ns);
    }
    free(sub);
    return rc;
}

/* skipped_note says once per family why its GPU variants were skipped (no GPU in the run). */
static void skipped_note(struct ctx *c, struct vb_case_row *const *cs, int n)
{
    const struct vb_case_row *why = NULL;
    int i, k = 0;
    for (i = 0; i < n; i++)
        if (gpu_skipped(cs[i])) {
            if (!why) why = cs[i];
            k++;
        }
    if (why)
        vb_page_para(&c->page, "note",
                     "%d GPU case%s skipped%s%s: they have no time, and are not failures.", k,
                     k == 1 ? "" : "s", why->reason[0] ? ": " : "", why->reason);
}

int vb_section_family(struct ctx *c, const struct run_data *rd, const char *family)
{
    struct vb_case_row **cs = calloc((size_t)rd->n + 1, sizeof *cs);
    struct vb_case_row **pc = calloc((size_t)rd->n + 1, sizeof *pc);
    struct vb_case_row **pt = calloc((size_t)rd->n + 1, sizeof *pt);
    const char **prob = calloc((size_t)rd->n + 1, sizeof *prob);
    char *seen = calloc((size_t)rd->n + 1, 1), label[200], id[120];
    int i, j, n = 0, nc, np, rc = -1, nprob = 0, q;
    if (!cs || !pc || !pt || !prob || !seen) {
        vb_err_set(c->err, VB_E_SYS, "out of memory");
        goto out;
    }
    for (i = 0; i < rd->n; i++)
        if (!strcmp(rd->cases[i].family, family)) {
            prob[n] = rd->problem[i];
            cs[n++] = &rd->cases[i];
        }
    for (i = 0; i < n; i++) { /* the problems, in the order of their first case */
        for (j = 0; j < i && strcmp(prob[j], prob[i]); j++) {
        }
        if (j == i) nprob++;
    }
    snprintf(id, sizeof id, "run%lld-%s", (long long)rd->run.id, family);
    vb_page_section(&c->page, id, "%s on %s", family,
                    rd->run.gpu[0] ? rd->run.gpu : "the CPU only (no GPU in this run)");
    skipped_note(c, cs, n);
    vb_page_fold(&c->page, "%s: every point's ladder, timeline and cases, and the sweeps", family);
    for (q = 0; q < n; q++) {
        for (j = 0; j < q && strcmp(prob[j], prob[q]); j++) {
        }
        if (j < q) continue; /* not the problem's first case */
        if (nprob > 1)
            snprintf(label, sizeof label, "%s/%s", family, prob[q]);
        else
            snprintf(label, sizeof label, "%s", family);
        for (nc = 0, i = q; i < n; i++)
            if (!strcmp(prob[i], prob[q])) pc[nc++] = cs[i];
        memset(seen, 0, (size_t)nc);
        for (i = 0; i < nc; i++) { /* the points, in the order of their first case */
            if (seen[i]) continue;
            for (np = 0, j = i; j < nc; j++)
                if (!seen[j] && !strcmp(pc[j]->axes, pc[i]->axes)) {
                    seen[j] = 1;
                    pt[np++] = pc[j];
                }
            if (per_device(c, rd, label, pt, np)) goto out;
        }
        if (sweeps(c, rd, label, pc, nc)) goto out;
    }
    rc = 0;
out:
    vb_page_fold_end(&c->page);
    free(cs);
    free(pc);
    free(pt);
    free(prob);
    free(seen);
    return rc;
}
