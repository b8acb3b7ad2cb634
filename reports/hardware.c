/*
 * hardware: what the report says across its runs. The hardware comparison sets the GPU cases
 * that every selected suite run holds (same variant, same point, correct on each) side by side,
 * in ms and as a fraction of each device's own transfer floor (its bytes at the device's
 * measured pinned bandwidth). The metrics section shows the hardware metric the store keeps
 * per case, the global store efficiency of its metrics pass, or says that none is stored and,
 * when a case says so, why.
 */
#include <stdlib.h>

#include "report_int.h"
#include "table.h"

/* floor_ms: the transfer floor of case r on device rd: its bytes at pinned bandwidth, or NaN
 * without those ceilings or without copy records. */
static double floor_ms(const struct vb_case_row *r, const struct run_data *rd)
{
    double h = rd->gbps[VB_CEIL_H2D_PINNED], d = rd->gbps[VB_CEIL_D2H_PINNED];
    if (h <= 0 || d <= 0 || !r->have_records) return NAN;
    return ((double)r->h2d_bytes / h + (double)r->d2h_bytes / d) / 1e6;
}

/* twin: the correct case of run rd with a's variant and point, or NULL. */
static const struct vb_case_row *twin(const struct run_data *rd, const struct vb_case_row *a)
{
    const struct vb_case_row *m = NULL;
    int j;
    for (j = 0; j < rd->n; j++)
        if (!strcmp(rd->cases[j].variant, a->variant) && !strcmp(rd->cases[j].axes, a->axes) &&
            is_ok(&rd->cases[j]))
            m = &rd->cases[j];
    return m;
}

int vb_hardware_compare(struct ctx *c, const struct run_data *rd, int nr)
{
    enum { MAXC = 3 + 2 * VB_REPORT_MAX_RUNS };
    const struct vb_case_row **m = calloc((size_t)rd[0].n * (size_t)nr + 1, sizeof *m), **mi;
    const char *head[MAXC], *row[MAXC];
    char gpu[VB_REPORT_MAX_RUNS][300], cell[MAXC][64], align[MAXC + 1];
    int i, k, ncol = 3 + 2 * nr, nrows = 0, rc;
    if (!m) return vb_err_set(c->err, VB_E_SYS, "out of memory");
    for (i = 0; i < rd[0].n; i++) { /* the rows: m[row * nr + k] is its case on device k */
        mi = m + (size_t)nrows * (size_t)nr;
        mi[0] = &rd[0].cases[i];
        if (!mi[0]->needs_gpu || !is_ok(mi[0])) continue;
        for (k = 1; k < nr && (mi[k] = twin(&rd[k], mi[0])); k++) {
        }
        if (k == nr) nrows++; /* on every device */
    }
    vb_page_heading(&c->page, 2, "Hardware comparison");
    if (!nrows) {
        vb_page_para(&c->page, NULL,
                     "No GPU case is correct on all %d devices: nothing to "
                     "compare.",
                     nr);
        free(m);
        return 0;
    }
    head[0] = "variant";
    head[1] = "axes";
    for (k = 0; k < nr; k++) {
        snprintf(gpu[k], sizeof gpu[k], "%s ms", rd[k].run.gpu);
        head[2 + 2 * k] = gpu[k];
        head[3 + 2 * k] = "% of its floor";
    }
    head[ncol - 1] = "ratio to the first";
    memset(align, 'r', (size_t)ncol);
    align[0] = align[1] = 'l';
    align[ncol] = '\0';
    for (k = 2; k < ncol; k++)
        row[k] = cell[k];
    vb_page_table(&c->page, ncol, head, align);
    for (i = 0; i < nrows; i++) {
        mi = m + (size_t)i * (size_t)nr;
        row[0] = mi[0]->variant;
        row[1] = mi[0]->axes;
        for (k = 0; k < nr; k++) {
            double fl = floor_ms(mi[k], &rd[k]);
            vb_fmt_ms(mi[k]->e2e_median_ns, cell[2 + 2 * k], sizeof cell[0]);
            if (isfinite(fl) && fl > 0)
                snprintf(cell[3 + 2 * k], sizeof cell[0], "%.0f%%",
                         100 * fl / ms(mi[k]->e2e_median_ns));
            else
                snprintf(cell[3 + 2 * k], sizeof cell[0], "-");
        }
        snprintf(cell[ncol - 1], sizeof cell[0], "%.2f",
                 mi[nr - 1]->e2e_median_ns / mi[0]->e2e_median_ns);
        vb_page_row(&c->page, 0, row);
    }
    vb_page_table_end(&c->page);
    vb_page_para(&c->page, NULL,
                 "%% of its floor: the case's bytes at the device's own measured pinned H2D/D2H "
                 "bandwidth, over its end-to-end time (100%% = at the floor).");
    rc = vb_plot_hardware(c, rd, nr, m, nrows);
    free(m);
    return rc;
}

/* no_metric says that none of the cases of rd[0..nr) has a stored metric, and the first reason
 * a case gives (its metrics status and reason) with the number of cases that share it. */
static void no_metric(struct ctx *c, const struct run_data *rd, int nr)
{
    const struct vb_case_row *why = NULL;
    int i, k, same = 0;
    for (k = 0; k < nr; k++)
        for (i = 0; i < rd[k].n; i++) {
            const struct vb_case_row *r = &rd[k].cases[i];
            if (!r->needs_gpu || !r->metrics_status[0] || !strcmp(r->metrics_status, "ok"))
                continue;
            if (!why) why = r;
            if (!strcmp(r->metrics_status, why->metrics_status)) same++;
        }
    if (!why) {
        vb_page_para(&c->page, NULL,
                     "Hardware metrics (global store efficiency): none stored "
                     "in these runs.");
        return;
    }
    vb_page_para(&c->page, NULL,
                 "Hardware metrics (global store efficiency): none stored in "
                 "these runs; the metrics pass was '%s' for %d GPU case%s%s%s.",
                 why->metrics_status, same, same == 1 ? "" : "s",
                 why->metrics_reason[0] ? ": " : "", why->metrics_reason);
}

void vb_hardware_metrics(struct ctx *c, const struct run_data *rd, int nr)
{
    static const char *const head[] = {"variant", "axes", "device", "run",
                                       "global store efficiency %"};
    char id[24], eff[32];
    const char *row[] = {NULL, NULL, NULL, id, eff};
    int i, k, shown = 0;
    for (k = 0; k < nr; k++)
        for (i = 0; i < rd[k].n; i++) {
            const struct vb_case_row *r = &rd[k].cases[i];
            /* as `run` shows it: a value of a metrics pass that ended well */
            if (!isfinite(r->gst_efficiency) || strcmp(r->metrics_status, "ok")) continue;
            if (!shown++) {
                vb_page_heading(&c->page, 2, "Hardware metrics");
                vb_page_para(&c->page, NULL,
                             "Global store efficiency from each case's metrics pass (nvprof's "
                             "gst_efficiency: bytes requested per 32-byte sector stored), for "
                             "the cases that have one.");
                vb_page_table(&c->page, 5, head, "lllrr");
            }
            row[0] = r->variant;
            row[1] = r->axes;
            row[2] = r->device;
            snprintf(id, sizeof id, "%lld", (long long)rd[k].run.id);
            snprintf(eff, sizeof eff, "%.1f", r->gst_efficiency);
            vb_page_row(&c->page, !is_ok(r), row);
        }
    if (shown)
        vb_page_table_end(&c->page);
    else
        no_metric(c, rd, nr);
}
