/* merge: `varbench merge OUT.db IN.db...`: runs from several machines in one file. A run is
 * identified by its uuid, so merging the same file twice adds nothing, and nothing of a run
 * (environment, ceilings, cases, samples, records) is left behind. Inputs are only read. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "store.h"

static const char usage[] =
    "usage: varbench merge OUT.db IN.db...\n"
    "\n"
    "Copies every run of each IN.db that OUT.db lacks (runs are matched by their uuid) into\n"
    "OUT.db, created if missing; each input in one transaction. The inputs are opened read-only.\n"
    "\n"
    "exit codes: 0 merged, 2 usage error, 3 database error (OUT.db or an input unreadable,\n"
    "corrupt, not a varbench database; nothing of that input is merged)\n";

int vb_cmd_merge(int argc, char **argv)
{
    struct vb_store *out;
    struct vb_err err;
    int i, added, code = 0;
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        fputs(usage, stdout);
        return 0;
    }
    for (i = 1; i < argc; i++)
        if (argv[i][0] == '-') {
            fprintf(stderr, "varbench merge: unknown option '%s'\n%s", argv[i], usage);
            return 2;
        }
    if (argc < 3) {
        fprintf(stderr, "varbench merge: expected OUT.db and at least one IN.db\n%s", usage);
        return 2;
    }
    if (vb_store_open(argv[1], &out, &err)) return vb_report_error("merge", &err);
    for (i = 2; i < argc; i++) {
        if (vb_store_merge(out, argv[i], &added, &err)) {
            code = vb_report_error("merge", &err);
            continue;
        }
        printf("%s: %d run%s added to %s\n", argv[i], added, added == 1 ? "" : "s", argv[1]);
    }
    vb_store_close(out);
    return code;
}
