/*
 * fleet: `varbench fleet submit|status|merge`, the suite over a Slurm cluster. submit writes
 * two sbatch scripts into DIR (fleet_script.c) and submits them: an array job, one task per
 * node running `varbench run --device all` into DIR/runs/<host>-<job>_<task>.db, and a merge
 * job after it (afterany), which runs `varbench fleet merge DIR` (cmd_fleet_merge.c). What was
 * submitted is kept in DIR/fleet.conf (fleet_conf.c); status prints the tasks' table
 * (fleet_tasks.c). Only Slurm's CLIs are called (slurm.c), each without a shell.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "escape.h"
#include "fleet_conf.h"
#include "fleet_script.h"
#include "fleet_tasks.h"
#include "opt.h"
#include "store.h"

static const int submit_codes[] = {0, 2, 3, 6, -1};
static const struct vb_usage submit_usage = {
    .cmd = "fleet submit",
    .synopsis = "[--partition P] [--nodes N] [--gpus-per-node G] [--time T] [--account A] "
                "--dir DIR [--dry-run] [--force] -- [run options]",
    .about =
        "Writes DIR/task.sbatch and DIR/merge.sbatch and submits them with sbatch, from DIR:\n"
        "an array job of N tasks, one per node (--nodes=1 --exclusive: nothing else runs on the\n"
        "node while it measures), each running 'varbench run --device all [run options]' into\n"
        "DIR/runs/<host>-<job>_<task>.db (logs in DIR/logs/<job>_<task>.out); and a merge job\n"
        "with --dependency=afterany on the array, which runs 'varbench fleet merge DIR': every\n"
        "task's database into DIR/fleet.db, the report into DIR/report/ (with the tasks' table\n"
        "and the comparison across devices). What was submitted goes into DIR/fleet.conf.\n"
        "A task's 'varbench run' exiting 0, 1 (a wrong result, stored) or 4 (no GPU: the CPU\n"
        "references stored) ran: Slurm records it COMPLETED.\n",
    .notes = "Exit 2: a bad option, or DIR holds a fleet already (--force submits a new one\n"
             "there, replacing its fleet.db). Exit 6: sbatch missing or refusing the job.\n",
    .codes = submit_codes,
};

static const int status_codes[] = {0, 1, 2, 3, 6, -1};
static const struct vb_usage status_usage = {
    .cmd = "fleet status",
    .synopsis = "DIR",
    .about = "The tasks of the fleet in DIR: per array task its host, Slurm's state (squeue for\n"
             "pending and running tasks, sacct for ended ones), its database, that database's\n"
             "run status and cases done; then each task not complete, named: missing (ended\n"
             "without a database), failed (its run interrupted, failed, or left 'running' by a\n"
             "killed writer) or running (Slurm has not ended it).\n",
    .notes = "Exit 0: every task's run complete; 1: a task running, missing or failed; 2: DIR\n"
             "holds no fleet; 6: Slurm's CLIs missing or failing.\n",
    .codes = status_codes,
    .min_args = 1,
    .max_args = 1,
    .expects = "DIR",
};

/* abs_path writes path as an absolute path (this folder before a relative one) into buf. */
static int abs_path(const char *path, char *buf, size_t n, struct vb_err *err)
{
    char cwd[PATH_MAX];
    if (path[0] == '/') {
        if ((size_t)snprintf(buf, n, "%s", path) >= n) goto long_path;
        return 0;
    }
    if (!getcwd(cwd, sizeof cwd))
        return vb_err_set(err, VB_E_SYS, "cannot read this folder's path: %s", strerror(errno));
    if ((size_t)snprintf(buf, n, "%s/%s", cwd, path) >= n) goto long_path;
    return 0;
long_path:
    return vb_err_set(err, VB_E_USAGE, "the folder '%s' is too long a path", path);
}

/* make_dir creates path and the folders above it that are missing (mkdir -p). */
static int make_dir(const char *path, struct vb_err *err)
{
    char buf[4096];
    size_t k;
    if ((size_t)snprintf(buf, sizeof buf, "%s", path) >= sizeof buf)
        return vb_err_set(err, VB_E_USAGE, "the folder '%s' is too long a path", path);
    for (k = 1; buf[k]; k++) {
        if (buf[k] != '/') continue;
        buf[k] = '\0';
        if (mkdir(buf, 0755) && errno != EEXIST)
            return vb_err_set(err, VB_E_SYS, "cannot create '%s': %s", buf, strerror(errno));
        buf[k] = '/';
    }
    if (mkdir(buf, 0755) && errno != EEXIST)
        return vb_err_set(err, VB_E_SYS, "cannot create '%s': %s", buf, strerror(errno));
    return 0;
}

/* write_script writes one script into DIR/name, executable. */
static int write_script(const char *dir, const char *name, const struct vb_fleet_spec *s,
                        int (*fn)(FILE *, const struct vb_fleet_spec *), struct vb_err *err)
{
    char path[4300];
    FILE *f;
    int bad;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!(f = fopen(path, "w")))
        return vb_err_set(err, VB_E_SYS, "cannot write '%s': %s", path, strerror(errno));
    bad = fn(f, s);
    if (fclose(f) || bad || chmod(path, 0755))
        return vb_err_set(err, VB_E_SYS, "cannot write '%s': %s", path, strerror(errno));
    return 0;
}

/* words joins the run options as shell words into c->run_options. */
static void words(struct vb_fleet_conf *c, char *const *args, int n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int i;
    if (!f) return;
    for (i = 0; i < n; i++) {
        if (i) fputc(' ', f);
        vb_put_sh(f, args[i]);
    }
    if (fclose(f) == 0 && buf) snprintf(c->run_options, sizeof c->run_options, "%s", buf);
    free(buf);
}

/* submit_jobs writes the scripts and the record and submits both jobs; prints their ids. */
static int submit_jobs(const struct vb_fleet_spec *s, int force, struct vb_err *err)
{
    struct vb_fleet_conf c, old;
    char sub[4300], dep[48];
    time_t now = time(NULL);
    if (!vb_fleet_conf_read(s->dir, &old, err) && !force) {
        vb_err_set(err, VB_E_USAGE, "'%s' holds a fleet already (array job %lld)", s->dir,
                   (long long)old.array_job);
        return vb_err_hint(err,
                           "'varbench fleet status %s' shows it; --force submits a new one "
                           "there (its fleet.db is replaced), or pick another --dir",
                           s->dir);
    }
    if (vb_slurm_need("sbatch", err) || make_dir(s->dir, err)) return -1;
    snprintf(sub, sizeof sub, "%s/runs", s->dir);
    if (make_dir(sub, err)) return -1;
    snprintf(sub, sizeof sub, "%s/logs", s->dir);
    if (make_dir(sub, err)) return -1;
    snprintf(sub, sizeof sub, "%s/fleet.db", s->dir);
    if (access(sub, F_OK) == 0 && vb_store_remove(sub, err)) return -1;
    if (write_script(s->dir, "task.sbatch", s, vb_fleet_script_task, err) ||
        write_script(s->dir, "merge.sbatch", s, vb_fleet_script_merge, err))
        return -1;
    memset(&c, 0, sizeof c);
    c.tasks = s->tasks;
    strftime(c.submitted_utc, sizeof c.submitted_utc, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    snprintf(c.varbench, sizeof c.varbench, "%s", s->varbench);
    words(&c, s->run_args, s->nrun);
    if (vb_slurm_submit(s->dir, "task.sbatch", NULL, &c.array_job, err) ||
        vb_fleet_conf_write(s->dir, &c, err))
        return -1;
    printf("fleet: array job %lld submitted: %d task%s, one per node (%s/task.sbatch)\n",
           (long long)c.array_job, c.tasks, c.tasks == 1 ? "" : "s", s->dir);
    snprintf(dep, sizeof dep, "afterany:%lld", (long long)c.array_job);
    if (vb_slurm_submit(s->dir, "merge.sbatch", dep, &c.merge_job, err)) {
        vb_err_context(err, "the array job %lld is submitted, its merge job is not",
                       (long long)c.array_job);
        return vb_err_hint(err,
                           "submit it by hand: cd DIR && sbatch --dependency=%s "
                           "merge.sbatch (or run 'varbench fleet merge DIR' when the "
                           "tasks have ended)",
                           dep);
    }
    if (vb_fleet_conf_write(s->dir, &c, err)) return -1;
    printf("fleet: merge job %lld submitted, after the array (afterany): %s/fleet.db and "
           "%s/report/\n",
           (long long)c.merge_job, s->dir, s->dir);
    printf("follow it with: varbench fleet status ");
    vb_put_sh(stdout, s->dir);
    printf("\n");
    return 0;
}

static int fleet_submit(int argc, char **argv)
{
    const char *dir = NULL;
    char absdir[4096], exe[PATH_MAX];
    struct vb_fleet_spec s = {.tasks = 1};
    struct vb_err err;
    int dry = 0, force = 0, n, rc, dd;
    const struct vb_opt opts[] = {
        VB_OPT_STR(0, "partition", "P", &s.partition, "the partition (default: the cluster's)"),
        VB_OPT_INT(0, "nodes", "N", &s.tasks, 1, 100000, "nodes, one array task each (default 1)"),
        VB_OPT_INT(0, "gpus-per-node", "G", &s.gpus, 1, 64,
                   "GPUs each task asks for (--gres=gpu:G; default: none asked for)"),
        VB_OPT_STR(0, "time", "T", &s.time, "each task's time limit (sbatch --time)"),
        VB_OPT_STR(0, "account", "A", &s.account, "the account charged"),
        VB_OPT_STR(0, "dir", "DIR", &dir,
                   "the fleet's folder: scripts, logs, runs, fleet.db, report (created)"),
        VB_OPT_FLAG(0, "dry-run", &dry, "print the two scripts; write and submit nothing"),
        VB_OPT_FLAG(0, "force", &force, "submit into a DIR that holds a fleet already"),
        VB_OPT_END()};
    for (dd = 1; dd < argc && strcmp(argv[dd], "--"); dd++) {
    }
    if ((rc = vb_opt_parse(&submit_usage, opts, dd, argv, &n))) return rc == 1 ? 0 : rc;
    if (!dir) return vb_opt_error(&submit_usage, "--dir DIR is needed (the fleet's folder)");
    s.run_args = argv + dd + (dd < argc);
    s.nrun = argc - dd - (dd < argc);
    if (!realpath("/proc/self/exe", exe)) {
        vb_err_set(&err, VB_E_SYS, "cannot find varbench's own path: %s", strerror(errno));
        return vb_report_error("fleet submit", &err);
    }
    if (abs_path(dir, absdir, sizeof absdir, &err)) return vb_report_error("fleet submit", &err);
    s.dir = absdir;
    s.varbench = exe;
    if (vb_fleet_spec_check(&s, &err)) return vb_report_error("fleet submit", &err);
    if (dry) {
        printf("# %s/task.sbatch (sbatch --parsable task.sbatch, in that folder)\n", absdir);
        if (vb_fleet_script_task(stdout, &s)) return vb_code_exit(VB_E_SYS);
        printf("# %s/merge.sbatch (sbatch --parsable --dependency=afterany:<array job> "
               "merge.sbatch)\n",
               absdir);
        if (vb_fleet_script_merge(stdout, &s)) return vb_code_exit(VB_E_SYS);
        return 0;
    }
    if (submit_jobs(&s, force, &err)) return vb_report_error("fleet submit", &err);
    return 0;
}

static int fleet_status(int argc, char **argv)
{
    struct vb_fleet_conf c;
    struct vb_fleet_task *t;
    struct vb_slurm_task merge;
    struct vb_err err;
    char note[700] = "", mnote[700] = "", path[4400];
    int n, rc, bad;
    const struct vb_opt opts[] = {VB_OPT_END()};
    if ((rc = vb_opt_parse(&status_usage, opts, argc, argv, &n))) return rc == 1 ? 0 : rc;
    if (vb_fleet_conf_read(argv[1], &c, &err) ||
        vb_fleet_tasks(argv[1], &c, &t, note, sizeof note, &err))
        return vb_report_error("fleet status", &err);
    memset(&merge, 0, sizeof merge);
    if (c.merge_job && vb_slurm_job(c.merge_job, &merge, mnote, sizeof mnote, &err))
        snprintf(merge.state, sizeof merge.state, "unknown");
    printf("fleet %s: array job %lld, %d task%s, submitted %s; merge job %lld: %s\n", argv[1],
           (long long)c.array_job, c.tasks, c.tasks == 1 ? "" : "s", c.submitted_utc,
           (long long)c.merge_job, merge.state[0] ? merge.state : "unknown to Slurm");
    printf("run options: %s\n", c.run_options[0] ? c.run_options : "(none)");
    if (note[0]) printf("note: %s\n", note);
    bad = vb_fleet_tasks_print(stdout, t, c.tasks);
    snprintf(path, sizeof path, "%s/report/index.html", argv[1]);
    if (access(path, F_OK) == 0)
        printf("merged: %s/fleet.db, report %s\n", argv[1], path);
    else
        printf("not merged yet: the merge job writes %s/fleet.db and %s/report/\n", argv[1],
               argv[1]);
    free(t);
    return bad ? vb_code_exit(VB_E_WRONG) : 0;
}

static const int fleet_codes[] = {0, 1, 2, 3, 6, -1};
static const struct vb_usage fleet_usage = {
    .cmd = "fleet",
    .synopsis = "submit [options] --dir DIR -- [run options]\n"
                "status DIR\n"
                "merge DIR",
    .about = "The suite on every node of a Slurm cluster: 'fleet submit' writes the sbatch\n"
             "scripts into DIR and submits them (an array job, one task per node, and a merge\n"
             "job after it); 'fleet status' shows each task and what is missing; 'fleet merge'\n"
             "(the merge job; by hand too) merges the tasks' databases into DIR/fleet.db and\n"
             "writes DIR/report/. Only Slurm's CLIs are called (sbatch, squeue, sacct).\n"
             "'varbench fleet SUBCOMMAND --help' gives each one's options.\n",
    .codes = fleet_codes,
    .min_args = 1,
    .max_args = -1,
    .expects = "a subcommand: submit, status or merge",
    .stop_at_arg = 1,
};

int vb_cmd_fleet(int argc, char **argv)
{
    const struct vb_opt opts[] = {VB_OPT_END()};
    int n, rc;
    if (argc > 1 && !strcmp(argv[1], "submit")) return fleet_submit(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "status")) return fleet_status(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "merge")) return vb_cmd_fleet_merge(argc - 1, argv + 1);
    if ((rc = vb_opt_parse(&fleet_usage, opts, argc, argv, &n))) return rc == 1 ? 0 : rc;
    return vb_opt_error(&fleet_usage, "'%s' is not a fleet subcommand (submit, status, merge)",
                        argv[1]);
}
