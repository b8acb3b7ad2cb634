/*
 * report: the report folder (see report.h). Picks the runs (those asked for, or the newest by
 * the store's rule and the newest of every other GPU model and traced program), loads their
 * cases and ceilings, and lays out the pages: per suite run a header line and its families
 * (family.c), then the traced programs (traced.c), the hardware comparison and metrics
 * (hardware.c) and the history (history.c); it ends with the section list and a three-line
 * summary. Pages are written by page.c through the sinks, figures by plot.c and timeline.c;
 * report_int.h is what these files share.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "report_int.h"

/* load_run reads run's cases into rd, with device 0's ceilings among cr[0..ncr); 0, or -1 with
 * err and nothing held. */
static int load_run(struct vb_store *s, const struct vb_run_row *run,
                    const struct vb_ceiling_row *cr, int ncr, struct run_data *rd,
                    struct vb_err *err)
{
    int i, k;
    memset(rd, 0, sizeof *rd);
    rd->run = *run;
    for (i = 0; i < ncr; i++)
        for (k = 0; k < VB_CEIL_COUNT; k++)
            if (cr[i].run_id == run->id && cr[i].device == 0 &&
                !strcmp(cr[i].name, vb_ceiling_name((enum vb_ceiling_id)k)))
                rd->gbps[k] = cr[i].gbps, rd->ns[k] = cr[i].median_ns;
    if (vb_store_cases(s, run->id, &rd->cases, &rd->n, err)) return -1;
    if (!(rd->cross = malloc(sizeof *rd->cross)) || vb_crossover_run(rd->cases, rd->n, rd->cross)) {
        free(rd->cross);
        free(rd->cases);
        return vb_err_set(err, VB_E_SYS, "out of memory");
    }
    rd->problem = rd->cross->problem;
    return 0;
}

/* same_slot: runs a and b stand for one another in a default report: the same kind on the same
 * GPU model, and for traces the same command. */
static int same_slot(const struct vb_run_row *a, const struct vb_run_row *b)
{
    return !strcmp(a->gpu, b->gpu) && !strcmp(a->kind, b->kind) &&
           (strcmp(a->kind, "trace") || !strcmp(a->command_line, b->command_line));
}

/* select_runs sets pick[0..*npick) to indexes into runs[0..nruns): the runs o asks for, or the
 * newest complete run by the store's rule (vb_store_latest_run: export and compare take it
 * too), then the newest complete run of every other slot (same_slot). runs come oldest first
 * in the store's order. 0, or -1 with err (VB_E_USAGE: an unknown run, or none complete). */
static int select_runs(struct vb_store *s, const struct vb_report_opts *o,
                       const struct vb_run_row *runs, int nruns, int *pick, int *npick,
                       struct vb_err *err)
{
    int64_t newest;
    int i, j;
    *npick = 0;
    for (j = 0; j < o->nruns; j++) {
        for (i = 0; i < nruns && runs[i].id != o->runs[j]; i++) {
        }
        if (i == nruns) {
            vb_err_set(err, VB_E_USAGE, "the database has no run %lld", (long long)o->runs[j]);
            return vb_err_hint(err, "'varbench runs --db FILE' lists its runs");
        }
        pick[(*npick)++] = i;
    }
    if (o->nruns) return 0;
    if (vb_store_latest_run(s, &newest, err)) return -1;
    for (i = 0; i < nruns && runs[i].id != newest; i++) {
    }
    if (i == nruns) { /* it began after the runs were read: a writer at work */
        vb_err_set(err, VB_E_DB, "run %lld is newer than the runs read", (long long)newest);
        return vb_err_hint(err, "run 'varbench report' again once the run's writer is done");
    }
    pick[(*npick)++] = i;
    for (i = nruns - 1; i >= 0 && *npick < VB_REPORT_MAX_RUNS; i--) {
        if (strcmp(runs[i].status, "complete")) continue;
        for (j = 0; j < *npick && !same_slot(&runs[pick[j]], &runs[i]); j++) {
        }
        if (j == *npick) pick[(*npick)++] = i;
    }
    return 0;
}

/* run_header: the run's identity line and, for a GPU run, its measured ceilings. */
static void run_header(struct ctx *c, const struct run_data *rd)
{
    char line[600];
    int k;
    vb_page_para(&c->page, "run",
                 "run %lld (%s), %s, %s: GPU %s, host %s (%s), git %s, command: %s",
                 (long long)rd->run.id, rd->run.uuid, rd->run.start_utc, rd->run.status,
                 rd->run.gpu[0] ? rd->run.gpu : "none", rd->run.host, rd->run.cpu,
                 rd->run.git_commit, rd->run.command_line);
    for (k = 0; k < VB_CEIL_COUNT && rd->gbps[k] <= 0; k++) {
    }
    if (!rd->run.gpu[0] || k == VB_CEIL_COUNT) return; /* none measured (a traced run) */
    vb_page_para(&c->page, NULL, "measured ceilings:%s",
                 vb_ceilings_text(rd->gbps, rd->ns, line, sizeof line));
    if (*vb_ceilings_curves_text(rd->gbps, line, sizeof line))
        vb_page_para(&c->page, NULL, "%s", line);
}

#define MAX_FAMILIES 64

/* families sets fams to the families of rd's cases, in the order of their first case; returns
 * how many (at most MAX_FAMILIES). */
static int families(const struct run_data *rd, const char **fams)
{
    int i, j, nf = 0;
    for (i = 0; i < rd->n; i++) {
        for (j = 0; j < nf && strcmp(fams[j], rd->cases[i].family); j++) {
        }
        if (j == nf && nf < MAX_FAMILIES) fams[nf++] = rd->cases[i].family;
    }
    return nf;
}

/* suite_run: the sections of one run of the suite, a family at a time in the order of their
 * first case; 0 or -1 (c->err). */
static int suite_run(struct ctx *c, const struct run_data *rd)
{
    const char *fams[MAX_FAMILIES];
    int j, nf = families(rd, fams);
    for (j = 0; j < nf; j++)
        if (vb_section_family(c, rd, fams[j])) return -1;
    return 0;
}

/* pages writes the pages of runs rd[0..nr) (as_asked: the runs were named, so a traced run
 * without processes is shown too): each suite run's families, the traced programs, the
 * hardware comparison of the suite's GPU runs when they are of two GPU models or more, the
 * metrics; 0 or -1 (c->err). */
static int pages(struct ctx *c, struct run_data *rd, int nr, int as_asked)
{
    struct run_data gpus[VB_REPORT_MAX_RUNS], traced[VB_REPORT_MAX_RUNS];
    int k, ns = 0, nt = 0, models = 0; /* models: whether the GPU runs are of 2+ GPU models */
    for (k = 0; k < nr; k++)
        if (strcmp(rd[k].run.kind, "trace") && rd[k].run.gpu[0]) gpus[ns++] = rd[k];
    for (k = 1; k < ns; k++)
        models |= strcmp(gpus[k].run.gpu, gpus[0].run.gpu) != 0;
    /* oldest first: the first GPU run is the base the others are held against */
    for (k = 0; k + 1 < ns; k++) {
        int j, old = k;
        struct run_data t;
        for (j = k + 1; j < ns; j++)
            if (strcmp(gpus[j].run.start_utc, gpus[old].run.start_utc) < 0) old = j;
        t = gpus[k];
        gpus[k] = gpus[old];
        gpus[old] = t;
    }
    /* the answer first: each run's, then the hardware's by bound; the details after them */
    vb_section_answer(c, rd, nr);
    if (models && vb_hardware_headline(c, gpus, ns)) return -1;
    for (k = 0; k < nr; k++) {
        if (!strcmp(rd[k].run.kind, "trace")) {
            if (rd[k].n || as_asked) traced[nt++] = rd[k]; /* else: no CUDA calls */
            continue;
        }
        run_header(c, &rd[k]);
        if (suite_run(c, &rd[k])) return -1;
    }
    if (nt && vb_section_traced(c, traced, nt)) return -1;
    /* the hardware comparison is of the suite's GPU runs (a traced program has no twin) */
    if (models && vb_hardware_compare(c, gpus, ns)) return -1;
    if (vb_section_spread(c, gpus, ns)) return -1;
    vb_hardware_metrics(c, rd, nr);
    return vb_section_history(c);
}

/* headline appends family's ladder headline in run rd to line: at its last point, the first
 * timed rung against the fastest correct one ("mesh nx=4000,ny=4000: cpu-reference 487 ms ->
 * device-mesh-overlap 2.40 ms, 203x"). */
static void headline(const struct run_data *rd, const char *family, char *line, size_t cap)
{
    const struct vb_case_row *first = NULL, *best = NULL, *last = NULL;
    size_t len = strlen(line);
    int i;
    for (i = 0; i < rd->n; i++)
        if (!strcmp(rd->cases[i].family, family)) last = &rd->cases[i];
    for (i = 0; last && i < rd->n; i++) {
        const struct vb_case_row *r = &rd->cases[i];
        if (strcmp(r->family, family) || strcmp(r->axes, last->axes) ||
            strcmp(rd->problem[i], rd->problem[last - rd->cases]))
            continue;
        if (!has_time(r)) continue; /* an untimed rung (a --quick reference) is no first */
        if (!first) first = r;
        if (!best || r->e2e_median_ns < best->e2e_median_ns) best = r;
    }
    if (!first || best == first || len + 1 >= cap) return;
    snprintf(line + len, cap - len, "%s%s %s: %s %.3g ms -> %s %.3g ms, %.3gx", len ? "; " : "",
             family, last->axes, first->name, ms(first->e2e_median_ns), best->name,
             ms(best->e2e_median_ns), first->e2e_median_ns / best->e2e_median_ns);
}

/* summary prints the section list and three lines: the first run's cases (the store's tally,
 * as `varbench runs` counts them), its ladders' headlines and where the report is. 0 or -1. */
static int summary(FILE *out, struct ctx *c, const struct run_data *rd)
{
    struct vb_run_list_row *runs = NULL;
    char line[2048] = "";
    const char *fams[MAX_FAMILIES];
    int i, j, n, nf = families(rd, fams);
    if (vb_store_run_list(c->store, &runs, &n, c->err)) return -1;
    for (i = 0; i < n && runs[i].id != rd->run.id; i++) {
    }
    fprintf(out, "sections:\n");
    for (j = 0; j < c->page.nsections; j++)
        fprintf(out, "  %s\n", c->page.sections[j]);
    if (i < n)
        fprintf(out,
                "cases: %d ok, %d wrong-result, %d wrong on purpose, %d skipped, %d failed, %d "
                "interrupted (run %lld, %s)\n",
                runs[i].ok, runs[i].wrong, runs[i].on_purpose, runs[i].skipped, runs[i].failed,
                runs[i].interrupted, (long long)rd->run.id,
                rd->run.gpu[0] ? rd->run.gpu : "no GPU");
    vb_store_run_list_free(runs);
    for (j = 0; j < nf; j++)
        headline(rd, fams[j], line, sizeof line);
    fprintf(out, "ladders: %s\n", line[0] ? line : "none with a correct rung past the first");
    vb_crossover_line(rd->cross->g, rd->cross->ng, line, sizeof line);
    fprintf(out, "crossover (the CPU reference against the best GPU rung, end to end): %s\n",
            line[0] ? line : "none (no swept size where both ran)");
    return 0;
}

int vb_report_write(struct vb_store *s, const struct vb_report_opts *o, int *nplots,
                    struct vb_err *err)
{
    struct vb_run_row *runs = NULL;
    struct vb_ceiling_row *cr = NULL;
    struct run_data rd[VB_REPORT_MAX_RUNS];
    struct ctx c;
    int nruns, ncr, pick[VB_REPORT_MAX_RUNS], npick = 0, k, rc = -1, loaded = 0, opened = 0;
    memset(&c, 0, sizeof c);
    *nplots = 0;
    if (strpbrk(o->outdir, "'\"\n\r\\")) {
        vb_err_set(err, VB_E_USAGE, "output folder '%s' has a quote, backslash or newline",
                   o->outdir);
        return vb_err_hint(err, "pick a folder name without them (gnuplot scripts quote it)");
    }
    c.dir = o->outdir;
    c.gnuplot = o->gnuplot;
    c.no_plots = o->no_plots;
    c.store = s;
    c.err = err;
    if (vb_store_runs(s, &runs, &nruns, err) || vb_store_ceiling_rows(s, &cr, &ncr, err)) goto out;
    if (o->nruns > VB_REPORT_MAX_RUNS) {
        vb_err_set(err, VB_E_USAGE, "at most %d runs in one report", VB_REPORT_MAX_RUNS);
        goto out;
    }
    /* a fleet whose tasks all failed has no run: its report is the Fleet section alone */
    if (!(o->fleet && !o->nruns && !nruns) && select_runs(s, o, runs, nruns, pick, &npick, err))
        goto out;
    for (loaded = 0; loaded < npick; loaded++)
        if (load_run(s, &runs[pick[loaded]], cr, ncr, &rd[loaded], err)) goto out;
    if (mkdir(o->outdir, 0755) && errno != EEXIST) {
        vb_err_set(err, VB_E_SYS, "cannot create '%s': %s", o->outdir, strerror(errno));
        goto out;
    }
    if (vb_page_open(&c.page, o->outdir, err)) goto out;
    opened = 1;
    if (o->fleet) vb_section_fleet(&c, o->fleet, o->nfleet);
    rc = pages(&c, rd, npick, o->nruns > 0);
    if (!rc && o->summary && npick && summary(o->summary, &c, &rd[0])) rc = -1;
out:
    if (opened && vb_page_close(&c.page, o->outdir, !rc, rc ? NULL : err)) rc = -1;
    for (k = 0; k < loaded; k++) {
        free(rd[k].cases);
        vb_crossover_run_free(rd[k].cross);
        free(rd[k].cross);
    }
    free(runs);
    free(cr);
    *nplots = c.nplots;
    return rc;
}
