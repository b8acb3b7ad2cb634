/*
 * summary: `varbench summary`, nvprof's output for a run of the database: by default the newest
 * traced run, or any run (a suite run too) with --run; nvprof's summary mode, or its GPU and
 * API traces (--print-gpu-trace, --print-api-trace), as text or CSV, to stdout or a log file.
 * Reads only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "logpath.h"
#include "nvprof_print.h"
#include "opt.h"
#include "store.h"

static const int codes[] = {0, 2, 3, 6, -1};
static const struct vb_usage usage = {
    .cmd = "summary",
    .synopsis = "[--db FILE] [--run ID] [--print-gpu-trace] [--print-api-trace] [--print-summary] "
                "[--csv] [--log-file FILE]",
    .about = "Prints nvprof's profiling result for a run: the processes traced (and what tracing\n"
             "cost each), then the \"GPU activities\" table (Time(%), Time, Calls, Avg, Min, Max,\n"
             "Name; copies as [CUDA memcpy HtoD], kernels by their demangled names), the \"API\n"
             "calls\" table, NVTX ranges, and every kind of copy with its exact byte count.\n"
             "With --print-gpu-trace or --print-api-trace, nvprof's traces instead (in this\n"
             "order, the summary after them only with --print-summary), one section per\n"
             "process: \"==PID== Profiling result:\" (\"==case ID==\" for a case of a suite run).\n"
             "Needs no GPU.\n",
    .notes = "--log-file patterns (nvprof's): %p this process's id, %q{ENV} the value of the\n"
             "environment variable ENV (unset: an error), %h the host name, %% a literal %.\n",
    .codes = codes,
};

int vb_cmd_summary(int argc, char **argv)
{
    const char *db = VB_DEFAULT_DB, *log = NULL;
    int64_t run = 0, id;
    struct vb_print_opts po;
    struct vb_store *s;
    struct vb_err err;
    char path[4096];
    FILE *out = stdout;
    int n, rc;
    const struct vb_opt opts[] = {
        VB_OPT_DB(&db, "database (default " VB_DEFAULT_DB ")"),
        VB_OPT_RUN("run", &run,
                   "the run (default: the newest run of 'varbench trace'; a run of\n"
                   "'varbench run' shows its kernels and copies; 'varbench runs' lists them)"),
        VB_OPT_FLAG(0, "print-gpu-trace", &po.gpu_trace,
                    "every kernel, copy and memset of each process in start order: grid,\n"
                    "block, registers, shared memory, exact bytes, throughput (GB/s, 10^9),\n"
                    "kinds of memory, device, context, stream, name"),
        VB_OPT_FLAG(0, "print-api-trace", &po.api_trace,
                    "every CUDA API call of each process in start order"),
        VB_OPT_FLAG(0, "print-summary", &po.summary,
                    "the summary too, after a trace (the default without one)"),
        VB_OPT_INT(0, "rank", "N", &po.rank, 0, 1000000,
                   "the tables of rank N's processes only (a multi-process job's ranks:\n"
                   "RANK, OMPI_COMM_WORLD_RANK, ...; default: the whole job)"),
        VB_OPT_FLAG(0, "csv", &po.csv,
                    "every table as nvprof --csv: a quoted header, a units row, rows in\n"
                    "those units; other lines start with ==...=="),
        VB_OPT_STR(0, "log-file", "FILE", &log,
                   "write to FILE (created or emptied) instead of stdout; see the\n"
                   "patterns below"),
        VB_OPT_END()};
    memset(&po, 0, sizeof po);
    po.rank = -1;
    po.after_head = vb_print_ranks;
    if ((rc = vb_opt_parse(&usage, opts, argc, argv, &n))) return rc == 1 ? 0 : rc;
    vb_err_clear(&err);
    if (vb_store_open_ro(db, &s, &err)) return vb_report_error("summary", &err);
    id = run;
    if (!run && vb_store_latest_trace(s, &id, &err)) goto fail;
    if (log && !(out = vb_log_open(log, (long)getpid(), path, sizeof path, &err))) goto fail;
    rc = vb_nvprof_print(out, s, id, &po, &err);
    if (out != stdout) {
        if ((ferror(out) | fclose(out)) && !rc) {
            vb_err_set(&err, VB_E_SYS, "cannot write '%s'", path);
            rc = -1;
        }
    } else if (fflush(out) || ferror(out)) {
        if (!rc) vb_err_set(&err, VB_E_SYS, "cannot write the summary to stdout");
        rc = -1;
    }
    if (rc) goto fail;
    vb_store_close(s);
    return 0;
fail:
    vb_store_close(s);
    return vb_report_error("summary", &err);
}
