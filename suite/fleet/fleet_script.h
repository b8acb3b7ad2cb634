/*
 * fleet_script: the two sbatch scripts of `varbench fleet submit`, and the checks that make
 * them safe to write. task.sbatch is an array job, one task per node, each running
 * `varbench run --device all` into DIR/runs/<host>-<job>_<task>.db; merge.sbatch runs
 * `varbench fleet merge DIR` once the array has ended (submitted with afterany). Every path
 * and run option is one single-quoted shell word (vb_put_sh), and no path appears in an
 * #SBATCH line: sbatch is run in DIR, so the logs' relative pattern (logs/%A_%a.out) needs no
 * quoting.
 */
#ifndef VB_FLEET_SCRIPT_H
#define VB_FLEET_SCRIPT_H

#include <stdio.h>

struct vb_err;

/* What is submitted. dir and varbench are absolute paths. */
struct vb_fleet_spec {
    const char *dir, *varbench;
    int tasks;             /* array tasks, one per node: --array=0-(tasks-1) */
    int gpus;              /* GPUs per node (--gres=gpu:G); 0: not asked for */
    const char *partition; /* NULL: the cluster's default */
    const char *time;      /* each task's time limit (sbatch --time); NULL: the partition's */
    const char *account;   /* NULL: the user's default */
    char *const *run_args; /* options for `varbench run` */
    int nrun;
};

/* vb_fleet_spec_check refuses what the scripts cannot carry: a control character (a newline)
 * in a path or a run option (Slurm's logs and listings are lines), a '%' in dir (Slurm expands
 * its patterns in the whole log path, the job's folder included), a partition, account or
 * time that is not one of Slurm's plain names, and a run option fleet sets itself (--db,
 * --device). 0, or -1 with err (VB_E_USAGE, naming the value and the fix). */
int vb_fleet_spec_check(const struct vb_fleet_spec *s, struct vb_err *err);

/* vb_fleet_script_task and vb_fleet_script_merge write the scripts to f (a checked spec).
 * They return ferror(f)'s answer: 0, or non-zero when a write failed. */
int vb_fleet_script_task(FILE *f, const struct vb_fleet_spec *s);
int vb_fleet_script_merge(FILE *f, const struct vb_fleet_spec *s);

#endif
