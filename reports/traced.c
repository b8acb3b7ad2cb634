/*
 * traced: the section of the programs traced with `varbench trace`, grouped by program (the
 * case's name: t38.py), so t38/t39/t40 of one seed read side by side. What matters in them is
 * the GPU work, not the interpreter's start-up: the table and the bars give each process's
 * H2D, kernel and D2H time in ms (CUPTI's sums), its life in s is a number only, the timeline
 * shows when each copy and kernel ran, and a run traced with --metrics gets its counters.
 */
#include <stdlib.h>

#include "ranks.h"
#include "report_int.h"

#define NCOL 9

/* table_of writes one row per traced process cs[0..n) (run[k]: its run). */
static void table_of(struct ctx *c, struct vb_case_row *const *cs,
                     const struct run_data *const *run, int n)
{
    static const char *const head[NCOL] = {"program",   "run",
                                           "GPU",       "H2D ms (copies)",
                                           "kernel ms", "D2H ms (copies)",
                                           "GPU ms",    "process life s",
                                           "status"};
    char cell[NCOL][300];
    const char *row[NCOL];
    int i, k;
    for (k = 0; k < NCOL; k++)
        row[k] = cell[k];
    vb_page_table(&c->page, NCOL, head, "llllrlrrl");
    for (i = 0; i < n; i++) {
        const struct vb_case_row *r = cs[i];
        snprintf(cell[0], sizeof cell[0], "%s%s%s", r->name, r->axes[0] ? " " : "", r->axes);
        snprintf(cell[1], sizeof cell[1], "%lld", (long long)run[i]->run.id);
        snprintf(cell[2], sizeof cell[2], "%s", run[i]->run.gpu[0] ? run[i]->run.gpu : "-");
        snprintf(cell[3], sizeof cell[3], "%.3f (%lld)", ms(r->h2d_median_ns),
                 (long long)r->h2d_count);
        snprintf(cell[4], sizeof cell[4], "%.3f", ms(r->kernel_median_ns));
        snprintf(cell[5], sizeof cell[5], "%.3f (%lld)", ms(r->d2h_median_ns),
                 (long long)r->d2h_count);
        snprintf(cell[6], sizeof cell[6], "%.3f",
                 ms(r->h2d_median_ns) + ms(r->kernel_median_ns) + ms(r->d2h_median_ns));
        snprintf(cell[7], sizeof cell[7], "%.2f", ms(r->e2e_median_ns) / 1e3);
        snprintf(cell[8], sizeof cell[8], "%s%s%s", r->status, r->reason[0] ? ": " : "", r->reason);
        vb_page_row(&c->page, is_bad(r), row);
    }
    vb_page_table_end(&c->page);
}

/* bars: the GPU time of each traced process cs[0..n) in ms, H2D, kernel and D2H stacked. */
static int bars(struct ctx *c, const char *title, struct vb_case_row *const *cs,
                const struct run_data *const *run, int n)
{
    char id[16], lab[200], gpu[200], body[1400];
    size_t len = 0;
    FILE *f;
    int i;
    if (c->no_plots || !n) return 0;
    if (!(f = vb_plot_data(c, id, sizeof id))) return -1;
    for (i = 0; i < n; i++) {
        vb_plot_safe(cs[i]->name, lab, sizeof lab);
        vb_plot_safe(run[i]->run.gpu, gpu, sizeof gpu);
        fprintf(f, "\"%s (run %lld)\" %.6f %.6f %.6f\n", lab, (long long)run[i]->run.id,
                ms(cs[i]->h2d_median_ns), ms(cs[i]->kernel_median_ns), ms(cs[i]->d2h_median_ns));
    }
    if (vb_plot_data_end(c, f, id)) return -1;
    vb_plot_append(body, sizeof body, &len,
                   "set style data histograms\nset style histogram rowstacked\n"
                   "set style fill solid 0.85 border -1\nset boxwidth 0.6\n"
                   "set ylabel 'ms of GPU work (CUPTI)'\nset yrange [0:*]\n"
                   "plot '%s.dat' using 2:xtic(1) title 'H2D' lc rgb '#4e79a7', '' using 3 "
                   "title 'kernel' lc rgb '#e15759', '' using 4 title 'D2H' lc rgb '#f28e2b'\n",
                   id);
    return vb_plot_render(c, id, "traced", title, 960, 400, body, len, sizeof body);
}

/* metrics lists the counters of a run traced with --metrics (nvprof's "Metric result"). */
static int metrics(struct ctx *c, const struct run_data *rd)
{
    static const char *const head[] = {"program", "kernel", "metric", "invocations",
                                       "avg",     "min",    "max"};
    struct vb_metric_row *m = NULL;
    char cell[4][64];
    const char *row[7];
    int i, n;
    if (vb_store_metric_summary(c->store, rd->run.id, &m, &n, c->err)) return -1;
    if (n) vb_page_table(&c->page, 7, head, "lllrrrr");
    for (i = 0; i < n; i++) {
        row[0] = rd->n ? rd->cases[0].name : "";
        row[1] = m[i].kernel;
        row[2] = m[i].metric;
        snprintf(cell[0], sizeof cell[0], "%lld", (long long)m[i].invocations);
        snprintf(cell[1], sizeof cell[1], "%.4g", m[i].avg);
        snprintf(cell[2], sizeof cell[2], "%.4g", m[i].min);
        snprintf(cell[3], sizeof cell[3], "%.4g", m[i].max);
        row[3] = cell[0];
        row[4] = cell[1];
        row[5] = cell[2];
        row[6] = cell[3];
        vb_page_row(&c->page, 0, row);
    }
    if (n) vb_page_table_end(&c->page);
    free(m);
    return 0;
}

/* sampled_table writes one row per sampled case (an NVTX range's instances, a kernel's launches)
 * of the traced runs rd[0..nr), and each run's straggler lines (judge/ranks.h). */
static int sampled_table(struct ctx *c, const struct run_data *rd, int nr)
{
    static const char *const head[] = {"program", "samples of", "run",       "samples",
                                       "e2e ms",  "GPU ms",     "kernel ms", "GPU"};
    char cell[8][300], line[1024];
    const char *row[8];
    struct vb_rank_spread *x;
    int i, k, j, nx, shown = 0;
    for (k = 0; k < 8; k++)
        row[k] = cell[k];
    for (k = 0; k < nr; k++)
        for (i = 0; i < rd[k].n; i++) {
            const struct vb_case_row *r = &rd[k].cases[i];
            if (!vb_store_sampled_case(r->family, r->axes)) continue;
            if (!shown++) {
                vb_page_para(&c->page, NULL,
                             "Samples: each instance of an NVTX range (a step) or each launch of "
                             "a kernel asked for is a sample of its case, judged by compare and "
                             "followed by history as a suite case is; medians. e2e is the range's "
                             "host time, GPU and kernel the work launched inside it.");
                vb_page_table(&c->page, 8, head, "llrrrrrl");
            }
            snprintf(cell[0], sizeof cell[0], "%s", r->name);
            snprintf(cell[1], sizeof cell[1], "%s", r->axes);
            snprintf(cell[2], sizeof cell[2], "%lld", (long long)rd[k].run.id);
            snprintf(cell[3], sizeof cell[3], "%d", r->samples);
            snprintf(cell[4], sizeof cell[4], "%.3f", ms(r->e2e_median_ns));
            snprintf(cell[5], sizeof cell[5], "%s", r->have_records ? "" : "-");
            snprintf(cell[6], sizeof cell[6], "%s", r->have_records ? "" : "-");
            if (r->have_records) {
                snprintf(cell[5], sizeof cell[5], "%.3f", ms(r->gpu_median_ns));
                snprintf(cell[6], sizeof cell[6], "%.3f", ms(r->kernel_median_ns));
            }
            snprintf(cell[7], sizeof cell[7], "%s", r->have_records ? r->device : "-");
            vb_page_row(&c->page, is_bad(r), row);
        }
    if (shown) vb_page_table_end(&c->page);
    for (k = 0; k < nr; k++) {
        if (vb_rank_spreads(c->store, rd[k].run.id, &x, &nx, c->err)) return -1;
        for (j = 0; j < nx; j++)
            vb_page_para(&c->page, NULL, "Ranks of run %lld: %s", (long long)rd[k].run.id,
                         vb_rank_spread_text(&x[j], line, sizeof line));
        free(x);
    }
    return 0;
}

int vb_section_traced(struct ctx *c, const struct run_data *rd, int nr)
{
    struct vb_case_row **cs;
    const struct run_data **run;
    int i, j, k, n = 0, total = 0, rc = -1;
    for (k = 0; k < nr; k++)
        total += rd[k].n;
    if (!total) return 0;
    cs = calloc((size_t)total, sizeof *cs);
    run = calloc((size_t)total, sizeof *run);
    if (!cs || !run) {
        vb_err_set(c->err, VB_E_SYS, "out of memory");
        goto out;
    }
    /* grouped by program, in the order of each program's first process */
    for (k = 0; k < nr; k++)
        for (i = 0; i < rd[k].n; i++) {
            const struct vb_case_row *r = &rd[k].cases[i];
            int pos = n;
            if (!vb_store_whole_process(r->family, r->axes)) continue; /* sampled: a table below */
            for (j = n - 1; j >= 0; j--)
                if (!strcmp(cs[j]->name, r->name)) {
                    pos = j + 1;
                    break;
                }
            memmove(cs + pos + 1, cs + pos, (size_t)(n - pos) * sizeof *cs);
            memmove(run + pos + 1, run + pos, (size_t)(n - pos) * sizeof *run);
            cs[pos] = &rd[k].cases[i];
            run[pos] = &rd[k];
            n++;
        }
    vb_page_section(&c->page, "traced", "Traced programs");
    vb_page_para(&c->page, NULL,
                 "%d process%s of unmodified programs traced with varbench trace, grouped by "
                 "program. H2D, kernel and D2H are the sums of each process's copies and "
                 "kernels (CUPTI); the process life includes the interpreter's start-up. "
                 "'varbench summary --run ID' lists the kernels and API calls.",
                 n, n == 1 ? "" : "es");
    for (k = 0; k < nr; k++)
        vb_page_item(&c->page, "run %lld (%s, %s): %s", (long long)rd[k].run.id, rd[k].run.status,
                     rd[k].run.start_utc, rd[k].run.command_line);
    vb_page_list_end(&c->page);
    table_of(c, cs, run, n);
    if (bars(c, "traced programs: GPU work of each process (ms)", cs, run, n) ||
        vb_plot_traced_timeline(c,
                                "traced programs: every copy and kernel of each process, idle "
                                "gaps over 10 ms cut to 0.5 ms",
                                cs, n))
        goto out;
    if (sampled_table(c, rd, nr)) goto out;
    for (k = 0; k < nr; k++)
        if (metrics(c, &rd[k])) goto out;
    rc = 0;
out:
    free(cs);
    free(run);
    return rc;
}
