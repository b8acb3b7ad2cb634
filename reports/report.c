/*
 * report: the report folder (see report.h). One pass over the selected runs writes the HTML
 * and Markdown side by side; each figure is a .dat file and a .gp script handed to gnuplot
 * (spawned without a shell), which writes the SVG the pages embed.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "ceilings.h"
#include "escape.h"
#include "table.h"

extern char **environ;

static const char *const ceil_names[] = {
#define X(id, name) name,
    VB_CEILINGS(X)
#undef X
};

struct run_data {
    struct vb_run_row run;
    struct vb_case_row *cases;
    int n;
    double gbps[VB_CEIL_COUNT]; /* device 0's ceilings; 0 when not measured */
};

struct ctx {
    FILE *html, *md;
    const char *dir, *gnuplot;
    int nplots, no_plots;
    struct vb_err *err;
};

/* safe copies s keeping only characters that need no quoting in gnuplot strings. */
static void safe(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++)
        out[k++] = (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,=:/+- ()", *s))
                       ? *s : '_';
    out[k] = '\0';
}

/* append formats onto buf[*len..cap), never past its end (the text is cut instead). */
static void append(char *buf, size_t cap, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    va_list ap;
    int k;
    if (*len + 1 >= cap) return;
    va_start(ap, fmt);
    k = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    if (k > 0) *len = *len + (size_t)k < cap ? *len + (size_t)k : cap - 1;
}

static double ms(double ns)
{
    return isfinite(ns) ? ns / 1e6 : 0;
}

/* other_ms: the part of the end-to-end time outside the copies and kernels (host work). */
static double other_ms(const struct vb_case_row *c)
{
    double o = ms(c->e2e_median_ns) - ms(c->h2d_median_ns) - ms(c->kernel_median_ns) -
               ms(c->d2h_median_ns);
    return o > 0 ? o : 0;
}

static int is_ok(const struct vb_case_row *c)
{
    return !strcmp(c->status, "ok");
}

/* axis_value copies the value of axis name from "a=1,b=2" into val; 0 if found. */
static int axis_value(const char *axes, const char *name, char *val, size_t n)
{
    size_t len = strlen(name);
    const char *p = axes;
    while (p && *p) {
        if (!strncmp(p, name, len) && p[len] == '=') {
            const char *e = strchr(p + len + 1, ',');
            size_t m = e ? (size_t)(e - p - len - 1) : strlen(p + len + 1);
            snprintf(val, n, "%.*s", (int)m, p + len + 1);
            return 0;
        }
        p = strchr(p, ',');
        if (p) p++;
    }
    return -1;
}

/* without_axis copies axes without axis name ("a=1,b=2" minus b: "a=1"). */
static void without_axis(const char *axes, const char *name, char *out, size_t n)
{
    char buf[256], *tok, *save = NULL;
    size_t len = strlen(name), k = 0;
    snprintf(buf, sizeof buf, "%s", axes);
    out[0] = '\0';
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (!(strncmp(tok, name, len) == 0 && tok[len] == '='))
            k += (size_t)snprintf(out + k, k < n ? n - k : 0, "%s%s", k ? "," : "", tok);
}

static int run_gnuplot(struct ctx *c, const char *script)
{
    char *argv[] = {(char *)c->gnuplot, (char *)script, NULL};
    pid_t pid;
    int st, rc = posix_spawnp(&pid, c->gnuplot, NULL, NULL, argv, environ);
    if (rc) {
        vb_err_set(c->err, VB_E_SYS, "cannot run '%s': %s", c->gnuplot, strerror(rc));
        return vb_err_hint(c->err, "install gnuplot (Debian: apt-get install gnuplot-nox)");
    }
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
        return vb_err_set(c->err, VB_E_SYS, "gnuplot failed on '%s'", script);
    return 0;
}

/* figure opens figNN.dat for writing and names the figure; returns the FILE or NULL. */
static FILE *figure(struct ctx *c, char *id, size_t n)
{
    char path[1200];
    FILE *f;
    snprintf(id, n, "fig%02d", ++c->nplots);
    snprintf(path, sizeof path, "%s/%s.dat", c->dir, id);
    if (!(f = fopen(path, "w"))) vb_err_set(c->err, VB_E_SYS, "cannot write '%s'", path);
    return f;
}

/* render writes figNN.gp (the common header, then body) and runs gnuplot. */
static int render(struct ctx *c, const char *id, const char *title, const char *body)
{
    char path[1200], t[300];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s.gp", c->dir, id);
    if (!(f = fopen(path, "w"))) return vb_err_set(c->err, VB_E_SYS, "cannot write '%s'", path);
    safe(title, t, sizeof t);
    fprintf(f, "set terminal svg size 960,440 dynamic noenhanced font 'sans,11' background rgb 'white'\n"
               "set output '%s/%s.svg'\nset title '%s'\nset grid ytics\nset key outside right top\n"
               "cd '%s'\n%s",
            c->dir, id, t, c->dir, body);
    if (fclose(f)) return vb_err_set(c->err, VB_E_SYS, "cannot write '%s'", path);
    return run_gnuplot(c, path);
}

static void embed(struct ctx *c, const char *id, const char *title)
{
    fprintf(c->html, "<figure><img class=\"plot\" src=\"%s.svg\" alt=\"", id);
    vb_put_xml(c->html, title);
    fprintf(c->html, "\"><figcaption>");
    vb_put_xml(c->html, title);
    fprintf(c->html, "</figcaption></figure>\n");
    fprintf(c->md, "![");
    vb_put_md(c->md, title);
    fprintf(c->md, "](%s.svg)\n\n", id);
}

/* heading writes a level-n heading (2 or 3), escaped for each, to both pages. */
static void heading(struct ctx *c, int level, const char *s)
{
    fprintf(c->html, "<h%d>", level);
    vb_put_xml(c->html, s);
    fprintf(c->html, "</h%d>\n", level);
    fprintf(c->md, "%s ", level == 2 ? "##" : "###");
    vb_put_md(c->md, s);
    fprintf(c->md, "\n\n");
}

/* text writes s, escaped for each, to both pages. */
static void text(struct ctx *c, const char *s)
{
    vb_put_xml(c->html, s);
    vb_put_md(c->md, s);
}

/* case_table: the cases of one family at one point, both pages. */
static void case_table(struct ctx *c, struct vb_case_row **cs, int n)
{
    enum { NCOL = 14 };
    static const char *const head[NCOL] = {
        "variant", "status", "H2D bytes (n)", "H2D ms", "kernel ms", "D2H bytes (n)", "D2H ms",
        "host and other ms", "e2e ms", "samples", "max err", "cache",
        "SM clock min / median MHz", "dropped (throttled)"};
    int i, k;
    fprintf(c->html, "<table><tr>");
    for (k = 0; k < NCOL; k++) fprintf(c->html, "<th>%s</th>", head[k]);
    fprintf(c->html, "</tr>\n");
    fprintf(c->md, "|");
    for (k = 0; k < NCOL; k++) fprintf(c->md, " %s |", head[k]);
    fprintf(c->md, "\n|");
    for (k = 0; k < NCOL; k++) fprintf(c->md, " %s |", k < 2 || k == 11 ? "---" : "---:");
    fprintf(c->md, "\n");
    for (i = 0; i < n; i++) {
        const struct vb_case_row *r = cs[i];
        char cell[NCOL][64], b[32];
        snprintf(cell[0], 64, "%s", r->variant);
        snprintf(cell[1], 64, "%s", r->status);
        if (r->have_records) {
            snprintf(cell[2], 64, "%s (%lld)", vb_fmt_bytes((unsigned long long)r->h2d_bytes, b, sizeof b), (long long)r->h2d_count);
            snprintf(cell[5], 64, "%s (%lld)", vb_fmt_bytes((unsigned long long)r->d2h_bytes, b, sizeof b), (long long)r->d2h_count);
        } else {
            snprintf(cell[2], 64, "-");
            snprintf(cell[5], 64, "-");
        }
        vb_fmt_ms(r->h2d_median_ns, cell[3], 64);
        vb_fmt_ms(r->kernel_median_ns, cell[4], 64);
        vb_fmt_ms(r->d2h_median_ns, cell[6], 64);
        snprintf(cell[7], 64, "%.3f", other_ms(r));
        vb_fmt_ms(r->e2e_median_ns, cell[8], 64);
        snprintf(cell[9], 64, "%d", r->samples);
        if (isfinite(r->max_abs_err)) snprintf(cell[10], 64, "%.2g", r->max_abs_err);
        else snprintf(cell[10], 64, "-");
        snprintf(cell[11], 64, "%s", r->cache[0] ? r->cache : "-");
        if (isfinite(r->clock_min_mhz))
            snprintf(cell[12], 64, "%.0f / %.0f", r->clock_min_mhz, r->clock_median_mhz);
        else snprintf(cell[12], 64, "-");
        snprintf(cell[13], 64, "%d", r->dropped_samples);
        fprintf(c->html, "<tr%s>", is_ok(r) ? "" : " class=\"bad\"");
        fprintf(c->md, "|");
        for (k = 0; k < NCOL; k++) {
            fprintf(c->html, "<td>");
            vb_put_xml(c->html, cell[k]);
            fprintf(c->html, "</td>");
            fprintf(c->md, " ");
            vb_put_md(c->md, cell[k]);
            fprintf(c->md, " |");
        }
        fprintf(c->html, "</tr>\n");
        fprintf(c->md, "\n");
    }
    fprintf(c->html, "</table>\n");
    fprintf(c->md, "\n");
}

/* breakdown: one stacked bar per variant of where its time goes. */
static int breakdown(struct ctx *c, const struct run_data *rd, const char *family,
                     const char *axes, const char *custom_title, struct vb_case_row **cs, int n)
{
    char id[16], title[512], lab[200];
    FILE *f;
    int i;
    if (c->no_plots) return 0;
    if (!(f = figure(c, id, sizeof id))) return -1;
    for (i = 0; i < n; i++) {
        const struct vb_case_row *r = cs[i];
        safe(r->name, lab, sizeof lab);
        fprintf(f, "\"%s%s\" %.6f %.6f %.6f %.6f\n", lab, is_ok(r) ? "" : " (WRONG)",
                ms(r->h2d_median_ns), ms(r->kernel_median_ns), ms(r->d2h_median_ns), other_ms(r));
    }
    fclose(f);
    if (custom_title)
        snprintf(title, sizeof title, "%s", custom_title);
    else
        snprintf(title, sizeof title, "%s at %s on %s: where the time of one sample goes", family,
                 axes, rd->run.gpu[0] ? rd->run.gpu : "the CPU");
    {
        char body[1400];
        snprintf(body, sizeof body,
                 "set style data histograms\nset style histogram rowstacked\n"
                 "set style fill solid 0.85 border -1\nset boxwidth 0.7\nset ylabel 'ms (medians)'\n"
                 "set yrange [0:*]\nset xtics rotate by -20\n"
                 "plot '%s.dat' using 2:xtic(1) title 'H2D' lc rgb '#4e79a7', '' using 3 title 'kernel' "
                 "lc rgb '#e15759', '' using 4 title 'D2H' lc rgb '#f28e2b', '' using 5 title 'host and other' "
                 "lc rgb '#bab0ac'\n", id);
        if (render(c, id, title, body)) return -1;
    }
    embed(c, id, title);
    return 0;
}

/* step_sentence: what moved between two ladder steps, by how much, and the largest part. */
static void step_sentence(struct ctx *c, const struct vb_case_row *a, const struct vb_case_row *b)
{
    static const char *const part[] = {"H2D copies", "kernel time", "D2H copies",
                                       "host work outside copies and kernels"};
    char s[1200], ea[32], eb[32];
    double da[4] = {ms(a->h2d_median_ns), ms(a->kernel_median_ns), ms(a->d2h_median_ns), other_ms(a)};
    double db[4] = {ms(b->h2d_median_ns), ms(b->kernel_median_ns), ms(b->d2h_median_ns), other_ms(b)};
    double ta = ms(a->e2e_median_ns), tb = ms(b->e2e_median_ns);
    int k, big = 0;
    size_t len;
    if (!is_ok(b)) {
        snprintf(s, sizeof s, "%s gives a wrong answer (%s, max error %.3g): it is not a result and "
                              "its time is not compared.", b->name, b->status, b->max_abs_err);
        fprintf(c->html, "<li>");
        text(c, s);
        fprintf(c->html, "</li>\n");
        fprintf(c->md, "\n");
        return;
    }
    for (k = 1; k < 4; k++)
        if (fabs(db[k] - da[k]) > fabs(db[big] - da[big])) big = k;
    vb_fmt_ms(a->e2e_median_ns, ea, sizeof ea);
    vb_fmt_ms(b->e2e_median_ns, eb, sizeof eb);
    len = (size_t)snprintf(s, sizeof s, "%s against %s: end to end %s -> %s ms (%.2fx %s). ", b->name,
                           a->name, ea, eb, ta > tb ? ta / tb : tb / ta, ta > tb ? "faster" : "slower");
    len += (size_t)snprintf(s + len, sizeof s - len, "The largest move is in %s (%.3f -> %.3f ms)",
                            part[big], da[big], db[big]);
    if (big == 0 && a->h2d_bytes != b->h2d_bytes)
        len += (size_t)snprintf(s + len, sizeof s - len, ": %lld -> %lld bytes sent to the device",
                                (long long)a->h2d_bytes, (long long)b->h2d_bytes);
    else if (big == 2 && a->d2h_bytes == b->d2h_bytes && da[2] > 0 && db[2] > 0)
        len += (size_t)snprintf(s + len, sizeof s - len, ": the same %lld bytes at %.1f -> %.1f GB/s",
                                (long long)b->d2h_bytes, (double)a->d2h_bytes / da[2] / 1e6,
                                (double)b->d2h_bytes / db[2] / 1e6);
    else if (big == 1 && da[1] > 0 && db[1] > 0)
        len += (size_t)snprintf(s + len, sizeof s - len, ": the kernel is %.2fx %s", da[1] > db[1] ? da[1] / db[1] : db[1] / da[1],
                                da[1] > db[1] ? "faster" : "slower");
    snprintf(s + len, sizeof s - len, ".");
    fprintf(c->html, "<li>");
    text(c, s);
    fprintf(c->html, "</li>\n");
    fprintf(c->md, "\n");
}

static void sentences(struct ctx *c, struct vb_case_row **cs, int n)
{
    const struct vb_case_row *prev = NULL;
    int i;
    fprintf(c->html, "<ul class=\"steps\">\n");
    for (i = 0; i < n; i++) {
        if (prev) {
            fprintf(c->md, "- ");
            step_sentence(c, prev, cs[i]);
        }
        if (is_ok(cs[i])) prev = cs[i];
    }
    fprintf(c->html, "</ul>\n");
    fprintf(c->md, "\n");
}

/* sweep_axis: an integer axis whose value differs among the family's cases, or NULL. */
static const char *sweep_axis(struct vb_case_row **cs, int n, char *name, size_t len)
{
    char first[64], v[64], key[64];
    const char *p;
    int i;
    if (n < 2) return NULL;
    for (p = cs[0]->axes; p && *p;) {
        const char *eq = strchr(p, '=');
        if (!eq) break;
        snprintf(key, sizeof key, "%.*s", (int)(eq - p), p);
        if (!axis_value(cs[0]->axes, key, first, sizeof first) && strspn(first, "0123456789") == strlen(first))
            for (i = 1; i < n; i++)
                if (!axis_value(cs[i]->axes, key, v, sizeof v) && strcmp(v, first)) {
                    snprintf(name, len, "%s", key);
                    return name;
                }
        p = strchr(p, ',');
        if (p) p++;
    }
    return NULL;
}

/* group_key: the case's axes without the swept one and without any axis that equals it in
 * every case of the family (zipped axes: mesh's ny follows nx), so one group is one sweep. */
static void group_key(struct vb_case_row **cs, int n, const struct vb_case_row *r, const char *axis,
                      char *out, size_t len)
{
    char buf[256], tmp[256], key[64], v[64], w[64];
    const char *p;
    int i, zipped;
    without_axis(r->axes, axis, buf, sizeof buf);
    for (p = r->axes; p && *p;) {
        const char *eq = strchr(p, '=');
        if (!eq) break;
        snprintf(key, sizeof key, "%.*s", (int)(eq - p), p);
        zipped = strcmp(key, axis) != 0;
        for (i = 0; i < n && zipped; i++)
            zipped = !axis_value(cs[i]->axes, key, v, sizeof v) &&
                     !axis_value(cs[i]->axes, axis, w, sizeof w) && !strcmp(v, w);
        if (zipped) {
            without_axis(buf, key, tmp, sizeof tmp);
            snprintf(buf, sizeof buf, "%s", tmp);
        }
        p = strchr(p, ',');
        if (p) p++;
    }
    snprintf(out, len, "%s", buf);
}

/* sweep: end-to-end time over the swept axis, one line per variant, with the floors. */
static int sweep(struct ctx *c, const struct run_data *rd, const char *family,
                 struct vb_case_row **cs, int n)
{
    char axis[64], group[256], g2[256], id[16], title[600], lab[200], v[64];
    char body[6000];
    size_t blen;
    int i, j, k, done[1024] = {0}, ngroups = 0;
    double d2h = rd->gbps[VB_CEIL_D2H_PINNED], hbm = rd->gbps[VB_CEIL_D2D];
    if (c->no_plots || !sweep_axis(cs, n, axis, sizeof axis) || n > 1024) return 0;
    for (i = 0; i < n; i++) {
        FILE *f;
        int nv = 0, sizes = 0;
        const char *names[64];
        char first[64] = "";
        if (done[i]) continue;
        group_key(cs, n, cs[i], axis, group, sizeof group);
        for (j = i; j < n; j++) {
            group_key(cs, n, cs[j], axis, g2, sizeof g2);
            if (strcmp(g2, group) || axis_value(cs[j]->axes, axis, v, sizeof v)) continue;
            if (!sizes++) snprintf(first, sizeof first, "%s", v);
            else if (!strcmp(v, first)) sizes--;
        }
        if (sizes < 2) { /* one size only: nothing to sweep */
            for (j = i; j < n; j++) {
                group_key(cs, n, cs[j], axis, g2, sizeof g2);
                if (!strcmp(g2, group)) done[j] = 1;
            }
            continue;
        }
        if (!(f = figure(c, id, sizeof id))) return -1;
        /* one block per variant, rows: size e2e_ms; then the floors */
        for (j = i; j < n; j++) {
            group_key(cs, n, cs[j], axis, g2, sizeof g2);
            if (done[j] || strcmp(g2, group) || !is_ok(cs[j])) continue;
            for (k = 0; k < nv && strcmp(names[k], cs[j]->name); k++) {}
            if (k == nv && nv < 64) names[nv++] = cs[j]->name;
        }
        for (j = i; j < n; j++) {
            group_key(cs, n, cs[j], axis, g2, sizeof g2);
            if (!strcmp(g2, group)) done[j] = 1;
        }
        for (k = 0; k < nv; k++) {
            for (j = i; j < n; j++) {
                group_key(cs, n, cs[j], axis, g2, sizeof g2);
                if (strcmp(g2, group) || strcmp(cs[j]->name, names[k])) continue;
                if (!is_ok(cs[j]) || axis_value(cs[j]->axes, axis, v, sizeof v)) continue;
                fprintf(f, "%s %.6f\n", v, ms(cs[j]->e2e_median_ns));
            }
            fprintf(f, "\n\n");
        }
        /* floors from the largest output copied back at each size */
        for (j = i; j < n; j++) {
            group_key(cs, n, cs[j], axis, g2, sizeof g2);
            if (strcmp(g2, group) || !cs[j]->needs_gpu || !cs[j]->d2h_bytes || d2h <= 0 || hbm <= 0 ||
                axis_value(cs[j]->axes, axis, v, sizeof v))
                continue;
            fprintf(f, "%s %.6f %.6f\n", v, (double)cs[j]->d2h_bytes / d2h / 1e6,
                    (double)cs[j]->d2h_bytes / hbm / 1e6);
        }
        fclose(f);
        ngroups++;
        snprintf(title, sizeof title, "%s over %s%s%s on %s: end to end, with the measured floors of the device",
                 family, axis, group[0] ? " at " : "", group, rd->run.gpu[0] ? rd->run.gpu : "the CPU");
        blen = 0;
        safe(axis, lab, sizeof lab);
        append(body, sizeof body, &blen,
               "set logscale xy\nset format y '%%g'\nset format x '%%g'\nset xlabel '%s'\n"
               "set ylabel 'ms per sample (median)'\nset key inside top left\nplot ",
               lab);
        for (k = 0; k < nv; k++) {
            safe(names[k], lab, sizeof lab);
            append(body, sizeof body, &blen,
                   "'%s.dat' index %d using 1:2 with linespoints lw 2 title '%s', ", id, k, lab);
        }
        if (d2h > 0 && hbm > 0 && rd->run.gpu[0])
            append(body, sizeof body, &blen,
                     "'%s.dat' index %d using 1:2 with lines dt 2 lc rgb 'black' title 'pinned D2H floor "
                     "(output / %.1f GB/s)', '' index %d using 1:3 with lines dt 3 lc rgb 'gray30' "
                     "title 'HBM floor (output written once / %.0f GB/s)'\n",
                     id, nv, d2h, nv, hbm);
        else
            append(body, sizeof body, &blen, "1/0 notitle\n");
        if (blen + 2 >= sizeof body) return vb_err_set(c->err, VB_E_SYS, "plot script too long");
        if (render(c, id, title, body)) return -1;
        embed(c, id, title);
    }
    return ngroups;
}

/* family_section: every point of one family in one run. */
static int family_section(struct ctx *c, const struct run_data *rd, const char *family)
{
    struct vb_case_row **cs = calloc((size_t)rd->n + 1, sizeof *cs), **pt;
    char axes[256], h[600];
    int i, j, n = 0, np, rc = -1;
    char *seen = calloc((size_t)rd->n + 1, 1);
    pt = calloc((size_t)rd->n + 1, sizeof *pt);
    if (!cs || !seen || !pt) {
        vb_err_set(c->err, VB_E_SYS, "out of memory");
        goto out;
    }
    for (i = 0; i < rd->n; i++)
        if (!strcmp(rd->cases[i].family, family)) cs[n++] = &rd->cases[i];
    snprintf(h, sizeof h, "%s on %s", family, rd->run.gpu[0] ? rd->run.gpu : "the CPU only (no GPU in this run)");
    heading(c, 2, h);
    for (i = 0; i < n; i++) {
        if (seen[i]) continue;
        snprintf(axes, sizeof axes, "%s", cs[i]->axes);
        for (np = 0, j = i; j < n; j++)
            if (!seen[j] && !strcmp(cs[j]->axes, axes)) {
                seen[j] = 1;
                pt[np++] = cs[j];
            }
        heading(c, 3, axes);
        sentences(c, pt, np);
        case_table(c, pt, np);
        if (breakdown(c, rd, family, axes, NULL, pt, np)) goto out;
    }
    if (sweep(c, rd, family, cs, n) < 0) goto out;
    rc = 0;
out:
    free(cs);
    free(seen);
    free(pt);
    return rc;
}

static void run_header(struct ctx *c, const struct run_data *rd)
{
    char line[1600];
    int k;
    snprintf(line, sizeof line, "run %lld (%s), %s, %s: GPU %s, host %s (%s), git %s, command: %s",
             (long long)rd->run.id, rd->run.uuid, rd->run.start_utc, rd->run.status,
             rd->run.gpu[0] ? rd->run.gpu : "none", rd->run.host, rd->run.cpu, rd->run.git_commit,
             rd->run.command_line);
    fprintf(c->html, "<p class=\"run\">");
    vb_put_xml(c->html, line);
    fprintf(c->html, "</p>\n");
    vb_put_md(c->md, line);
    fprintf(c->md, "\n\n");
    for (k = 0; k < VB_CEIL_COUNT && rd->gbps[k] <= 0; k++) {}
    if (!rd->run.gpu[0] || k == VB_CEIL_COUNT) return; /* none measured (a traced run) */
    fprintf(c->html, "<p>measured ceilings:");
    fprintf(c->md, "measured ceilings:");
    for (k = 0; k < VB_CEIL_COUNT; k++) {
        fprintf(c->html, " %s %.1f GB/s%s", ceil_names[k], rd->gbps[k], k + 1 < VB_CEIL_COUNT ? "," : "");
        fprintf(c->md, " %s %.1f GB/s%s", ceil_names[k], rd->gbps[k], k + 1 < VB_CEIL_COUNT ? "," : "");
    }
    fprintf(c->html, "</p>\n");
    fprintf(c->md, "\n\n");
}

/* trace_section: the processes of a run of `varbench trace`, in the columns of the suite's
 * cases (e2e is the process's traced life), and where their time went. */
static int trace_section(struct ctx *c, const struct run_data *rd)
{
    struct vb_case_row **cs = calloc((size_t)rd->n + 1, sizeof *cs);
    char h[600], s[700], t[600];
    int i, rc = 0;
    if (!cs) return vb_err_set(c->err, VB_E_SYS, "out of memory");
    for (i = 0; i < rd->n; i++) cs[i] = &rd->cases[i];
    snprintf(h, sizeof h, "Traced programs on %s", rd->run.gpu[0] ? rd->run.gpu : "an unknown GPU");
    heading(c, 2, h);
    snprintf(s, sizeof s, "%d process%s of an unmodified program, traced with varbench trace; e2e is "
                          "each process's traced life, H2D, kernel and D2H the sums of its copies "
                          "and kernels. 'varbench summary --run %lld' lists its kernels and API calls.",
             rd->n, rd->n == 1 ? "" : "es", (long long)rd->run.id);
    fprintf(c->html, "<p>");
    text(c, s);
    fprintf(c->html, "</p>\n");
    fprintf(c->md, "\n\n");
    if (rd->n) {
        int nok = 0;
        case_table(c, cs, rd->n);
        for (i = 0; i < rd->n; i++) /* the plot: the traced processes (untraced ones have no parts) */
            if (is_ok(&rd->cases[i])) cs[nok++] = &rd->cases[i];
        snprintf(t, sizeof t, "traced programs on %s: where the time of each process goes",
                 rd->run.gpu[0] ? rd->run.gpu : "an unknown GPU");
        if (nok) rc = breakdown(c, rd, "trace", "", t, cs, nok);
    }
    free(cs);
    return rc;
}

/* floor_ms: the transfer floor of a case on a device: its bytes at pinned bandwidth. */
static double floor_ms(const struct vb_case_row *r, const struct run_data *rd)
{
    double h = rd->gbps[VB_CEIL_H2D_PINNED], d = rd->gbps[VB_CEIL_D2H_PINNED];
    if (h <= 0 || d <= 0 || !r->have_records) return NAN;
    return ((double)r->h2d_bytes / h + (double)r->d2h_bytes / d) / 1e6;
}

/* hardware: the same GPU cases on every selected device, in ms and against each device's floor. */
static int hardware(struct ctx *c, const struct run_data *rd, int nr)
{
    char id[16], title[256], lab[300];
    FILE *f = NULL;
    int i, j, k, shown = 0;
    fprintf(c->html, "<h2>Hardware comparison</h2>\n<table><tr><th>variant</th><th>axes</th>");
    fprintf(c->md, "## Hardware comparison\n\n| variant | axes |");
    for (k = 0; k < nr; k++) {
        fprintf(c->html, "<th>");
        vb_put_xml(c->html, rd[k].run.gpu);
        fprintf(c->html, " ms</th><th>%% of its floor</th>");
        fprintf(c->md, " ");
        vb_put_md(c->md, rd[k].run.gpu);
        fprintf(c->md, " ms | %% of its floor |");
    }
    fprintf(c->html, "<th>ratio to the first</th></tr>\n");
    fprintf(c->md, " ratio to the first |\n|---|---|");
    for (k = 0; k < nr; k++) fprintf(c->md, "---:|---:|");
    fprintf(c->md, "---:|\n");
    if (!c->no_plots && !(f = figure(c, id, sizeof id))) return -1;
    for (i = 0; i < rd[0].n; i++) {
        const struct vb_case_row *a = &rd[0].cases[i];
        const struct vb_case_row *m[16];
        char cell[64];
        if (!a->needs_gpu || !is_ok(a)) continue;
        m[0] = a;
        for (k = 1; k < nr && k < 16; k++) {
            m[k] = NULL;
            for (j = 0; j < rd[k].n; j++)
                if (!strcmp(rd[k].cases[j].variant, a->variant) && !strcmp(rd[k].cases[j].axes, a->axes) &&
                    is_ok(&rd[k].cases[j]))
                    m[k] = &rd[k].cases[j];
            if (!m[k]) break;
        }
        if (k < nr) continue;
        shown++;
        fprintf(c->html, "<tr><td>");
        vb_put_xml(c->html, a->variant);
        fprintf(c->html, "</td><td>");
        vb_put_xml(c->html, a->axes);
        fprintf(c->html, "</td>");
        fprintf(c->md, "| ");
        vb_put_md(c->md, a->variant);
        fprintf(c->md, " | ");
        vb_put_md(c->md, a->axes);
        fprintf(c->md, " |");
        {
            char ax[256];
            safe(a->variant, lab, sizeof lab);
            safe(a->axes, ax, sizeof ax);
            if (f) fprintf(f, "\"%s %s\"", lab, ax);
        }
        for (k = 0; k < nr; k++) {
            double fl = floor_ms(m[k], &rd[k]);
            vb_fmt_ms(m[k]->e2e_median_ns, cell, sizeof cell);
            fprintf(c->html, "<td>%s</td>", cell);
            fprintf(c->md, " %s |", cell);
            if (isfinite(fl) && fl > 0) snprintf(cell, sizeof cell, "%.0f%%", 100 * fl / ms(m[k]->e2e_median_ns));
            else snprintf(cell, sizeof cell, "-");
            fprintf(c->html, "<td>%s</td>", cell);
            fprintf(c->md, " %s |", cell);
            if (f) fprintf(f, " %.6f", ms(m[k]->e2e_median_ns));
        }
        if (f) fprintf(f, "\n");
        snprintf(cell, sizeof cell, "%.2f", m[nr - 1]->e2e_median_ns / a->e2e_median_ns);
        fprintf(c->html, "<td>%s</td></tr>\n", cell);
        fprintf(c->md, " %s |\n", cell);
    }
    if (f) fclose(f);
    fprintf(c->html, "</table>\n<p>%% of its floor: the case's bytes at the device's own measured "
                     "pinned H2D/D2H bandwidth, over its end-to-end time (100%% = at the floor).</p>\n");
    fprintf(c->md, "\n%% of its floor: the case's bytes at the device's own measured pinned H2D/D2H "
                   "bandwidth, over its end-to-end time (100%% = at the floor).\n\n");
    if (!shown || !f) return 0;
    {
        char body[8000];
        size_t len = 0;
        append(body, sizeof body, &len,
               "set style data histograms\nset style histogram clustered gap 1\n"
               "set style fill solid 0.85 border -1\nset logscale y\n"
               "set ylabel 'ms end to end (median), log scale'\nset xtics rotate by -40 font ',8'\n"
               "set bmargin 12\nplot ");
        for (k = 0; k < nr; k++) {
            safe(rd[k].run.gpu, lab, sizeof lab);
            append(body, sizeof body, &len, "%s'%s.dat' using %d%s title '%s'", k ? ", " : "", id,
                   k + 2, k ? "" : ":xtic(1)", lab);
        }
        if (len + 2 >= sizeof body) return vb_err_set(c->err, VB_E_SYS, "plot script too long");
        append(body, sizeof body, &len, "\n");
        snprintf(title, sizeof title, "the same cases on %d devices", nr);
        if (render(c, id, title, body)) return -1;
        embed(c, id, title);
    }
    return 0;
}

static const char css[] =
    "body{font-family:sans-serif;margin:2em;max-width:1100px;color:#222}"
    "table{border-collapse:collapse;margin:1em 0;font-size:13px}"
    "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}"
    "td:first-child,th:first-child{text-align:left}tr.bad td{background:#fde2e2}"
    "img.plot{max-width:100%;border:1px solid #eee}p.run{font-size:13px;color:#555}";

/* load_run reads a run's row, cases and ceilings. */
static int load_run(struct vb_store *s, const struct vb_run_row *run, const struct vb_ceiling_row *cr,
                    int ncr, struct run_data *rd, struct vb_err *err)
{
    int i, k;
    memset(rd, 0, sizeof *rd);
    rd->run = *run;
    for (i = 0; i < ncr; i++)
        for (k = 0; k < VB_CEIL_COUNT; k++)
            if (cr[i].run_id == run->id && cr[i].device == 0 && !strcmp(cr[i].name, ceil_names[k]))
                rd->gbps[k] = cr[i].gbps;
    return vb_store_cases(s, run->id, &rd->cases, &rd->n, err);
}

/* select_runs picks the requested runs, or the newest complete suite run of each GPU model and the
 * newest complete trace run of each command on each GPU model. */
static int select_runs(const struct vb_report_opts *o, const struct vb_run_row *runs, int nruns,
                       int *pick, int *npick, struct vb_err *err)
{
    int i, j;
    *npick = 0;
    if (o->nruns) {
        for (j = 0; j < o->nruns; j++) {
            for (i = 0; i < nruns && runs[i].id != o->runs[j]; i++) {}
            if (i == nruns)
                return vb_err_set(err, VB_E_USAGE, "no run %lld in the database", (long long)o->runs[j]);
            pick[(*npick)++] = i;
        }
        return 0;
    }
    /* the newest complete suite run of each GPU model, and of each program traced on each */
    for (i = nruns - 1; i >= 0; i--) {
        int trace = !strcmp(runs[i].kind, "trace");
        if (strcmp(runs[i].status, "complete")) continue;
        for (j = 0; j < *npick && (strcmp(runs[pick[j]].gpu, runs[i].gpu) ||
                                   strcmp(runs[pick[j]].kind, runs[i].kind) ||
                                   (trace && strcmp(runs[pick[j]].command_line, runs[i].command_line)));
             j++) {}
        if (j == *npick && *npick < 16) pick[(*npick)++] = i;
    }
    if (!*npick) {
        vb_err_set(err, VB_E_DB, "the database has no complete run");
        return vb_err_hint(err, "run 'varbench run' first");
    }
    return 0;
}

int vb_report_write(struct vb_store *s, const struct vb_report_opts *o, int *nplots,
                    struct vb_err *err)
{
    struct vb_run_row *runs = NULL;
    struct vb_ceiling_row *cr = NULL;
    struct run_data rd[16];
    struct ctx c;
    char path[1200];
    int nruns, ncr, pick[64], npick = 0, i, j, k, rc = -1, loaded = 0;
    memset(&c, 0, sizeof c);
    if (strpbrk(o->outdir, "'\"\n\r\\")) {
        vb_err_set(err, VB_E_USAGE, "output folder '%s' has a quote, backslash or newline", o->outdir);
        return vb_err_hint(err, "pick a folder name without them (gnuplot scripts quote it)");
    }
    c.dir = o->outdir;
    c.gnuplot = o->gnuplot;
    c.no_plots = o->no_plots;
    c.err = err;
    if (vb_store_runs(s, &runs, &nruns, err) || vb_store_ceiling_rows(s, &cr, &ncr, err)) goto out;
    if (o->nruns > 16) {
        vb_err_set(err, VB_E_USAGE, "at most 16 runs in one report");
        goto out;
    }
    if (select_runs(o, runs, nruns, pick, &npick, err)) goto out;
    for (loaded = 0; loaded < npick; loaded++)
        if (load_run(s, &runs[pick[loaded]], cr, ncr, &rd[loaded], err)) goto out;
    if (mkdir(o->outdir, 0755) && errno != EEXIST) {
        vb_err_set(err, VB_E_SYS, "cannot create '%s': %s", o->outdir, strerror(errno));
        goto out;
    }
    snprintf(path, sizeof path, "%s/index.html", o->outdir);
    if (!(c.html = fopen(path, "w"))) {
        vb_err_set(err, VB_E_SYS, "cannot write '%s'", path);
        goto out;
    }
    snprintf(path, sizeof path, "%s/report.md", o->outdir);
    if (!(c.md = fopen(path, "w"))) {
        vb_err_set(err, VB_E_SYS, "cannot write '%s'", path);
        goto out;
    }
    fprintf(c.html, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>varbench report</title>"
                    "<style>%s</style></head><body>\n<h1>varbench report</h1>\n", css);
    fprintf(c.md, "# varbench report\n\n");
    for (k = 0; k < npick; k++) {
        const char *fams[64];
        int nf = 0;
        if (!strcmp(rd[k].run.kind, "trace")) {
            if (!rd[k].n && !o->nruns) continue; /* a program that made no CUDA calls */
            run_header(&c, &rd[k]);
            if (trace_section(&c, &rd[k])) goto out;
            continue;
        }
        run_header(&c, &rd[k]);
        for (i = 0; i < rd[k].n; i++) {
            for (j = 0; j < nf && strcmp(fams[j], rd[k].cases[i].family); j++) {}
            if (j == nf && nf < 64) fams[nf++] = rd[k].cases[i].family;
        }
        for (j = 0; j < nf; j++)
            if (family_section(&c, &rd[k], fams[j])) goto out;
    }
    {
        /* the hardware comparison is of the suite's runs (a traced program has no twin) */
        struct run_data suite[16];
        int ns = 0;
        for (k = 0; k < npick; k++)
            if (strcmp(rd[k].run.kind, "trace")) suite[ns++] = rd[k];
        if (ns > 1 && hardware(&c, suite, ns)) goto out;
    }
    fprintf(c.html, "<p>Hardware metrics (store efficiency): none stored in these runs.</p>\n"
                    "<script>window.addEventListener('load',function(){var im=document.querySelectorAll("
                    "'img.plot'),ok=0;im.forEach(function(i){if(i.complete&&i.naturalWidth>0)ok++;});"
                    "document.title='varbench report: '+ok+'/'+im.length+' plots loaded';"
                    "document.body.setAttribute('data-plots',ok+'/'+im.length);});</script>\n"
                    "</body></html>\n");
    fprintf(c.md, "Hardware metrics (store efficiency): none stored in these runs.\n");
    rc = 0;
out:
    if (c.html && fclose(c.html) && !rc) rc = vb_err_set(err, VB_E_SYS, "cannot write index.html");
    if (c.md && fclose(c.md) && !rc) rc = vb_err_set(err, VB_E_SYS, "cannot write report.md");
    for (k = 0; k < loaded; k++) free(rd[k].cases);
    free(runs);
    free(cr);
    *nplots = c.nplots;
    return rc;
}
