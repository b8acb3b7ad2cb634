/* trace_opts: varbench trace's command line (see trace_opts.h). */
#include "trace_opts.h"

#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "nvprof_flags.h"
#include "opt.h"

static const int codes[] = {0, 2, 3, 6, -1};

static const char notes[] =
    "Printing, as nvprof: the summary by default; --print-gpu-trace and --print-api-trace print\n"
    "one line per activity or API call instead (add --print-summary for both), on stderr or\n"
    "into --log-file; 'varbench summary' prints any of them again from the database.\n"
    "Capture, as nvprof and nsys: CUPTI traces the whole process either way, and at its exit\n"
    "only the records inside the capture windows are stored (a GPU record with the API call\n"
    "that launched it).\n"
    "Samples, for compare, history and the report: each instance of an NVTX range (a training\n"
    "step) is a sample of the case PROGRAM range=NAME (then rank=R for a process its launcher\n"
    "numbered: RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID, LOCAL_RANK; or pid=P for a\n"
    "process other than COMMAND's own): its e2e is the range's host time, its kernel, copy and\n"
    "memset times those of the work launched inside it (a step's work that runs after it still\n"
    "counts), its comm time that of NCCL's kernels. By default every range name with 5\n"
    "instances or more (16 names at most, the ones covering the most time) and the\n"
    "--capture-range one; --range names others ('auto' adds the default, 'none' takes all\n"
    "away). --kernel GLOB makes each launch of the kernels it matches a sample as well.\n"
    "Beside other tools: under ncu, nsys, compute-sanitizer or cuda-gdb (CUDA_INJECTION64_PATH\n"
    "set, or the tool among varbench's parents) the program runs under that tool, untraced by\n"
    "varbench, and the run stores one skipped case saying so. A CUPTI client inside the\n"
    "program (PyTorch's profiler) keeps working: varbench takes no CUPTI subscriber (but with\n"
    "--metrics), and the case says what the client took.\n"
    "A Ctrl-C reaches the program as usual; SIGINT, SIGTERM, SIGHUP or SIGQUIT sent to varbench\n"
    "alone is passed on to it. A process stores its trace when it exits (exit(), an uncaught\n"
    "Python exception, Ctrl-C, SIGTERM); one killed outright (SIGKILL, a crash) loses it.\n"
    "Environment: VARBENCH_VB_INJECT_LIB overrides where " VB_INJECT_LIB " is looked for.\n"
    "\n"
    "Exit status, as nvprof's: once COMMAND has started, COMMAND's own exit status (128+N when\n"
    "signal N ended it; 126 COMMAND is not executable, 127 COMMAND not found: the run is stored\n"
    "as failed), or 3 when COMMAND succeeded but the run could not be completed in the\n"
    "database. Before COMMAND starts, the table below (6: " VB_INJECT_LIB " not found).\n";

static char notes_and_table[sizeof notes + 6144];

static struct vb_usage usage = {
    .cmd = "trace",
    .synopsis = "[--db FILE | -o FILE [-f]] [--name LABEL] [--metrics LIST] [--trace api,gpu]\n"
                "[--profile-from-start off | --capture-range nvtx:NAME] [--range NAME]...\n"
                "[--kernel GLOB]... [--print-gpu-trace]\n"
                "[--print-api-trace] [--print-summary] [--csv] [--log-file FILE] [-q]\n"
                "[--] COMMAND [ARGS...]",
    .about =
        "Runs COMMAND, an unmodified CUDA program (a binary, 'python3 t38.py', a script), with\n"
        "varbench's CUDA injection: each of its processes that uses CUDA is traced through CUPTI\n"
        "(kernels, copies, memsets, NVTX ranges, CUDA runtime and driver API calls) and stored as\n"
        "one case of a run of kind 'trace' in the database, next to the suite's runs, with what\n"
        "tracing cost it. nvprof's command line works: the table after the options maps each of\n"
        "nvprof's flags to varbench's.\n",
    .notes = notes_and_table,
    .codes = codes,
    .min_args = 1,
    .max_args = -1,
    .expects = "a COMMAND to trace (varbench trace [options] -- COMMAND [ARGS...])",
    .stop_at_arg = 1,
};

static const char *const kinds[] = {"api,gpu", "gpu,api", "api", "gpu", NULL};
static const char *const on_off[] = {"on", "off", NULL};

/* resolve_metrics checks --metrics and writes the resolved names, which travel to the
 * injection library in the environment. 0 or an exit code. */
static int resolve_metrics(struct vb_trace_opts *o)
{
    struct vb_metric_set set;
    struct vb_err err;
    size_t used = 0;
    int i;
    if (vb_metric_set_parse(o->metrics, &set, &err))
        return vb_opt_error(&usage, "--metrics: %s%s%s", err.msg, err.hint[0] ? "\nhint: " : "",
                            err.hint);
    for (i = 0; i < set.n; i++)
        used += (size_t)snprintf(o->metric_names + used, sizeof o->metric_names - used, "%s%s",
                                 i ? "," : "", set.names[i]);
    return 0;
}

static int option_range(void *ctx, const char *arg, struct vb_err *err)
{
    struct vb_trace_opts *o = ctx;
    if (o->pick.automatic == 2) o->pick.automatic = 0; /* the first --range replaces the default */
    return vb_trace_pick_add(&o->pick, 0, arg, err);
}

static int option_kernel(void *ctx, const char *arg, struct vb_err *err)
{
    return vb_trace_pick_add(&((struct vb_trace_opts *)ctx)->pick, 1, arg, err);
}

/* check refuses what the option table cannot: 0 or an exit code */
static int check(struct vb_trace_opts *o, int db_given, int from_start, const char *range)
{
    struct vb_err err;
    if (db_given && o->out)
        return vb_opt_error(&usage, "-o and --db both name the database: give one");
    if (o->force && !o->out) return vb_opt_error(&usage, "-f replaces the file of -o: give -o");
    if (o->db && !strcmp(o->db, ":memory:"))
        return vb_opt_error(&usage,
                            "--db '%s': the traced processes write to the database, so it "
                            "must be a file",
                            o->db);
    if (o->name && strchr(o->name, '/'))
        return vb_opt_error(&usage, "bad --name '%s': a non-empty name without '/'", o->name);
    if (o->name && strlen(o->name) >= 96)
        return vb_opt_error(&usage, "--name '%s' is too long (95 at most)", o->name);
    if (from_start == 1 && range)
        return vb_opt_error(&usage, "--profile-from-start off and --capture-range both say when "
                                    "to capture: give one");
    if (from_start == 1) o->capture.kind = VB_CAPTURE_PROFILER_API;
    if (range && vb_capture_parse(range, &o->capture, &err))
        return vb_opt_error(&usage, "--capture-range: %s\nhint: %s", err.msg, err.hint);
    if (o->pick.automatic == 2) { /* no --range: the default, with the capture range's */
        o->pick.automatic = 1;
        if (o->capture.kind == VB_CAPTURE_NVTX &&
            vb_trace_pick_add(&o->pick, 0, o->capture.nvtx, &err))
            return vb_opt_error(&usage, "--capture-range: %s", err.msg);
    }
    if (o->metrics) return resolve_metrics(o);
    return 0;
}

int vb_trace_parse(int argc, char **argv, struct vb_trace_opts *o)
{
    int n, rc, kind = 0, from_start = -1;
    const char *range = NULL, *db = NULL;
    char table[6144];
    struct vb_opt opts[24 + VB_NVPROF_ROWS] = {
        VB_OPT_DB(&db, "database (default " VB_DEFAULT_DB "; created if missing)"),
        VB_OPT_STR('o', "export-profile", "FILE", &o->out,
                   "store into FILE, a new varbench database (nvprof's -o; %p: varbench's\n"
                   "pid, %q{ENV}: ENV's value, %h: host); refused if FILE exists, but with -f"),
        VB_OPT_FLAG('f', "force-overwrite", &o->force, "with -o: replace FILE if it exists"),
        VB_OPT_STR(0, "name", "LABEL", &o->name,
                   "the name of the program's cases (default: the script or program run,\n"
                   "e.g. t38.py for 'python3 t38.py')"),
        VB_OPT_STR('m', "metrics", "LIST", &o->metrics,
                   "hardware counters of the traced kernels by kernel replay (nvprof names\n"
                   "such as gst_efficiency, Nsight Compute names, 'default', 'all'; see\n"
                   "'varbench list --metrics'); kernels then carry no timestamps, and their\n"
                   "code's hashes, for compare to name the kernels that changed"),
        VB_OPT_CHOICE(0, "trace", "api,gpu", &kind, kinds,
                      "what CUPTI records: api (CUDA API calls), gpu (kernels, copies,\n"
                      "memsets), or both (the default)"),
        VB_OPT_FLAG(0, "all-api-calls", &o->all_apis,
                    "record every API call; by default only the calls that do work or order\n"
                    "it (launches, copies, memsets, syncs, allocations, streams, events,\n"
                    "graphs, modules): PyTorch asks cudaGetDevice and the like thousands of\n"
                    "times a step, each ~0.4 us traced against ~20 ns untraced"),
        VB_OPT_CHOICE(0, "profile-from-start", "on|off", &from_start, on_off,
                      "off: store only what runs between cudaProfilerStart and\n"
                      "cudaProfilerStop (or cuProfilerStart/Stop)"),
        VB_OPT_STR(0, "capture-range", "RANGE", &range,
                   "nvtx:NAME: store only what runs inside the NVTX ranges called NAME\n"
                   "(nsys -c nvtx -p NAME); cudaProfilerApi: as --profile-from-start off"),
        VB_OPT_CALL(0, "range", "NAME", o, option_range,
                    "each instance of the NVTX range NAME is a sample of the case\n"
                    "PROGRAM range=NAME; repeatable; auto (the default), none"),
        VB_OPT_CALL(0, "kernel", "GLOB", o, option_kernel,
                    "each launch of the kernels GLOB matches (demangled name) is a sample of\n"
                    "the case PROGRAM kernel=NAME; repeatable"),
        VB_OPT_FLAG(0, "print-gpu-trace", &o->gpu_trace,
                    "at the end, one line per kernel, copy and memset (nvprof's columns:\n"
                    "grid, block, registers, shared memory, size, throughput, memory kinds,\n"
                    "device, context, stream)"),
        VB_OPT_FLAG(0, "print-api-trace", &o->api_trace, "at the end, one line per API call"),
        VB_OPT_FLAG('s', "print-summary", &o->summary,
                    "the summary (the default; with the trace flags: as well)"),
        VB_OPT_FLAG(0, "csv", &o->csv, "print the tables as CSV (nvprof --csv)"),
        VB_OPT_STR(0, "log-file", "FILE", &o->log_file,
                   "print into FILE instead of stderr (%p: the program's pid, %q{ENV}: ENV's\n"
                   "value, %h: host, %%: %)"),
        VB_OPT_FLAG('q', "quiet", &o->quiet,
                    "no summary at the end, only the line that says where the run is"),
    };
    size_t fixed = 0;
    memset(o, 0, sizeof *o);
    o->pick.automatic = 2; /* untouched: check() makes it the default */
    while (opts[fixed].type != VB_OPT_T_END)
        fixed++;
    fixed += vb_nvprof_rows(opts + fixed, VB_NVPROF_ROWS);
    opts[fixed] = (struct vb_opt)VB_OPT_END();
    snprintf(notes_and_table, sizeof notes_and_table, "%s\n%s", notes,
             vb_nvprof_table(table, sizeof table));
    if ((rc = vb_opt_parse(&usage, opts, argc, argv, &n))) return rc;
    o->kinds = kind <= 1 ? "api,gpu" : kinds[kind];
    o->db = db ? db : o->out ? NULL : VB_DEFAULT_DB;
    if ((rc = check(o, db != NULL, from_start, range))) return rc;
    o->cmd = argv + 1;
    o->ncmd = n;
    return 0;
}
