/* report: `varbench report`: the report folder from a database (see reports/report.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "report.h"

static const char usage[] =
    "usage: varbench report [--db FILE] [--run ID]... [-o DIR]\n"
    "\n"
    "Writes DIR/index.html and DIR/report.md with gnuplot SVG plots: per family and device where\n"
    "the time goes, size sweeps against the device's measured floors, a sentence per ladder\n"
    "step, and a hardware comparison when the runs come from several GPU models (merge their\n"
    "databases with 'varbench merge'). Programs traced with 'varbench trace' get a section\n"
    "of their own, in the same columns. Needs gnuplot (Debian: gnuplot-nox) unless --no-plots;\n"
    "no GPU.\n"
    "\n"
    "  --db FILE     database (default ./varbench.db)\n"
    "  --run ID      a run to include (repeatable; default: the newest complete run of each kind,\n"
    "                suite or trace, and GPU model in the database)\n"
    "  -o DIR        output folder (default ./varbench-report; created if missing)\n"
    "  --no-plots    tables and text only, without gnuplot\n"
    "\n"
    "exit codes: 0 written, 2 usage error (bad flag, unknown run), 3 database error, 6 gnuplot\n"
    "missing or failing, or the folder not writable\n";

int vb_cmd_report(int argc, char **argv)
{
    static const struct option lo[] = {{"db", required_argument, NULL, 'd'},
        {"run", required_argument, NULL, 'r'}, {"help", no_argument, NULL, 'h'},
        {"no-plots", no_argument, NULL, 'P'}, {0, 0, 0, 0}};
    struct vb_report_opts o = {NULL, 0, "./varbench-report", "gnuplot", 0};
    const char *db = "./varbench.db", *gp = getenv("VARBENCH_GNUPLOT");
    int64_t runs[16];
    struct vb_store *s;
    struct vb_err err;
    int c, nplots, rc;
    if (gp && *gp) o.gnuplot = gp;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:h", lo, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'o': o.outdir = optarg; break;
        case 'P': o.no_plots = 1; break;
        case 'r':
            if (o.nruns == 16) {
                fprintf(stderr, "varbench report: at most 16 --run\n");
                return 2;
            }
            if (vb_parse_run_id(optarg, &runs[o.nruns])) {
                fprintf(stderr, "varbench report: bad --run '%s'\n", optarg);
                return 2;
            }
            o.nruns++;
            break;
        case 'h': fputs(usage, stdout); return 0;
        case ':': fprintf(stderr, "varbench report: option '%s' needs a value\n%s", argv[optind - 1], usage); return 2;
        default: fprintf(stderr, "varbench report: unknown option '%s'\n%s", argv[optind - 1], usage); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "varbench report: unexpected argument '%s'\n%s", argv[optind], usage);
        return 2;
    }
    o.runs = o.nruns ? runs : NULL;
    if (vb_store_open_ro(db, &s, &err)) return vb_report_error("report", &err);
    rc = vb_report_write(s, &o, &nplots, &err);
    vb_store_close(s);
    if (rc) return vb_report_error("report", &err);
    printf("report: %s/index.html and %s/report.md, %d plots\n", o.outdir, o.outdir, nplots);
    return 0;
}
