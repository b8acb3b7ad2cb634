/*
 * summary: `varbench summary`, nvprof's "Profiling result" for a run of the database: by
 * default the newest traced run, or any run (a suite run too) with --run. Reads only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "opt.h"
#include "store.h"
#include "summary.h"

static const int codes[] = {0, 2, 3, 6, -1};
static const struct vb_usage usage = {
    .cmd = "summary",
    .synopsis = "[--db FILE] [--run ID]",
    .about = "Prints nvprof's profiling result for a run: the processes traced, then the \"GPU\n"
             "activities\" table (Time(%), Time, Calls, Avg, Min, Max, Name; copies as\n"
             "[CUDA memcpy HtoD], kernels by their demangled names), the \"API calls\" table, NVTX "
             "ranges,\n"
             "and every kind of copy with its exact byte count. Needs no GPU.\n",
    .codes = codes,
};

int vb_cmd_summary(int argc, char **argv)
{
    const char *db = VB_DEFAULT_DB;
    int64_t run = 0, id;
    struct vb_store *s;
    struct vb_err err;
    int n, rc;
    const struct vb_opt opts[] = {
        VB_OPT_DB(&db, "database (default " VB_DEFAULT_DB ")"),
        VB_OPT_RUN("run", &run,
                   "the run (default: the newest run of 'varbench trace'; a run of\n"
                   "'varbench run' shows its kernels and copies; 'varbench runs' lists them)"),
        VB_OPT_END()};
    if ((rc = vb_opt_parse(&usage, opts, argc, argv, &n))) return rc == 1 ? 0 : rc;
    vb_err_clear(&err);
    if (vb_store_open_ro(db, &s, &err)) return vb_report_error("summary", &err);
    id = run;
    rc = (!run && vb_store_latest_trace(s, &id, &err)) || vb_summary_print(stdout, s, id, &err);
    vb_store_close(s);
    return rc ? vb_report_error("summary", &err) : 0;
}
