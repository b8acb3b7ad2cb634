/*
 * history: the report's view of a database's past. Every case of the complete suite runs
 * (vb_store_history, e2e of CPU cases and GPU time of GPU cases, as `varbench history`) per GPU
 * model in time order, with its change points (changepoint.h: PELT on the log of the per-run
 * medians). Per family and GPU model one chart: each case over the runs as its ratio to its own
 * median (so a 30 ms reference and a 0.2 ms kernel share one axis), flat cases grey, cases with
 * a change point coloured and the change marked with its factor; a table lists the changes.
 */
#include <stdlib.h>

#include "changepoint.h"
#include "moved.h"
#include "report_int.h"
#include "stats.h"

/* One series with what the report needs of it: its values (x[k]: run k's median) and change
 * points (cp[0..ncp), at most one a run), both owned. */
struct series {
    const struct vb_history *h;
    char family[64];
    double *x, median;
    int *cp, ncp;
};

/* detect fills s for history h: its values, their median and its change points; 0, or -1 when
 * out of memory (s then owns what it holds: the caller frees x and cp). */
static int detect(struct series *s, const struct vb_history *h)
{
    struct vb_cp_opts o = VB_CP_OPTS_DEFAULT;
    int k;
    s->h = h;
    snprintf(s->family, sizeof s->family, "%.*s", (int)strcspn(h->variant, "/"), h->variant);
    if (!(s->x = malloc((size_t)h->n * sizeof *s->x)) ||
        !(s->cp = malloc((size_t)h->n * sizeof *s->cp)))
        return -1;
    for (k = 0; k < h->n; k++)
        s->x[k] = h->pts[k].value_ns;
    s->median = vb_stats_median(s->x, (size_t)h->n);
    /* the store leaves out what is no time (store_history.c): a bad value cannot come here, and
     * would be no point to draw rather than a failure */
    s->ncp = vb_changepoints(s->x, h->n, &o, s->cp, h->n);
    if (s->ncp == VB_CP_EVALUE) s->ncp = 0;
    return s->ncp < 0 || !isfinite(s->median) ? -1 : 0;
}

/* by_chart orders series by family, GPU, then variant and axes: one chart's are adjacent. */
static int by_chart(const void *a, const void *b)
{
    const struct series *x = a, *y = b;
    int k = strcmp(x->family, y->family);
    if (!k) k = strcmp(x->h->gpu, y->h->gpu);
    if (!k) k = strcmp(x->h->variant, y->h->variant);
    return k ? k : strcmp(x->h->axes, y->h->axes);
}

/* chart draws the series s[0..n) of one family and GPU over the runs' order. */
static int chart(struct ctx *c, const struct series *s, int n, const char *title)
{
    char id[16], lab[300], body[12000];
    size_t len = 0;
    FILE *f;
    int i, k, any = 0;
    if (c->no_plots) return 0;
    if (!(f = vb_plot_data(c, id, sizeof id))) return -1;
    for (i = 0; i < n; i++) { /* block i: x ratio; block n: the change points x ratio "label" */
        for (k = 0; k < s[i].h->n; k++)
            fprintf(f, "%d %.6g\n", k + 1, s[i].x[k] / s[i].median);
        fprintf(f, "\n\n");
    }
    for (i = 0; i < n; i++)
        for (k = 0; k < s[i].ncp; k++) {
            int at = s[i].cp[k];
            double b, a;
            vb_cp_step(s[i].x, s[i].h->n, s[i].cp, s[i].ncp, k, &b, &a);
            fprintf(f, "%d %.6g \"%.2fx\"\n", at + 1, s[i].x[at] / s[i].median, a / b);
            any = 1;
        }
    fprintf(f, "0 1 \"\"\n");
    if (vb_plot_data_end(c, f, id)) return -1;
    vb_plot_append(body, sizeof body, &len,
                   "set logscale y 2\nset format y '%%gx'\nset ylabel 'median / the case''s own "
                   "median'\nset xlabel 'run, oldest first'\nset xrange [0.5:%d.5]\n"
                   "set xtics 1\nset key below\nplot ",
                   s[0].h->n);
    for (i = 0; i < n; i++) {
        snprintf(lab, sizeof lab, "%s %s", s[i].h->variant, s[i].h->axes);
        vb_plot_safe(lab, lab, sizeof lab);
        if (s[i].ncp)
            vb_plot_append(body, sizeof body, &len,
                           "'%s.dat' index %d using 1:2 with linespoints lw 2 title '%s', ", id, i,
                           lab);
        else
            vb_plot_append(body, sizeof body, &len,
                           "'%s.dat' index %d using 1:2 with lines lc rgb '#bbbbbb' notitle, ", id,
                           i);
    }
    vb_plot_append(body, sizeof body, &len,
                   "'%s.dat' index %d using 1:2 with points pt 7 ps 2 lc rgb 'red' title '%s', "
                   "'' index %d using 1:2:3 with labels offset 0,1.2 font ',10' notitle\n",
                   id, n, any ? "change point" : "no change point", n);
    return vb_plot_render(c, id, "history", title, 960, 420 + 14 * (n / 3), body, len, sizeof body);
}

/* changes lists every change point of s[0..n) in one table, each with the counters that moved
 * between the run before it and its run (moved.h). 0, or -1 with c->err. */
static int changes(struct ctx *c, const struct series *s, int n)
{
    static const char *const head[] = {
        "variant",  "axes",   "GPU",
        "from run", "commit", "before ms",
        "after ms", "ratio",  "counters that moved (the cause first)"};
    char cell[5][64], why[640];
    const char *row[9];
    int i, k, shown = 0;
    for (i = 0; i < n; i++)
        for (k = 0; k < s[i].ncp; k++) {
            const struct vb_history *h = s[i].h;
            int at = s[i].cp[k];
            double b, a;
            vb_cp_step(s[i].x, h->n, s[i].cp, s[i].ncp, k, &b, &a);
            if (!shown++) vb_page_table(&c->page, 9, head, "llllrrrrl");
            row[0] = h->variant;
            row[1] = h->axes;
            row[2] = h->gpu[0] ? h->gpu : "-";
            snprintf(cell[0], sizeof cell[0], "%lld (#%d)", (long long)h->pts[at].run_id, at + 1);
            snprintf(cell[1], sizeof cell[1], "%.12s", h->pts[at].git_commit);
            snprintf(cell[2], sizeof cell[2], "%.4g", b / 1e6);
            snprintf(cell[3], sizeof cell[3], "%.4g", a / 1e6);
            snprintf(cell[4], sizeof cell[4], "%.2fx %s", a / b, a > b ? "slower" : "faster");
            row[3] = cell[0];
            row[4] = cell[1];
            row[5] = cell[2];
            row[6] = cell[3];
            row[7] = cell[4];
            row[8] = why;
            why[0] = '\0';
            if (at > 0 &&
                vb_moved_line(c->store, h->pts[at - 1].case_id, c->store, h->pts[at].case_id, a / b,
                              VB_MOVED_THRESHOLD, why, sizeof why, c->err))
                return -1;
            vb_page_row(&c->page, a > b, row);
        }
    if (shown) vb_page_table_end(&c->page);
    return 0;
}

int vb_section_history(struct ctx *c)
{
    struct vb_history *h = NULL;
    struct series *s = NULL;
    char title[600];
    int i, j, n = 0, ns = 0, ncp = 0, rc = -1, runs = 0;
    if (vb_store_history(c->store, NULL, "gpu", &h, &n, c->err)) return -1;
    if (!(s = calloc((size_t)n + 1, sizeof *s))) {
        vb_err_set(c->err, VB_E_SYS, "out of memory");
        goto out;
    }
    for (i = 0; i < n; i++) {
        if (h[i].n < 3) continue; /* a trend needs three runs */
        if (detect(&s[ns++], &h[i])) {
            vb_err_set(c->err, VB_E_SYS, "out of memory");
            goto out;
        }
        ncp += s[ns - 1].ncp;
        if (h[i].n > runs) runs = h[i].n;
    }
    rc = 0;
    if (!ns) goto out; /* fewer than three runs of any case: no history to show */
    vb_page_section(&c->page, "history", "History");
    vb_page_para(&c->page, NULL,
                 "%d GPU cases over up to %d complete suite runs of this database, oldest first "
                 "(their GPU time; 'varbench history' prints them, CPU cases too): %d change "
                 "point%s. Method: PELT on the log of the per-run medians, penalty %g x sigma^2 x "
                 "log(n), sigma from the successive differences, isolated outliers set aside; a "
                 "change under 5%% is none.",
                 ns, runs, ncp, ncp == 1 ? "" : "s", VB_CP_PENALTY);
    qsort(s, (size_t)ns, sizeof *s, by_chart);
    if (changes(c, s, ns)) {
        rc = -1;
        goto out;
    }
    for (i = 0; i < ns; i = j) { /* one chart per family and GPU: the series are sorted so */
        for (j = i; j < ns && !strcmp(s[j].family, s[i].family) &&
                    !strcmp(s[j].h->gpu, s[i].h->gpu) && s[j].h->n == s[i].h->n;
             j++) {
        }
        snprintf(title, sizeof title, "%s on %s over %d runs: each case against its own median",
                 s[i].family, s[i].h->gpu[0] ? s[i].h->gpu : "the CPU", s[i].h->n);
        if (chart(c, s + i, j - i, title)) {
            rc = -1;
            goto out;
        }
    }
out:
    for (i = 0; s && i < ns; i++) {
        free(s[i].x);
        free(s[i].cp);
    }
    free(s);
    vb_store_history_free(h, n);
    return rc;
}
