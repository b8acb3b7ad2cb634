/*
 * slurm: what `varbench fleet` asks of Slurm, through its CLIs only (sbatch, squeue, sacct;
 * scancel is the user's): submit a script, and the state of each task of an array job.
 * sacct is the record of finished jobs where the cluster keeps accounting; squeue knows the
 * pending and running ones, and a finished one for MinJobAge seconds (300 by default), which
 * is what a cluster without accounting has. Workload: arrays of up to a few thousand tasks,
 * asked once per command.
 */
#ifndef VB_SLURM_H
#define VB_SLURM_H

#include <stdint.h>
#include <stdio.h>

struct vb_err;

#define VB_SLURM_TIMEOUT_S 120 /* one CLI call; they retry a slurmctld that is down for ~60 s */

/* One array task as Slurm sees it. state: "PENDING", "RUNNING", "COMPLETED", "CANCELLED",
 * "TIMEOUT", "NODE_FAIL", ... or "" when neither sacct nor squeue knows the task; node: the
 * node it ran on ("" unknown); exit: sacct's "code:signal" ("" unknown). */
struct vb_slurm_task {
    char state[24], node[128], exit[16];
};

/* vb_slurm_need checks that tool is on PATH; -1 with err (VB_E_SYS, "sbatch not found on
 * PATH" and the fix) when it is not. */
int vb_slurm_need(const char *tool, struct vb_err *err);

/* vb_slurm_submit runs `sbatch --parsable [--dependency=DEP] SCRIPT` in folder dir and sets
 * *job to the id it prints. 0, or -1 with err (VB_E_SYS, sbatch's own message and a hint). */
int vb_slurm_submit(const char *dir, const char *script, const char *dep, int64_t *job,
                    struct vb_err *err);

/* vb_slurm_array reads the state of tasks 0..n-1 of array job `job` into t[0..n): squeue's
 * for a task it lists in a live state (pending, running, ...), else sacct's, else squeue's
 * final one. note gets one line saying what could not be asked ("sacct: Slurm accounting
 * storage is disabled"), or "". Returns 0 when at least one of the two answered, or -1 with
 * err (VB_E_SYS: neither on PATH, or both failing). */
int vb_slurm_array(int64_t job, int n, struct vb_slurm_task *t, char *note, size_t nn,
                   struct vb_err *err);
/* vb_slurm_job reads one job's state the same way (the merge job); 0 or -1 as above. */
int vb_slurm_job(int64_t job, struct vb_slurm_task *t, char *note, size_t nn, struct vb_err *err);

/* vb_slurm_parse reads lines "JOBID|STATE|NODELIST[|EXITCODE]" (sacct -P, squeue -o) from
 * text into t[0..n) for the ids "job_TASK" (whole: the id "job" itself, into t[0]). A range of
 * pending tasks ("12_[3-5]", "12_[1,4-6%2]") fills each task it names; a state's detail
 * ("CANCELLED by 0") is cut to its first word; lines it cannot read are skipped. Returns the
 * tasks filled. */
int vb_slurm_parse(const char *text, int64_t job, int n, int whole, struct vb_slurm_task *t);

/* vb_slurm_live: is state one of a job not yet ended (PENDING, RUNNING, CONFIGURING,
 * COMPLETING, SUSPENDED, REQUEUED, RESIZING, ...)? */
int vb_slurm_live(const char *state);

#endif
