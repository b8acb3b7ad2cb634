/*
 * runs: `varbench runs`, the database's runs one a line, newest first, like `git log
 * --oneline`: id, short uuid, kind, status, start, GPU, git commit and the tally of its cases.
 * The newest is by the store's one rule (start time, then id), the rule every command's
 * default run follows; the run export, compare and report take by default is starred. Reads
 * only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "escape.h"
#include "opt.h"
#include "store.h"

static const int codes[] = {0, 2, 3, 6, -1};
static const struct vb_usage usage = {
    .cmd = "runs",
    .synopsis = "[--db FILE] [-n N]",
    .about = "Lists the runs of the database, newest first (by start time, then id: the rule by\n"
             "which every command picks its default run): id, short uuid, kind (suite: 'varbench\n"
             "run'; trace: 'varbench trace'), status ('running' for a run still being written, or\n"
             "whose writer died), start (UTC), first GPU, how often its NVML energy counter and\n"
             "power reading update (ms, measured at the run's start), git commit, and its\n"
             "cases: ok, wrong results, wrong on purpose, failed, skipped. '*' marks the run "
             "export, compare and\n"
             "report take when no run is named. Needs no GPU.\n",
    .codes = codes,
};

int vb_cmd_runs(int argc, char **argv)
{
    const char *db = VB_DEFAULT_DB;
    struct vb_run_list_row *rows = NULL;
    struct vb_store *s;
    struct vb_err err;
    int64_t latest = -1;
    int n, i, rc, limit = 0;
    const struct vb_opt opts[] = {
        VB_OPT_DB(&db, "database (default " VB_DEFAULT_DB ")"),
        VB_OPT_INT('n', NULL, "N", &limit, 1, 1e9, "the newest N runs only"), VB_OPT_END()};
    if ((rc = vb_opt_parse(&usage, opts, argc, argv, &n))) return rc == 1 ? 0 : rc;
    vb_err_clear(&err);
    if (vb_store_open_ro(db, &s, &err)) return vb_report_error("runs", &err);
    if (vb_store_run_list(s, &rows, &n, &err)) {
        vb_store_close(s);
        return vb_report_error("runs", &err);
    }
    if (n && vb_store_latest_run(s, &latest, &err)) latest = -1; /* none complete: no star */
    printf("%6s  %-8s  %-5s  %-11s  %-19s  %-24s  %-11s  %-10s  %5s %5s %5s %5s %5s %5s\n", "run",
           "uuid", "kind", "status", "start (UTC)", "GPU", "NVML E/P ms", "commit", "cases", "ok",
           "wrong", "purp.", "fail", "skip");
    for (i = 0; i < n && (!limit || i < limit); i++) {
        const struct vb_run_list_row *r = &rows[i];
        char start[20], uuid[40], kind[24], status[24], gpu[100], commit[44], nvml[32] = "-";
        snprintf(start, sizeof start, "%.10s %.8s", r->start_utc,
                 strlen(r->start_utc) > 11 ? r->start_utc + 11 : "");
        if (r->energy_period_ms > 0) /* the energy counter's and the power reading's periods */
            snprintf(nvml, sizeof nvml, r->power_period_ms > 0 ? "%.0f/%.0f" : "%.0f/?",
                     r->energy_period_ms, r->power_period_ms);
        printf(
            "%5lld%c  %-8.8s  %-5s  %-11s  %-19s  %-24.24s  %-11s  %-10.10s  %5d %5d %5d %5d %5d "
            "%5d\n",
            /* stored text shown as text: a merged file's control bytes never reach the terminal */
            (long long)r->id, r->id == latest ? '*' : ' ', vb_term_str(r->uuid, uuid, sizeof uuid),
            vb_term_str(r->kind, kind, sizeof kind), vb_term_str(r->status, status, sizeof status),
            start, r->gpu[0] ? vb_term_str(r->gpu, gpu, sizeof gpu) : "-", nvml,
            r->git_commit[0] ? vb_term_str(r->git_commit, commit, sizeof commit) : "-", r->cases,
            r->ok, r->wrong, r->on_purpose, r->failed, r->skipped);
    }
    if (!n) printf("(no runs in %s)\n", db);
    vb_store_run_list_free(rows);
    vb_store_close(s);
    return 0;
}
