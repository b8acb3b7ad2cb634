/* report: `varbench report`: the report folder from a database (see reports/report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "opt.h"
#include "report.h"

static const int codes[] = {0, 2, 3, 6, -1};
static const struct vb_usage usage = {
    .cmd = "report",
    .synopsis = "[--db FILE] [--run ID]... [-o DIR]",
    .about =
        "Writes DIR/index.html and DIR/report.md with gnuplot SVG plots: per family, problem and\n"
        "point a sentence per ladder step, the ladder on a log axis against each rung's floor, a\n"
        "timeline of one sample of each variant and the case table; size sweeps; programs traced\n"
        "with 'varbench trace' grouped by program; a hardware comparison by bound when the runs\n"
        "come from several GPU models (merge their databases with 'varbench merge'); each GPU\n"
        "case's history with its change points (three or more runs). Prints the section list\n"
        "and a three-line summary. Needs gnuplot (Debian: gnuplot-nox) unless --no-plots; no "
        "GPU.\n",
    .notes = "Exit 6: gnuplot missing or failing, or the folder not writable.\n",
    .codes = codes,
};

/* option_run adds a --run to the report's list (at most 16). */
struct run_list {
    int64_t ids[16];
    int n;
};
static int option_run(void *ctx, const char *arg, struct vb_err *err)
{
    struct run_list *l = ctx;
    if (l->n == 16) return vb_err_set(err, VB_E_USAGE, "at most 16 --run");
    if (vb_parse_run_id(arg, &l->ids[l->n]))
        return vb_err_set(err, VB_E_USAGE,
                          "bad --run '%s': a run id (1, 2, ...; see 'varbench runs')", arg);
    l->n++;
    return 0;
}

int vb_cmd_report(int argc, char **argv)
{
    struct vb_report_opts o = {NULL, 0, "./varbench-report", "gnuplot", 0, stdout, NULL, 0};
    const char *db = VB_DEFAULT_DB, *gp = getenv("VARBENCH_GNUPLOT");
    struct run_list runs = {{0}, 0};
    struct vb_store *s;
    struct vb_err err;
    int n, nplots, rc;
    const struct vb_opt opts[] = {
        VB_OPT_DB(&db, "database (default " VB_DEFAULT_DB ")"),
        VB_OPT_CALL(0, "run", "ID", &runs, option_run,
                    "a run to include (repeatable; default: the newest complete run of each kind,\n"
                    "suite or trace, and GPU model in the database; 'varbench runs' lists them)"),
        VB_OPT_STR('o', NULL, "DIR", &o.outdir,
                   "output folder (default ./varbench-report; created if missing)"),
        VB_OPT_FLAG(0, "no-plots", &o.no_plots, "tables and text only, without gnuplot"),
        VB_OPT_END()};
    if (gp && *gp) o.gnuplot = gp;
    if ((rc = vb_opt_parse(&usage, opts, argc, argv, &n))) return rc == 1 ? 0 : rc;
    o.nruns = runs.n;
    o.runs = o.nruns ? runs.ids : NULL;
    if (vb_store_open_ro(db, &s, &err)) return vb_report_error("report", &err);
    rc = vb_report_write(s, &o, &nplots, &err);
    vb_store_close(s);
    if (rc) return vb_report_error("report", &err);
    printf("report: %s/index.html and %s/report.md, %d plots\n", o.outdir, o.outdir, nplots);
    return 0;
}
