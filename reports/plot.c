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

/* safe copies s into out keeping only characters that need no quoting in gnuplot strings. */
static void safe(const char *s, char *out, size_t n)
{
    static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                             "_.,=:/+- ()";
    size_t k = 0;
    for (; *s && k + 1 < n; s++)
        out[k++] = strchr(ok, *s) ? *s : '_';
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

/* data names the next figure (id: "figNN") and opens its .dat file; the FILE, or NULL with
 * c->err. */
static FILE *data(struct ctx *c, char *id, size_t n)
{
    char path[1200];
    FILE *f;
    snprintf(id, n, "fig%02d", ++c->nplots);
    snprintf(path, sizeof path, "%s/%s.dat", c->dir, id);
    if (!(f = fopen(path, "w")))
        vb_err_set(c->err, VB_E_SYS, "cannot write '%s': %s", path, strerror(errno));
    return f;
}

/* data_end closes a figure's .dat file, checking its writes; 0, or -1 with c->err. */
static int data_end(struct ctx *c, FILE *f, const char *id)
{
    int bad = ferror(f);
    bad |= fclose(f);
    return bad ? vb_err_set(c->err, VB_E_SYS, "cannot write '%s/%s.dat'", c->dir, id) : 0;
}

/* render writes id.gp (the common header, then body), runs gnuplot and embeds the figure;
 * 0, or -1 with c->err (a body cut at its buffer's end is refused, never drawn). */
static int render(struct ctx *c, const char *id, const char *title, const char *body, size_t len,
                  size_t cap)
{
    char path[1200], t[300];
    FILE *f;
    int bad;
    if (len + 2 >= cap) return vb_err_set(c->err, VB_E_SYS, "plot script '%s' too long", id);
    snprintf(path, sizeof path, "%s/%s.gp", c->dir, id);
    if (!(f = fopen(path, "w")))
        return vb_err_set(c->err, VB_E_SYS, "cannot write '%s': %s", path, strerror(errno));
    safe(title, t, sizeof t);
    fprintf(f,
            "set terminal svg size 960,440 dynamic noenhanced font 'sans,11' background rgb "
            "'white'\nset output '%s/%s.svg'\nset title '%s'\nset grid ytics\n"
            "set key outside right top\ncd '%s'\n%s",
            c->dir, id, t, c->dir, body);
    bad = ferror(f);
    bad |= fclose(f);
    if (bad) return vb_err_set(c->err, VB_E_SYS, "cannot write '%s'", path);
    if (run_gnuplot(c, path)) return -1;
    vb_page_figure(&c->page, id, title);
    return 0;
}

int vb_plot_breakdown(struct ctx *c, const char *title, struct vb_case_row *const *cs, int n)
{
    char id[16], lab[200], body[1400];
    size_t len = 0;
    FILE *f;
    int i;
    if (c->no_plots) return 0;
    if (!(f = data(c, id, sizeof id))) return -1;
    for (i = 0; i < n; i++) {
        const struct vb_case_row *r = cs[i];
        safe(r->name, lab, sizeof lab);
        fprintf(f, "\"%s%s\" %.6f %.6f %.6f %.6f\n", lab, is_ok(r) ? "" : " (WRONG)",
                ms(r->h2d_median_ns), ms(r->kernel_median_ns), ms(r->d2h_median_ns), other_ms(r));
    }
    if (data_end(c, f, id)) return -1;
    append(body, sizeof body, &len,
           "set style data histograms\nset style histogram rowstacked\n"
           "set style fill solid 0.85 border -1\nset boxwidth 0.7\nset ylabel 'ms (medians)'\n"
           "set yrange [0:*]\nset xtics rotate by -20\n"
           "plot '%s.dat' using 2:xtic(1) title 'H2D' lc rgb '#4e79a7', '' using 3 title "
           "'kernel' lc rgb '#e15759', '' using 4 title 'D2H' lc rgb '#f28e2b', '' using 5 "
           "title 'host and other' lc rgb '#bab0ac'\n",
           id);
    return render(c, id, title, body, len, sizeof body);
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
    if (!(f = data(c, id, sizeof id))) return -1;
    for (k = 0; k < nv; k++) { /* one block per variant, rows: value e2e_ms */
        for (i = 0; i < n; i++)
            if (is_ok(pts[i].r) && !strcmp(pts[i].r->name, names[k]))
                fprintf(f, "%lld %.6f\n", (long long)pts[i].x, ms(pts[i].r->e2e_median_ns));
        fprintf(f, "\n\n");
    }
    /* then the floors, from the output each GPU case copies back at its value */
    for (i = 0; i < n && d2h > 0 && hbm > 0; i++)
        if (pts[i].r->needs_gpu && pts[i].r->d2h_bytes)
            fprintf(f, "%lld %.6f %.6f\n", (long long)pts[i].x,
                    (double)pts[i].r->d2h_bytes / d2h / 1e6,
                    (double)pts[i].r->d2h_bytes / hbm / 1e6);
    if (data_end(c, f, id)) return -1;
    safe(axis, lab, sizeof lab);
    append(body, sizeof body, &len,
           "set logscale xy\nset format y '%%g'\nset format x '%%g'\nset xlabel '%s'\n"
           "set ylabel 'ms per sample (median)'\nset key inside top left\nplot ",
           lab);
    for (k = 0; k < nv; k++) {
        safe(names[k], lab, sizeof lab);
        append(body, sizeof body, &len,
               "'%s.dat' index %d using 1:2 with linespoints lw 2 title '%s', ", id, k, lab);
    }
    if (d2h > 0 && hbm > 0 && rd->run.gpu[0])
        append(body, sizeof body, &len,
               "'%s.dat' index %d using 1:2 with lines dt 2 lc rgb 'black' title 'pinned D2H "
               "floor (output / %.1f GB/s)', '' index %d using 1:3 with lines dt 3 lc rgb "
               "'gray30' title 'HBM floor (output written once / %.0f GB/s)'\n",
               id, nv, d2h, nv, hbm);
    else
        append(body, sizeof body, &len, "1/0 notitle\n");
    return render(c, id, title, body, len, sizeof body);
}

int vb_plot_hardware(struct ctx *c, const struct run_data *rd, int nr,
                     const struct vb_case_row *const *m, int nrows)
{
    char id[16], title[64], lab[300], ax[256], body[8000];
    size_t len = 0;
    FILE *f;
    int i, k;
    if (c->no_plots || !nrows) return 0;
    if (!(f = data(c, id, sizeof id))) return -1;
    for (i = 0; i < nrows; i++) {
        safe(m[i * nr]->variant, lab, sizeof lab);
        safe(m[i * nr]->axes, ax, sizeof ax);
        fprintf(f, "\"%s %s\"", lab, ax);
        for (k = 0; k < nr; k++)
            fprintf(f, " %.6f", ms(m[i * nr + k]->e2e_median_ns));
        fprintf(f, "\n");
    }
    if (data_end(c, f, id)) return -1;
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
    append(body, sizeof body, &len, "\n");
    snprintf(title, sizeof title, "the same cases on %d devices", nr);
    return render(c, id, title, body, len, sizeof body);
}
