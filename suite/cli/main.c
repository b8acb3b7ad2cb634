/*
 * varbench: the command table (perf/git style). main() is the only place that sets up
 * process-wide state (NVTX injection before any NVTX call), prints errors and picks the
 * exit code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "err.h"
#include "nvtx.h"
#include "opt.h"
#include "registry.h"
#include "suggest.h"

struct cmd {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
};

static const struct cmd cmds[] = {
    {"list", vb_cmd_list, "list the variant catalog, its axes and seeds"},
    {"run", vb_cmd_run, "run variants under CUPTI, verify them, store everything in SQLite"},
    {"compare", vb_cmd_compare, "regression verdicts between two runs (or two GPU models)"},
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

#define NCMDS (sizeof cmds / sizeof cmds[0])

/* find_cmd: the index of the command called name, or NCMDS */
static size_t find_cmd(const char *name)
{
    size_t i;
    for (i = 0; i < NCMDS && strcmp(name, cmds[i].name); i++) {
    }
    return i;
}

/* not_a_command says so, with the nearest commands (git's "did you mean"); returns 2 */
static int not_a_command(const char *name)
{
    const char *names[NCMDS + 1];
    char hint[256];
    size_t i;
    for (i = 0; i < NCMDS; i++)
        names[i] = cmds[i].name;
    names[NCMDS] = "help";
    fprintf(stderr, "varbench: '%s' is not a varbench command (see 'varbench --help')\n", name);
    if (*vb_suggest(name, names, NCMDS + 1, hint, sizeof hint)) fprintf(stderr, "hint: %s\n", hint);
    return vb_code_exit(VB_E_USAGE);
}

static void usage(FILE *out)
{
    size_t i;
    fprintf(out,
            "usage: varbench <command> [options]   (varbench help <command> for more)\n\n"
            "varbench %s: CUDA variant benchmarks and profiles in one SQLite file.\n\n"
            "commands:\n",
            VB_VERSION);
    for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        fprintf(out, "  %-10s %s\n", cmds[i].name, cmds[i].help);
    fprintf(out,
            "\nexit codes, one table for every command (each command's --help lists those it can\n"
            "return; trace, once its COMMAND has started, exits with COMMAND's own status):\n");
    vb_opt_print_codes(NULL, out);
}

int main(int argc, char **argv)
{
    char *line;
    size_t i;
    int rc;
    vb_families = vb_catalog;
    vb_nvtx_setup();
    if (argc < 2) {
        usage(stderr);
        return vb_code_exit(VB_E_USAGE);
    }
    if (!strcmp(argv[1], "help") && argc == 3) { /* git's 'help CMD': that command's --help */
        static char help[] = "--help";
        char *args[] = {argv[2], help, NULL};
        if ((i = find_cmd(argv[2])) == NCMDS) return not_a_command(argv[2]);
        return cmds[i].fn(2, args);
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        if (argc > 2) {
            fprintf(stderr, "varbench help: expected one command, or none\n"
                            "(see 'varbench --help')\n");
            return vb_code_exit(VB_E_USAGE);
        }
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("varbench %s (%s)\n", VB_VERSION, vb_git_commit);
        return 0;
    }
    if ((i = find_cmd(argv[1])) == NCMDS) return not_a_command(argv[1]);
    line = vb_command_line_join(argc, argv);
    vb_command_line = line ? line : argv[0];
    rc = cmds[i].fn(argc - 1, argv + 1);
    free(line);
    return rc;
}
