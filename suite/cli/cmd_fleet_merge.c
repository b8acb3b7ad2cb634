/*
 * fleet merge: `varbench fleet merge DIR`, the fleet's merge job (submitted after the array
 * with afterany, so it runs however the tasks ended; by hand too, any number of times). Every
 * task database in DIR/runs goes into DIR/fleet.db (vb_store_merge: a run copied while
 * 'running' stays 'running', and a later, complete copy replaces it), then the report into
 * DIR/report/ with a Fleet section, the tasks' table into DIR/report/fleet.txt and the
 * comparison across devices into DIR/report/across-devices.txt.
 *
 * The tasks' table reaches the report through vb_report_opts, not through fleet.db: it is the
 * fleet's state (DIR/fleet.conf and Slurm's accounting), not a run's. A task that never started
 * has no run to hang it on, and its Slurm state can change after a merge; a table of it in the
 * database would need a schema migration for rows merge must never copy, and would keep a
 * state that Slurm has since revised. So `fleet merge` builds the table (fleet_tasks.c) each
 * time and hands it to the report it writes; `varbench report` on fleet.db alone shows the
 * runs, and `fleet status DIR` the tasks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "fleet_conf.h"
#include "fleet_tasks.h"
#include "opt.h"
#include "proc.h"
#include "report.h"
#include "store.h"

static const int codes[] = {0, 1, 2, 3, 6, -1};
static const struct vb_usage usage = {
    .cmd = "fleet merge",
    .synopsis = "DIR",
    .about =
        "Merges the database of every task of the fleet in DIR into DIR/fleet.db (runs still\n"
        "'running' stay so: never complete), writes the report into DIR/report/ (its Fleet\n"
        "section names each task missing or failed), the tasks' table into\n"
        "DIR/report/fleet.txt and 'varbench compare --across-devices' of each complete run\n"
        "against the first into DIR/report/across-devices.txt. The merge job runs it once the\n"
        "array has ended; run again, it adds what the tasks have written since.\n",
    .notes = "Exit 0: every task complete and merged; 1: a task running, missing or failed (the\n"
             "others merged); 2: DIR holds no fleet; 3: a task's database unreadable (the others\n"
             "merged) or fleet.db unwritable; 6: Slurm's CLIs missing, or the report failing.\n",
    .codes = codes,
    .min_args = 1,
    .max_args = 1,
    .expects = "DIR",
};

/* merge_tasks merges each task's database into out; returns the worst exit code (0 or 3). */
static int merge_tasks(struct vb_store *out, const struct vb_fleet_task *t, int n)
{
    struct vb_err err;
    int i, added, replaced, code = 0;
    for (i = 0; i < n; i++) {
        if (!t[i].db[0]) continue;
        if (vb_store_merge(out, t[i].path, &added, &replaced, &err)) {
            vb_err_context(&err, "task %d", t[i].index);
            code = vb_report_error("fleet merge", &err);
            continue;
        }
        printf("task %d: %s: %d run%s added, %d replaced by a more complete copy (run %s)\n",
               t[i].index, t[i].db, added, added == 1 ? "" : "s", replaced,
               t[i].run[0] ? t[i].run : "-");
    }
    return code;
}

/* across writes the comparison of each complete run of fleet.db against the first complete
 * one (varbench compare --across-devices, this binary) into path; a compare that finds
 * nothing to compare (one GPU model, no GPU) is said, never a failure. 0 or -1 with err. */
static int across(const char *db, const struct vb_run_row *runs, int n, const char *path,
                  struct vb_err *err)
{
    char exe[4200], rb[32], rc[32], part[4300];
    char *argv[] = {exe,          "compare", "--across-devices", "--base-run", rb,
                    "--cand-run", rc,        (char *)db,         (char *)db,   NULL};
    FILE *f = fopen(path, "w");
    int i, base = -1, ncmp = 0;
    if (!f) return vb_err_set(err, VB_E_SYS, "cannot write '%s': %s", path, strerror(errno));
    if (!realpath("/proc/self/exe", exe)) snprintf(exe, sizeof exe, "varbench");
    for (i = 0; i < n; i++)
        if (!strcmp(runs[i].status, "complete") && !strcmp(runs[i].kind, "suite")) {
            if (base < 0) {
                base = i;
                fprintf(f,
                        "varbench fleet: each complete run of fleet.db against run %lld (host "
                        "%s, GPU %s) with 'varbench compare --across-devices'\n",
                        (long long)runs[i].id, runs[i].host, runs[i].gpu[0] ? runs[i].gpu : "none");
                continue;
            }
            ncmp++;
        }
    if (ncmp == 0) {
        fprintf(f, "varbench fleet: fewer than two complete runs in fleet.db: nothing to "
                   "compare across devices\n");
        return fclose(f) ? vb_err_set(err, VB_E_SYS, "cannot write '%s'", path) : 0;
    }
    snprintf(rb, sizeof rb, "%lld", (long long)runs[base].id);
    for (i = base + 1; i < n; i++) {
        struct vb_proc p;
        if (strcmp(runs[i].status, "complete") || strcmp(runs[i].kind, "suite")) continue;
        snprintf(rc, sizeof rc, "%lld", (long long)runs[i].id);
        snprintf(part, sizeof part, "%s.part", path);
        if (vb_proc_run(argv, NULL, part, 600, &p, err)) {
            fclose(f);
            return -1;
        }
        fprintf(f, "\n== run %s (host %s, GPU %s) against run %s: exit %d%s\n", rc, runs[i].host,
                runs[i].gpu[0] ? runs[i].gpu : "none", rb, p.status,
                p.status == 7 ? " (nothing compared: no GPU case in common)" : "");
        {
            FILE *in = fopen(part, "r");
            char buf[4096];
            size_t k;
            while (in && (k = fread(buf, 1, sizeof buf, in)) > 0)
                fwrite(buf, 1, k, f);
            if (in) fclose(in);
        }
        if (p.errtail[0]) fprintf(f, "%s", p.errtail);
        remove(part);
    }
    return fclose(f) ? vb_err_set(err, VB_E_SYS, "cannot write '%s'", path) : 0;
}

/* report writes report/ (in DIR): the pages with the Fleet section, fleet.txt, across-devices.txt.
 * The runs shown are all of fleet.db's (up to the report's limit; past it, its own choice). */
static int report(struct vb_store *s, const struct vb_fleet_task *t, int n, struct vb_err *err)
{
    struct vb_report_opts o = {NULL, 0, NULL, "gnuplot", 0, stdout, t, n};
    struct vb_run_row *runs = NULL;
    int64_t ids[16];
    const char *out = "report", *db = "fleet.db"; /* in DIR */
    char path[64];
    const char *gp = getenv("VARBENCH_GNUPLOT");
    FILE *f;
    int nruns, i, nplots, rc;
    if (mkdir(out, 0755) && errno != EEXIST)
        return vb_err_set(err, VB_E_SYS, "cannot create '%s': %s", out, strerror(errno));
    snprintf(path, sizeof path, "%s/fleet.txt", out);
    if (!(f = fopen(path, "w")))
        return vb_err_set(err, VB_E_SYS, "cannot write '%s': %s", path, strerror(errno));
    vb_fleet_tasks_print(f, t, n);
    if (fclose(f)) return vb_err_set(err, VB_E_SYS, "cannot write '%s'", path);
    if (vb_store_runs(s, &runs, &nruns, err)) return -1;
    if (nruns <= (int)(sizeof ids / sizeof ids[0])) {
        for (i = 0; i < nruns; i++)
            ids[i] = runs[i].id;
        o.runs = ids;
        o.nruns = nruns;
    }
    if (gp && *gp) o.gnuplot = gp;
    o.no_plots = !vb_proc_on_path(o.gnuplot);
    if (o.no_plots)
        printf("fleet merge: %s not found on PATH: the report without plots\n", o.gnuplot);
    o.outdir = out;
    rc = vb_report_write(s, &o, &nplots, err);
    if (!rc) printf("report: %s/index.html and %s/report.md, %d plots\n", out, out, nplots);
    snprintf(path, sizeof path, "%s/across-devices.txt", out);
    if (!rc) rc = across(db, runs, nruns, path, err);
    free(runs);
    return rc;
}

int vb_cmd_fleet_merge(int argc, char **argv)
{
    struct vb_fleet_conf c;
    struct vb_fleet_task *t;
    struct vb_store *out;
    struct vb_err err;
    char note[700] = "";
    int n, rc, code, bad;
    const struct vb_opt opts[] = {VB_OPT_END()};
    if ((rc = vb_opt_parse(&usage, opts, argc, argv, &n))) return rc == 1 ? 0 : rc;
    if (vb_fleet_conf_read(argv[1], &c, &err)) return vb_report_error("fleet merge", &err);
    /* in DIR, every path is relative to it: the report's gnuplot scripts then hold no part of
     * DIR, which may have quotes (they cannot) */
    if (chdir(argv[1])) {
        vb_err_set(&err, VB_E_SYS, "cannot enter '%s': %s", argv[1], strerror(errno));
        return vb_report_error("fleet merge", &err);
    }
    printf("fleet merge: in %s\n", argv[1]);
    if (vb_fleet_tasks(".", &c, &t, note, sizeof note, &err))
        return vb_report_error("fleet merge", &err);
    if (note[0]) printf("note: %s\n", note);
    if (vb_store_open("fleet.db", &out, &err)) {
        free(t);
        return vb_report_error("fleet merge", &err);
    }
    code = merge_tasks(out, t, c.tasks);
    if (report(out, t, c.tasks, &err)) code = vb_report_error("fleet merge", &err);
    vb_store_close(out);
    bad = vb_fleet_tasks_print(stdout, t, c.tasks);
    free(t);
    if (code) return code;
    return bad ? vb_code_exit(VB_E_WRONG) : 0;
}
