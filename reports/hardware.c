/*
 * hardware: what the report says across its runs. The hardware comparison sets each suite run
 * against the first (two GPU models: the H200 against the H100): per case correct in both, the
 * measured ratio of its times beside the ratio its bound predicts (the ratio of its floors,
 * each from its own device's measured ceilings), grouped by bound (PCIe pinned or mapped, PCIe
 * pageable, HBM, launch, CPU) and sorted, so a case 1.4x faster because it is HBM-bound reads apart
 * from one unchanged because it is PCIe-bound. The metrics section shows the hardware metric the
 * store keeps per case, the global store efficiency of its metrics pass, or says that none is
 * stored and why.
 */
#include <math.h>
#include <stdlib.h>

#include "report_int.h"
#include "fmt.h"
#include "stats.h"

/* The bounds a case can sit on, in the order the comparison groups them. */
static const char *const bound_key[] = {"pcie", "pcie", "dram", "launch", "cpu", ""};
static const char *const bound_label[] = {"PCIe (pinned or mapped)",
                                          "PCIe (pageable copies)",
                                          "HBM (DRAM)",
                                          "launch/latency",
                                          "CPU (host)",
                                          "unknown"};
#define NBOUNDS  6
#define PAGEABLE 1 /* bound_key's index of PCIe with a pageable copy */

/* bound_of: the index of the bound case r sits on (its floor's; a PCIe-bound case that copies
 * pageable memory, by its records, the pageable bound; a CPU-only case the CPU). */
static int bound_of(const struct vb_case_row *r)
{
    int k;
    if (!r->needs_gpu) return 4;
    if (!strcmp(r->floor_bound, "latency")) return 3; /* the round trip: launch/latency */
    for (k = 0; k < 4 && strcmp(r->floor_bound, bound_key[k]); k++) {
    }
    if (k == 0 && (r->h2d_pageable == 1 || r->d2h_pageable == 1)) return PAGEABLE;
    return k < 4 ? k : 5;
}

/* pageable_gbps: the pageable rate (curve ids from first, the 256 MiB ceiling plain) of one
 * copy of `bytes`: log-log in time between the curve's sizes around it, the nearest end's rate
 * outside them; the plain ceiling's alone for a run without the curve (store.h) */
static double pageable_gbps(const struct run_data *rd, int first, int plain, double bytes)
{
    double size[VB_CEIL_CURVE_SIZES + 1], g[VB_CEIL_CURVE_SIZES + 1], t[VB_CEIL_CURVE_SIZES + 1];
    int k;
    for (k = 0; k <= VB_CEIL_CURVE_SIZES; k++) {
        /* the last: 256 MiB, the plain ceiling's (smaller only on a board with under 1 GiB
         * free, ceilings.h, whose curve then stops short of it and is not used) */
        size[k] = (double)vb_ceiling_curve_bytes(k);
        g[k] = k < VB_CEIL_CURVE_SIZES ? rd->gbps[first + k] : rd->gbps[plain];
        if (!(g[k] > 0)) return rd->gbps[plain];
        t[k] = size[k] / g[k];
    }
    if (!(bytes > size[0])) return g[0];
    if (bytes > size[VB_CEIL_CURVE_SIZES]) return g[VB_CEIL_CURVE_SIZES];
    return bytes / vb_stats_loglog(size, t, VB_CEIL_CURVE_SIZES + 1, bytes);
}

/* copy_ns: what r's copies take at the rates of rd's measured ceilings (pageable or pinned, as
 * r's records say each direction is; a pageable copy at its own size's rate; device 0's, which a
 * run of several boards shares: the pageable rate is the host's); NaN without a rate its copies
 * need. */
static double copy_ns(const struct run_data *rd, const struct vb_case_row *r)
{
    double h = r->h2d_pageable == 1
                   ? pageable_gbps(rd, VB_CEIL_H2D_PAGEABLE_1MIB, VB_CEIL_H2D_PAGEABLE,
                                   (double)r->h2d_bytes /
                                       (double)(r->h2d_count > 0 ? r->h2d_count : 1))
                   : rd->gbps[VB_CEIL_H2D_PINNED],
           d = r->d2h_pageable == 1
                   ? pageable_gbps(rd, VB_CEIL_D2H_PAGEABLE_1MIB, VB_CEIL_D2H_PAGEABLE,
                                   (double)r->d2h_bytes /
                                       (double)(r->d2h_count > 0 ? r->d2h_count : 1))
                   : rd->gbps[VB_CEIL_D2H_PINNED],
           t = 0;
    if (r->h2d_bytes > 0) t += h > 0 ? (double)r->h2d_bytes / h : NAN;
    if (r->d2h_bytes > 0) t += d > 0 ? (double)r->d2h_bytes / d : NAN;
    return t > 0 ? t : NAN;
}

const struct vb_case_row *vb_case_on(const struct run_data *rd, const struct vb_case_row *a,
                                     int device)
{
    int j;
    for (j = 0; j < rd->n; j++) {
        const struct vb_case_row *x = &rd->cases[j];
        if (x->device_id == device && is_ok(x) && !strcmp(x->variant, a->variant) &&
            !strcmp(x->axes, a->axes))
            return x;
    }
    return NULL;
}

/* One compared case: the base's, the candidate's, its bound, the ratios (candidate / base). */
struct pair {
    const struct vb_case_row *b, *c;
    int bound;
    double measured, predicted;
    double energy;     /* energy a result (a timed sample), candidate over base; NaN unknown */
    double energy_unc; /* its relative uncertainty from both counters' (NaN: a period unknown) */
};

double vb_case_joules(const struct vb_case_row *r)
{
    return r->energy_j > 0 && r->samples > 0 ? r->energy_j / r->samples : NAN;
}

double vb_case_joules_unc(const struct vb_case_row *r)
{
    return r->energy_j > 0 && r->samples > 0 && r->energy_unc_j > 0 ? r->energy_unc_j / r->samples
                                                                    : NAN;
}

static int by_bound_then_ratio(const void *x, const void *y)
{
    const struct pair *a = x, *b = y;
    if (a->bound != b->bound) return a->bound - b->bound;
    return (a->measured > b->measured) - (a->measured < b->measured);
}

/* chart: the measured ratios as horizontal bars, grouped by bound, the predicted ones as
 * marks; a row per case, so 90 cases stay readable. */
static int chart(struct ctx *c, const struct run_data *base, const struct run_data *cand,
                 const struct pair *p, int n)
{
    char id[16], lab[300], ax[256], title[700], body[3000];
    size_t len = 0;
    FILE *f;
    int i, y = 0, predicted = 0;
    if (c->no_plots || !n) return 0;
    if (!(f = vb_plot_data(c, id, sizeof id))) return -1;
    for (i = 0; i < n; i++) { /* rows: y measured predicted bound "label"; a gap between bounds */
        if (i && p[i].bound != p[i - 1].bound) y++;
        vb_plot_safe(p[i].b->variant, lab, sizeof lab);
        vb_plot_safe(p[i].b->axes, ax, sizeof ax);
        fprintf(f, "%d %.6g %.6g %d \"%s %s\"\n", -y, p[i].measured,
                isfinite(p[i].predicted) ? p[i].predicted : -1, p[i].bound + 1, lab, ax);
        predicted += isfinite(p[i].predicted);
        y++;
    }
    if (vb_plot_data_end(c, f, id)) return -1;
    vb_plot_append(body, sizeof body, &len,
                   "set datafile missing 'NaN'\nset logscale x 2\nset format x '%%gx'\n"
                   "set xlabel 'time on the candidate / time on the base (under 1: faster)'\n"
                   "set yrange [%d.7:0.7]\nset ytics font ',8'\nset grid xtics noytics\n"
                   "set key below\nset style fill solid 0.8 noborder\nset lmargin 44\n"
                   "set arrow from 1, graph 0 to 1, graph 1 nohead lc rgb 'black'\n"
                   "plot '%s.dat' using (sqrt($2)):1:($2<1?$2:1):($2<1?1:$2):($1-0.38):($1+0.38):4:"
                   "ytic(5) with boxxyerror lc variable notitle",
                   -y, id);
    if (predicted) /* gnuplot warns of a series without a point */
        vb_plot_append(body, sizeof body, &len,
                       ", '' using ($3 > 0 ? $3 : 1/0):1 with points pt 7 ps 0.7 lc rgb 'black' "
                       "title 'predicted by the measured ceilings'");
    /* the colours by bound, as keys only */
    for (i = 0; i < NBOUNDS - 1; i++)
        vb_plot_append(body, sizeof body, &len, ", NaN with boxes lc %d title '%s'", i + 1,
                       bound_label[i]);
    vb_plot_append(body, sizeof body, &len, "\n");
    snprintf(title, sizeof title, "%s against %s: measured and predicted ratio per case, by bound",
             cand->run.gpu, base->run.gpu);
    return vb_plot_render(c, id, "hardware", title, 960, 300 + 16 * y, body, len, sizeof body);
}

/* pairs_of fills p with the cases of base that cand holds correct too; returns how many. */
static int pairs_of(const struct run_data *base, const struct run_data *cand, struct pair *p)
{
    int i, n = 0;
    for (i = 0; i < base->n; i++) {
        const struct vb_case_row *b = &base->cases[i], *m;
        if (!is_ok(b) || !(m = vb_case_on(cand, b, b->device_id)) || !(vb_boards_time_ns(b) > 0) ||
            !(vb_boards_time_ns(m) > 0))
            continue;
        p[n].b = b;
        p[n].c = m;
        p[n].bound = bound_of(b);
        p[n].measured = vb_boards_time_ns(m) / vb_boards_time_ns(b);
        /* the floors' ratio; a pageable case's copies at the devices' pageable rates (its
         * floor holds the pinned rate, which a pageable copy never reaches) */
        p[n].predicted = p[n].bound == PAGEABLE ? copy_ns(cand, m) / copy_ns(base, b)
                         : b->needs_gpu && b->floor_ms > 0 && m->floor_ms > 0 &&
                                 !strcmp(b->floor_of, m->floor_of)
                             ? m->floor_ms / b->floor_ms
                             : NAN;
        p[n].energy = vb_case_joules(m) / vb_case_joules(b);
        p[n].energy_unc = hypot(vb_case_joules_unc(m) / vb_case_joules(m),
                                vb_case_joules_unc(b) / vb_case_joules(b));
        n++;
    }
    qsort(p, (size_t)n, sizeof *p, by_bound_then_ratio);
    return n;
}

/* one_pair: the table and chart of cand against base. */
static int one_pair(struct ctx *c, const struct run_data *base, const struct run_data *cand)
{
    static const char *const head[] = {"variant",        "axes",
                                       "bound",          "base ms",
                                       "candidate ms",   "predicted ratio",
                                       "measured ratio", "measured / predicted"};
    struct pair *p = calloc((size_t)base->n + 1, sizeof *p);
    char cell[8][64];
    const char *row[8];
    int i, k, n;
    if (!p) return vb_err_set(c->err, VB_E_SYS, "out of memory");
    n = pairs_of(base, cand, p);
    vb_page_heading(&c->page, "%s (run %lld) against %s (run %lld)", cand->run.gpu,
                    (long long)cand->run.id, base->run.gpu, (long long)base->run.id);
    if (!n) {
        vb_page_para(&c->page, NULL, "No case is correct in both runs: nothing to compare.");
        free(p);
        return 0;
    }
    for (k = 0; k < 8; k++)
        row[k] = cell[k];
    vb_page_table(&c->page, 8, head, "lllrrrrr");
    for (i = 0; i < n; i++) {
        row[0] = p[i].b->variant;
        row[1] = p[i].b->axes;
        row[2] = bound_label[p[i].bound];
        vb_fmt_ms(vb_boards_time_ns(p[i].b), cell[3], sizeof cell[3]);
        vb_fmt_ms(vb_boards_time_ns(p[i].c), cell[4], sizeof cell[4]);
        if (isfinite(p[i].predicted)) {
            snprintf(cell[5], sizeof cell[5], "%.2f", p[i].predicted);
            snprintf(cell[7], sizeof cell[7], "%.2f", p[i].measured / p[i].predicted);
        } else {
            snprintf(cell[5], sizeof cell[5], "-");
            snprintf(cell[7], sizeof cell[7], "-");
        }
        snprintf(cell[6], sizeof cell[6], "%.2f", p[i].measured);
        vb_page_row(&c->page, 0, row);
    }
    vb_page_table_end(&c->page);
    k = chart(c, base, cand, p, n);
    free(p);
    return k;
}

static int by_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* median_of: the median of v[0..n) (sorted in place); NaN for none */
static double median_of(double *v, int n)
{
    if (!n) return NAN;
    qsort(v, (size_t)n, sizeof *v, by_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* headline_pair: cand against base, a row per bound: how many cases, the median measured and
 * predicted ratios, and measured / predicted (median and range) */
static int headline_pair(struct ctx *c, const struct run_data *base, const struct run_data *cand)
{
    static const char *const head[] = {
        "bound",     "cases",        "measured ratio", "predicted ratio", "measured / predicted",
        "its range", "energy ratio", "perf / W ratio"};
    struct pair *p = calloc((size_t)base->n + 1, sizeof *p);
    double *m = calloc((size_t)base->n + 1, sizeof *m), *q = calloc((size_t)base->n + 1, sizeof *q),
           *r = calloc((size_t)base->n + 1, sizeof *r), *e = calloc((size_t)base->n + 1, sizeof *e),
           *u = calloc((size_t)base->n + 1, sizeof *u);
    char cell[8][48];
    const char *row[8];
    int i, k, n, nm, nq, nr, ne, nu;
    if (!p || !m || !q || !r || !e || !u) {
        free(u);
        free(p);
        free(m);
        free(q);
        free(r);
        free(e);
        return vb_err_set(c->err, VB_E_SYS, "out of memory");
    }
    n = pairs_of(base, cand, p);
    for (k = 0; k < 8; k++)
        row[k] = cell[k];
    vb_page_heading(&c->page, "%s against %s, by bound", cand->run.gpu, base->run.gpu);
    vb_page_table(&c->page, 8, head, "lrrrrrrr");
    for (k = 0; k < NBOUNDS; k++) {
        for (nm = nq = nr = ne = nu = i = 0; i < n; i++) {
            if (p[i].bound != k) continue;
            m[nm++] = p[i].measured;
            if (isfinite(p[i].energy)) e[ne++] = p[i].energy;
            if (isfinite(p[i].energy) && isfinite(p[i].energy_unc)) u[nu++] = p[i].energy_unc;
            if (isfinite(p[i].predicted)) {
                q[nq++] = p[i].predicted;
                r[nr++] = p[i].measured / p[i].predicted;
            }
        }
        if (!nm) continue;
        row[0] = bound_label[k];
        snprintf(cell[1], sizeof cell[1], "%d", nm);
        snprintf(cell[2], sizeof cell[2], "%.2f", median_of(m, nm));
        snprintf(cell[3], sizeof cell[3], nq ? "%.2f" : "-", median_of(q, nq));
        snprintf(cell[4], sizeof cell[4], nr ? "%.2f" : "-", median_of(r, nr));
        if (nr)
            snprintf(cell[5], sizeof cell[5], "%.2f - %.2f", r[0], r[nr - 1]); /* sorted */
        else
            snprintf(cell[5], sizeof cell[5], "-");
        /* energy a result, and results a joule (performance per watt: its inverse) */
        /* each with the median case's uncertainty from its counters' periods (ledger.h) */
        if (!ne) {
            snprintf(cell[6], sizeof cell[6], "-");
            snprintf(cell[7], sizeof cell[7], "-");
        } else if (nu) {
            double x = median_of(e, ne), w = median_of(u, nu);
            snprintf(cell[6], sizeof cell[6], "%.2f +- %.2f (%d)", x, x * w, ne);
            snprintf(cell[7], sizeof cell[7], "%.2f +- %.2f", 1 / x, w / x);
        } else {
            snprintf(cell[6], sizeof cell[6], "%.2f (%d, +- ?)", median_of(e, ne), ne);
            snprintf(cell[7], sizeof cell[7], "%.2f", 1 / median_of(e, ne));
        }
        vb_page_row(&c->page, 0, row);
    }
    vb_page_table_end(&c->page);
    free(p);
    free(m);
    free(q);
    free(r);
    free(e);
    free(u);
    return 0;
}

int vb_hardware_headline(struct ctx *c, const struct run_data *rd, int nr)
{
    int k;
    for (k = 1; k < nr; k++)
        if (strcmp(rd[k].run.gpu, rd[0].run.gpu) && headline_pair(c, &rd[0], &rd[k])) return -1;
    vb_page_para(&c->page, NULL,
                 "Per bound, over the cases correct on both GPU models: the median ratio of their "
                 "times (candidate over base), the median ratio the bound predicts from each "
                 "device's measured ceilings, and measured over predicted (near 1: the bound "
                 "explains the move); then the median ratio of the energy a result (a timed "
                 "sample's share of the board's energy counter over the samples, NVML) over the "
                 "cases measured on both (how many), and performance per watt, its inverse "
                 "(above 1: the candidate does more a joule), each +- the median case's "
                 "uncertainty: both boards' energy counters read at most one update late at "
                 "each end of a window, their periods measured at each run's start ('+- ?': a "
                 "run that did not measure them). The cases are in the hardware comparison "
                 "below.");
    return 0;
}

int vb_hardware_compare(struct ctx *c, const struct run_data *rd, int nr)
{
    int k;
    vb_page_section(&c->page, "hardware", "Hardware comparison");
    vb_page_para(&c->page, NULL,
                 "Each case correct in both runs, timed on its kernel when its floor is the "
                 "kernel's, else end to end. Ratio: candidate over base (0.71 = 1.4x faster). "
                 "Predicted: the ratio of the case's floors on the two devices, from each "
                 "device's measured ceilings for the bound the case sits on (PCIe: pinned "
                 "copies; PCIe, pageable: its copies at each device's pageable rates; HBM: DRAM "
                 "streaming; launch: an empty launch); CPU cases have none. "
                 "Measured / predicted near 1: the case moved as its bound did.");
    for (k = 1; k < nr; k++)
        if (strcmp(rd[k].run.gpu, rd[0].run.gpu) && one_pair(c, &rd[0], &rd[k])) return -1;
    return 0;
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
                vb_page_section(&c->page, "metrics", "Hardware metrics");
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
