/*
 * plot: the report's figures. Each is a .dat file of numbers and a .gp script handed to gnuplot
 * (spawned without a shell), which writes the SVG the pages embed; the sources stay beside it
 * so a figure can be redrawn or restyled by hand. Every name from the database that reaches a
 * script (variant, axis, GPU) is first reduced to characters that need no quoting there, and
 * the folder itself was refused if it holds a quote, so a crafted database runs nothing.
 */
#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "report_int.h"

extern char **environ;

void vb_plot_safe(const char *s, char *out, size_t n)
{
    static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                             "_.,=:/+- ()|";
    size_t k = 0;
    for (; *s && k + 1 < n; s++)
        out[k++] = strchr(ok, *s) ? *s : '_';
    out[k] = '\0';
}

void vb_plot_append(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    va_list ap;
    int k;
    if (*len + 1 >= cap) return;
    va_start(ap, fmt);
    k = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    if (k > 0) *len = *len + (size_t)k < cap ? *len + (size_t)k : cap - 1;
}

/* run_gnuplot runs gnuplot on script and waits for it; 0, or -1 with c->err. */
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

FILE *vb_plot_data(struct ctx *c, char *id, size_t n)
{
    char path[1200];
    FILE *f;
    snprintf(id, n, "fig%02d", ++c->nplots);
    snprintf(path, sizeof path, "%s/%s.dat", c->dir, id);
    if (!(f = fopen(path, "w")))
        vb_err_set(c->err, VB_E_SYS, "cannot write '%s': %s", path, strerror(errno));
    return f;
}

int vb_plot_data_end(struct ctx *c, FILE *f, const char *id)
{
    int bad = ferror(f);
    bad |= fclose(f);
    return bad ? vb_err_set(c->err, VB_E_SYS, "cannot write '%s/%s.dat'", c->dir, id) : 0;
}

int vb_plot_render(struct ctx *c, const char *id, const char *kind, const char *title, int w, int h,
                   const char *body, size_t len, size_t cap)
{
    char path[1200], t[300];
    FILE *f;
    int bad;
    if (len + 2 >= cap) return vb_err_set(c->err, VB_E_SYS, "plot script '%s' too long", id);
    snprintf(path, sizeof path, "%s/%s.gp", c->dir, id);
    if (!(f = fopen(path, "w")))
        return vb_err_set(c->err, VB_E_SYS, "cannot write '%s': %s", path, strerror(errno));
    vb_plot_safe(title, t, sizeof t);
    fprintf(f,
            "set terminal svg size %d,%d dynamic noenhanced font 'sans,11' background rgb "
            "'white'\nset output '%s/%s.svg'\nset title '%s'\nset grid ytics\n"
            "set key outside right top\ncd '%s'\n%s",
            w, h, c->dir, id, t, c->dir, body);
    bad = ferror(f);
    bad |= fclose(f);
    if (bad) return vb_err_set(c->err, VB_E_SYS, "cannot write '%s'", path);
    if (run_gnuplot(c, path)) return -1;
    vb_page_figure(&c->page, id, kind, title);
    return 0;
}

int vb_plot_sweep_floors(const struct run_data *rd, const struct sweep_pt *pts, int n)
{
    int i;
    if (!rd->run.gpu[0] || rd->gbps[VB_CEIL_D2H_PINNED] <= 0 || rd->gbps[VB_CEIL_D2D] <= 0)
        return 0;
    for (i = 0; i < n; i++)
        if (pts[i].r->needs_gpu && pts[i].r->d2h_bytes) return 1;
    return 0;
}

int vb_plot_sweep(struct ctx *c, const struct run_data *rd, const char *title, const char *axis,
                  const struct sweep_pt *pts, int n, const char *const *names, int nv)
{
    double d2h = rd->gbps[VB_CEIL_D2H_PINNED], hbm = rd->gbps[VB_CEIL_D2D];
    char id[16], lab[200], body[6000];
    size_t len = 0;
    FILE *f;
    int i, k;
    if (c->no_plots) return 0;
    if (!(f = vb_plot_data(c, id, sizeof id))) return -1;
    for (k = 0; k < nv; k++) { /* one block per variant, rows: value e2e_ms */
        for (i = 0; i < n; i++)
            if (has_time(pts[i].r) && !strcmp(pts[i].r->name, names[k]))
                fprintf(f, "%lld %.6f\n", (long long)pts[i].x, ms(pts[i].r->e2e_median_ns));
        fprintf(f, "\n\n");
    }
    /* then the floors, from the output each GPU case copies back at its value */
    for (i = 0; i < n && vb_plot_sweep_floors(rd, pts, n); i++)
        if (pts[i].r->needs_gpu && pts[i].r->d2h_bytes)
            fprintf(f, "%lld %.6f %.6f\n", (long long)pts[i].x,
                    (double)pts[i].r->d2h_bytes / d2h / 1e6,
                    (double)pts[i].r->d2h_bytes / hbm / 1e6);
    if (vb_plot_data_end(c, f, id)) return -1;
    vb_plot_safe(axis, lab, sizeof lab);
    vb_plot_append(body, sizeof body, &len,
                   "set logscale xy\nset format y '%%g'\nset format x '%%g'\nset xlabel '%s'\n"
                   "set ylabel 'ms per sample (median)'\nset key inside top left\nplot ",
                   lab);
    for (k = 0; k < nv; k++) {
        vb_plot_safe(names[k], lab, sizeof lab);
        vb_plot_append(body, sizeof body, &len,
                       "'%s.dat' index %d using 1:2 with linespoints lw 2 title '%s', ", id, k,
                       lab);
    }
    if (vb_plot_sweep_floors(rd, pts, n))
        vb_plot_append(
            body, sizeof body, &len,
            "'%s.dat' index %d using 1:2 with lines dt 2 lc rgb 'black' title 'pinned D2H "
            "floor (output / %.1f GB/s)', '' index %d using 1:3 with lines dt 3 lc rgb "
            "'gray30' title 'HBM floor (output written once / %.0f GB/s)'\n",
            id, nv, d2h, nv, hbm);
    else
        vb_plot_append(body, sizeof body, &len, "1/0 notitle\n");
    return vb_plot_render(c, id, "sweep", title, 960, 440, body, len, sizeof body);
}

/* rung_label writes a ladder bar's label: "4.61x | 1.11x fl", its speed-up over the previous
 * correct rung (under 1: slower) and its time over its floor; the first rung, which has no
 * previous one, its own time ("0.0199 ms"), so that every bar carries the label the legend
 * promises. */
static void rung_label(const struct vb_case_row *r, const struct vb_case_row *prev, char *out,
                       size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    if (prev && r->e2e_median_ns > 0)
        len = (size_t)snprintf(out, n, "%.3gx", prev->e2e_median_ns / r->e2e_median_ns);
    else if (!prev && r->e2e_median_ns > 0)
        len = (size_t)snprintf(out, n, "%.3g ms", ms(r->e2e_median_ns));
    if (isfinite(r->floor_ratio) && len < n)
        snprintf(out + len, n - len, "%s%.2fx fl", len ? " | " : "", r->floor_ratio);
}

/* log_tics appends to body, for a log y axis over [lo, hi] holding fewer than two powers of
 * ten, the 1-2-5 values inside it as its tics: gnuplot numbers only powers of ten there, so a
 * ladder's range (8x its bars) showed one number on its axis, or none. */
static void log_tics(char *body, size_t size, size_t *len, double lo, double hi)
{
    static const int mant[] = {1, 2, 5};
    double e;
    int decades = 0, k, first = 1;
    if (!(lo > 0) || !(hi > lo)) return;
    for (e = floor(log10(lo)); e <= ceil(log10(hi)); e++)
        decades += pow(10, e) >= lo && pow(10, e) <= hi;
    if (decades >= 2) return;
    vb_plot_append(body, size, len, "set ytics (");
    for (e = floor(log10(lo)); e <= ceil(log10(hi)); e++)
        for (k = 0; k < 3; k++) {
            double v = mant[k] * pow(10, e);
            if (v < lo || v > hi) continue;
            vb_plot_append(body, size, len, "%s'%g' %g", first ? "" : ", ", v, v);
            first = 0;
        }
    vb_plot_append(body, size, len, ")\n");
}

int vb_plot_ladder(struct ctx *c, const char *title, struct vb_case_row *const *cs, int n)
{
    const struct vb_case_row *prev = NULL;
    char id[16], lab[200], rl[120], fs[32], body[2400];
    size_t len = 0;
    int i, drawn = 0, floors = 0, bad = 0;
    double lo = INFINITY, hi = 0;
    FILE *f;
    if (c->no_plots) return 0;
    for (i = 0; i < n; i++) {
        drawn += has_time(cs[i]) || is_bad(cs[i]);
        bad += is_bad(cs[i]);
    }
    if (!drawn) return 0; /* nothing timed: the sentences say why */
    if (!(f = vb_plot_data(c, id, sizeof id))) return -1;
    /* rows: x name e2e_ms floor_ms label ok; a wrong or failed rung is drawn red, labelled so,
     * never compared; skipped rungs have no bar */
    for (i = 0; i < n; i++) {
        const struct vb_case_row *r = cs[i];
        double fl = isfinite(r->floor_ms) && r->floor_ms > 0 ? r->floor_ms : NAN;
        if (!has_time(r) && !is_bad(r)) continue;
        vb_plot_safe(r->name, lab, sizeof lab);
        if (is_ok(r))
            rung_label(r, prev, rl, sizeof rl);
        else
            snprintf(rl, sizeof rl, "%s", !strcmp(r->status, "wrong-result") ? "wrong" : r->status);
        vb_plot_safe(rl, rl, sizeof rl);
        floors += isfinite(fl);
        lo = fmin(lo, isfinite(fl) ? fmin(fl, ms(r->e2e_median_ns)) : ms(r->e2e_median_ns));
        hi = fmax(hi, ms(r->e2e_median_ns));
        if (isfinite(fl))
            snprintf(fs, sizeof fs, "%.6g", fl);
        else
            snprintf(fs, sizeof fs, "NaN");
        fprintf(f, "%d \"%s\" %.6g %s \"%s\" %d\n", i, lab, ms(r->e2e_median_ns), fs, rl, is_ok(r));
        if (has_time(r)) prev = r;
    }
    if (vb_plot_data_end(c, f, id)) return -1;
    lo = lo > 0 && isfinite(lo) ? lo / 2 : 1e-3;
    hi = hi > 0 ? hi * 4 : 1;
    log_tics(body, sizeof body, &len, lo, hi);
    vb_plot_append(body, sizeof body, &len,
                   "set datafile missing 'NaN'\nset logscale y\nset format y '%%g'\nset ylabel 'ms "
                   "end to end (median), log "
                   "scale'\nset style fill solid 0.85 border -1\nset boxwidth 0.6\n"
                   "set yrange [%.3g:%.3g]\n"
                   "set xrange [-0.6:%d.6]\nset xtics rotate by -20 font ',10'\nset bmargin 7\n"
                   "set key below\nset offsets 0,0,graph 0.12,0\n"
                   "plot '%s.dat' using 1:3:5:xtic(2) with labels offset 0,0.8 font ',10' "
                   "notitle",
                   lo, hi, n - 1, id);
    if (drawn > bad) /* gnuplot refuses a plot whose every point is undefined */
        vb_plot_append(
            body, sizeof body, &len,
            ", '' using 1:($6 > 0 ? $3 : 1/0) with boxes lc rgb '#4e79a7' title 'end to "
            "end (label: the first rung in ms, then x over the previous rung | x over its floor)'");
    if (bad)
        vb_plot_append(body, sizeof body, &len,
                       ", '' using 1:($6 > 0 ? 1/0 : $3) with boxes lc rgb '#e15759' title "
                       "'wrong or failed (not compared)'");
    if (floors)
        vb_plot_append(body, sizeof body, &len,
                       ", '' using 1:4:(0.3) with xerrorbars pt 0 lw 2 lc rgb 'black' title "
                       "'floor'");
    vb_plot_append(body, sizeof body, &len, "\n");
    return vb_plot_render(c, id, "ladder", title, 960, 400, body, len, sizeof body);
}
