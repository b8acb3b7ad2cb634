/*
 * migrate: `varbench migrate FILE...`, databases of older schemas rewritten on disk in this
 * varbench's (store_migrate.c). Needed by nobody who only reads: every command reads any schema
 * this project wrote, through a copy migrated in memory, and never writes the file.
 */
#include <stdio.h>

#include "cmd.h"
#include "opt.h"
#include "store.h"

static const int codes[] = {0, 2, 3, 6, -1};
static const struct vb_usage usage = {
    .cmd = "migrate",
    .synopsis = "[--force] FILE...",
    .about =
        "Rewrites each FILE, a varbench database of an older schema, in this varbench's: its\n"
        "runs as every command reads them, written to FILE.migrating.PID.RANDOM, checked\n"
        "(quick_check), synced, and renamed over FILE in one step; the old file is kept as\n"
        "FILE.bak. One migration of a file at a time: a second one, or a run started meanwhile,\n"
        "is refused naming the migrating pid (exit 3). A file in WAL mode is folded into\n"
        "one file first. Adds no run and changes nothing a command shows. A file already of this\n"
        "schema is left untouched. Not needed to read old files: every command reads them as\n"
        "they are, without writing them.\n"
        "Refused, with FILE unchanged: a file another process has open, one with a run still\n"
        "'running' (without --force), an existing FILE.bak, a file that is not a varbench\n"
        "database, or one of a newer schema (exit 3; 2 for the first three's usage refusals).\n",
    .codes = codes,
    .min_args = 1,
    .max_args = -1,
    .expects = "at least one FILE",
};

int vb_cmd_migrate(int argc, char **argv)
{
    struct vb_migrate_result res;
    struct vb_err err;
    int force = 0, i, rc, code = 0;
    const struct vb_opt opts[] = {
        VB_OPT_FLAG(0, "force", &force,
                    "migrate a file with runs still 'running' (killed ones: no process may be\n"
                    "writing to it)"),
        VB_OPT_END()};
    if ((rc = vb_opt_parse(&usage, opts, argc, argv, &argc))) return rc == 1 ? 0 : rc;
    argc++; /* argv[1..argc-1]: the files */
    for (i = 1; i < argc; i++) {
        vb_err_clear(&err);
        if (vb_store_migrate(argv[i], force, &res, &err)) {
            code = vb_report_error("migrate", &err);
            continue;
        }
        if (!res.written)
            printf("%s: schema %d already: nothing to do\n", argv[i], res.from);
        else
            printf("%s: migrated from schema %d to %d; the old file is %s\n", argv[i], res.from,
                   res.to, res.bak);
    }
    return code;
}
