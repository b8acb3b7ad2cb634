/* commands: varbench's command table (see cmd.h), apart from main.c so that a benchmark
 * program's main (bench_main.c) knows which commands it leaves to varbench. */
#include "cmd.h"

const struct vb_command vb_commands[] = {
    {"list", vb_cmd_list, "list the variant catalog, its axes and seeds"},
    {"run", vb_cmd_run, "run variants under CUPTI, verify them, store everything in SQLite"},
    {"compare", vb_cmd_compare, "regression verdicts between two runs (or two GPU models)"},
    {"ab", vb_cmd_ab, "two builds paired on one GPU, case by case in rounds: the verdict"},
    {"bisect", vb_cmd_bisect, "the first slower commit of a git range, varbench ab the oracle"},
    {"diagnose", vb_cmd_diagnose, "boards of a fleet outside a baseline's board-to-board spread"},
    {"history", vb_cmd_history, "each case's medians across runs, with their change points (PELT)"},
    {"runs", vb_cmd_runs, "the runs of a database, newest first (git log --oneline style)"},
    {"merge", vb_cmd_merge, "copy the runs of several databases into one"},
    {"migrate", vb_cmd_migrate,
     "rewrite a database of an older schema in this one (FILE.bak kept)"},
    {"export", vb_cmd_export, "a run as CSV, Google Benchmark JSON or a Perfetto trace"},
    {"report", vb_cmd_report, "gnuplot plots, index.html and report.md from a database"},
    {"trace", vb_cmd_trace, "profile an unmodified CUDA program (nvprof style) into the database"},
    {"summary", vb_cmd_summary, "nvprof's GPU activities and API calls tables for a run"},
    {"fleet", vb_cmd_fleet, "the suite on every node of a Slurm cluster, merged and reported"},
};

_Static_assert(sizeof vb_commands / sizeof vb_commands[0] == VB_NCOMMANDS,
               "VB_NCOMMANDS counts the table");
