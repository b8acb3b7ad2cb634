/*
 * varbench: the program's main, over the command table (commands.c, perf/git style). main() is
 * the only place that sets up
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

/* find_cmd: the index of the command called name, or VB_NCOMMANDS */
static size_t find_cmd(const char *name)
{
    size_t i;
    for (i = 0; i < VB_NCOMMANDS && strcmp(name, vb_commands[i].name); i++) {
    }
    return i;
}

/* not_a_command says so, with the nearest commands (git's "did you mean"); returns 2 */
static int not_a_command(const char *name)
{
    const char *names[VB_NCOMMANDS + 1];
    char hint[256];
    size_t i;
    for (i = 0; i < VB_NCOMMANDS; i++)
        names[i] = vb_commands[i].name;
    names[VB_NCOMMANDS] = "help";
    fprintf(stderr, "varbench: '%s' is not a varbench command (see 'varbench --help')\n", name);
    if (!strcmp(name, "version") || !strcmp(name, "-V") || !strcmp(name, "-v"))
        fprintf(stderr, "hint: 'varbench --version' prints the version\n");
    else if (*vb_suggest(name, names, VB_NCOMMANDS + 1, hint, sizeof hint))
        fprintf(stderr, "hint: %s\n", hint);
    return vb_code_exit(VB_E_USAGE);
}

static void usage(FILE *out)
{
    size_t i;
    fprintf(out,
            "usage: varbench <command> [options]   (varbench help <command> for more;\n"
            "       varbench --version)\n\n"
            "varbench %s: CUDA variant benchmarks and profiles in one SQLite file.\n\n"
            "commands:\n",
            VB_VERSION);
    for (i = 0; i < VB_NCOMMANDS; i++)
        fprintf(out, "  %-10s %s\n", vb_commands[i].name, vb_commands[i].help);
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
        if ((i = find_cmd(argv[2])) == VB_NCOMMANDS) return not_a_command(argv[2]);
        return vb_commands[i].fn(2, args);
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
    if ((i = find_cmd(argv[1])) == VB_NCOMMANDS) return not_a_command(argv[1]);
    line = vb_command_line_join(argc, argv);
    vb_command_line = line ? line : argv[0];
    rc = vb_commands[i].fn(argc - 1, argv + 1);
    free(line);
    return rc;
}
