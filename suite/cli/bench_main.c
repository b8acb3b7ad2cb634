/*
 * bench_main: a benchmark executable's main (varbench.h's vb_main): `list` and `run` over the
 * program's own families, with varbench run's options and database. The readers (compare,
 * report, history, export, ...) stay varbench's: they read the file this program writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "err.h"
#include "nvtx.h"
#include "opt.h"
#include "registry.h"

static void usage(FILE *out, const char *prog)
{
    int i;
    fprintf(out,
            "usage: %s <list|run> [options]   (%s run --help for run's options)\n\n"
            "A varbench benchmark program (varbench %s): its families measured under CUPTI,\n"
            "verified and stored in the same SQLite file as 'varbench run' (--db, default\n"
            "varbench.db); read it with varbench compare, history, report, export.\n\n"
            "  list   its families, problems, axes and variants\n"
            "  run    run them (varbench run's options: --filter, --axis, --db, --device, ...)\n\n"
            "families:",
            prog, prog, VB_VERSION);
    for (i = 0; vb_families[i]; i++)
        fprintf(out, " %s", vb_families[i]->name);
    fprintf(out, "\n\nexit codes:\n");
    vb_opt_print_codes(NULL, out);
}

int vb_main(int argc, char **argv, const struct vb_family *const *families)
{
    const char *prog = argc > 0 && argv[0] ? strrchr(argv[0], '/') : NULL;
    struct vb_err err;
    char *line;
    int i, rc;
    prog = prog ? prog + 1 : argc > 0 && argv[0] ? argv[0] : "benchmark";
    vb_nvtx_setup(); /* before any NVTX call: NVTX reaches CUPTI only so */
    vb_err_clear(&err);
    if (vb_registry_check(families, 0, &err)) {
        fprintf(stderr, "%s: the benchmark is declared wrong: %s\n", prog, err.msg);
        fprintf(stderr, "hint: fix the declaration named above (varbench.h says what each "
                        "field needs)\n");
        return vb_code_exit(VB_E_USAGE);
    }
    vb_families = families;
    vb_program = prog;
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
        !strcmp(argv[1], "help")) {
        usage(argc < 2 ? stderr : stdout, prog);
        return argc < 2 ? vb_code_exit(VB_E_USAGE) : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("%s: varbench %s (%s)\n", prog, VB_VERSION, vb_git_commit);
        return 0;
    }
    if (strcmp(argv[1], "list") && strcmp(argv[1], "run")) {
        for (i = 0; i < VB_NCOMMANDS && strcmp(vb_commands[i].name, argv[1]); i++) {
        }
        if (i < VB_NCOMMANDS) /* one of varbench's other commands: they read the database */
            fprintf(stderr,
                    "%s: '%s' is varbench's: run 'varbench %s --db FILE' on the database this "
                    "program wrote\n",
                    prog, argv[1], argv[1]);
        else
            fprintf(stderr, "%s: '%s' is not a command (list, run; see '%s --help')\n", prog,
                    argv[1], prog);
        return vb_code_exit(VB_E_USAGE);
    }
    line = vb_command_line_join(argc, argv);
    vb_command_line = line ? line : argv[0];
    rc =
        !strcmp(argv[1], "list") ? vb_cmd_list(argc - 1, argv + 1) : vb_cmd_run(argc - 1, argv + 1);
    free(line);
    return rc;
}
