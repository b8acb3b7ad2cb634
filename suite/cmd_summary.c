/*
 * summary: `varbench summary`, nvprof's "Profiling result" for a run of the database: by
 * default the newest traced run, or any run (a suite run too) with --run. Reads only.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "store.h"
#include "summary.h"

static const char usage[] =
    "usage: varbench summary [--db FILE] [--run ID]\n"
    "\n"
    "Prints nvprof's profiling result for a run: the processes traced, then the \"GPU\n"
    "activities\" table (Time(%), Time, Calls, Avg, Min, Max, Name; copies as\n"
    "[CUDA memcpy HtoD], kernels by their demangled names), the \"API calls\" table, NVTX ranges,\n"
    "and every kind of copy with its exact byte count. Needs no GPU.\n"
    "\n"
    "  --db FILE   database (default ./varbench.db)\n"
    "  --run ID    the run (default: the newest run of 'varbench trace'; a run of 'varbench run'\n"
    "              shows its kernels and copies)\n"
    "  -h, --help  this text\n"
    "\n"
    "exit codes: 0 printed, 2 usage error (bad flag, no such run), 3 database error (missing,\n"
    "not a varbench database, no traced run)\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "varbench summary: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see 'varbench summary --help')\n");
    return 2;
}

int vb_cmd_summary(int argc, char **argv)
{
    static const struct option lo[] = {{"db", required_argument, NULL, 'd'},
        {"run", required_argument, NULL, 'r'}, {"help", no_argument, NULL, 'h'}, {0, 0, 0, 0}};
    const char *db = "./varbench.db";
    int64_t run = 0;
    struct vb_store *s;
    struct vb_err err;
    int64_t id;
    int c, rc;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (!*optarg) return usage_error("--db needs a file name%s", "");
            db = optarg;
            break;
        case 'r':
            if (vb_parse_run_id(optarg, &run))
                return usage_error("bad --run '%s': a run id (1, 2, ...)", optarg);
            break;
        case 'h':
            fputs(usage, stdout);
            return 0;
        case ':':
            return usage_error("option '%s' needs a value", argv[optind - 1]);
        default:
            return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc) return usage_error("unexpected argument '%s'", argv[optind]);
    vb_err_clear(&err);
    if (vb_store_open_ro(db, &s, &err)) return vb_report_error("summary", &err);
    id = run;
    rc = (!run && vb_store_latest_trace(s, &id, &err)) || vb_summary_print(stdout, s, id, &err);
    vb_store_close(s);
    return rc ? vb_report_error("summary", &err) : 0;
}
