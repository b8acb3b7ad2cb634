/* merge: `varbench merge OUT.db IN.db...`: runs from several machines in one file. A run is
 * identified by its uuid, so merging the same file twice adds nothing, and nothing of a run
 * (environment, ceilings, cases, samples, records) is left behind. Inputs are only read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "opt.h"
#include "store.h"

static const int codes[] = {0, 2, 3, 6, -1};
static const struct vb_usage usage = {
    .cmd = "merge",
    .synopsis = "OUT.db IN.db...",
    .about =
        "Copies every run of each IN.db that OUT.db lacks (runs are matched by their uuid) into\n"
        "OUT.db, created if missing; each input in one transaction. The inputs are opened "
        "read-only.\n"
        "A run OUT.db holds a partial copy of (merged while it was still being written: 'running'\n"
        "here and finished in IN.db, or with fewer cases) is replaced by the input's copy. Runs "
        "of\n"
        "OUT.db that are not complete are named at the end. OUT.db may not be one of the inputs.\n"
        "An input that cannot be read (exit 3) is skipped whole; the others are merged.\n",
    .codes = codes,
    .min_args = 2,
    .max_args = -1,
    .expects = "OUT.db and at least one IN.db",
};

/* same_file: do paths a and b name one file (the same path, or the same inode)? */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!strcmp(a, b)) return 1;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* incomplete names the runs of the merged file that are not complete (a merge never makes
 * them look complete; merging a later, complete copy replaces them). */
static void incomplete(struct vb_store *out, const char *name)
{
    struct vb_run_row *runs;
    struct vb_err err;
    int n, i;
    if (vb_store_runs(out, &runs, &n, &err)) return;
    for (i = 0; i < n; i++)
        if (strcmp(runs[i].status, "complete"))
            printf("%s: run %lld (%.8s) is '%s': incomplete\n", name, (long long)runs[i].id,
                   runs[i].uuid, runs[i].status);
    free(runs);
}

int vb_cmd_merge(int argc, char **argv)
{
    struct vb_store *out;
    struct vb_err err;
    static const struct vb_opt opts[] = {VB_OPT_END()};
    int i, added, code = 0, rc;
    if ((rc = vb_opt_parse(&usage, opts, argc, argv, &argc))) return rc == 1 ? 0 : rc;
    argc++; /* argv[1..argc-1]: OUT.db IN.db... */
    for (i = 2; i < argc; i++)
        if (same_file(argv[1], argv[i])) {
            fprintf(stderr,
                    "varbench merge: the output '%s' is also the input '%s'\n"
                    "hint: merge into a new file: varbench merge NEW.db %s ...\n",
                    argv[1], argv[i], argv[i]);
            return vb_code_exit(VB_E_USAGE);
        }
    if (vb_store_open(argv[1], &out, &err)) return vb_report_error("merge", &err);
    for (i = 2; i < argc; i++) {
        int replaced;
        if (vb_store_merge(out, argv[i], &added, &replaced, &err)) {
            code = vb_report_error("merge", &err);
            continue;
        }
        printf("%s: %d run%s added to %s", argv[i], added, added == 1 ? "" : "s", argv[1]);
        if (replaced)
            printf(", %d partial run%s replaced by a more complete copy", replaced,
                   replaced == 1 ? "" : "s");
        printf("\n");
    }
    incomplete(out, argv[1]);
    vb_store_close(out);
    return code;
}
