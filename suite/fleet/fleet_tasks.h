/*
 * fleet_tasks: the table of a fleet's tasks, what `fleet status` prints, `fleet merge` writes
 * into report/fleet.txt and the report shows as its Fleet section: per array task, Slurm's
 * state (slurm.h), the database it left in DIR/runs and that database's run (status, cases
 * done), and a verdict naming what is missing or failed. A run is complete only when its own
 * database says so: a task whose writer was killed leaves its run 'running', and it is named
 * as failed once Slurm says the task has ended. Workload: up to a few thousand tasks, each
 * database opened read-only once.
 */
#ifndef VB_FLEET_TASKS_H
#define VB_FLEET_TASKS_H

#include <stdio.h>

#include "slurm.h"

struct vb_err;
struct vb_fleet_conf;

/* What a task came to. */
enum vb_fleet_verdict {
    VB_FLEET_COMPLETE, /* its run is complete */
    VB_FLEET_LIVE,     /* Slurm has not ended it (pending, running) */
    VB_FLEET_MISSING,  /* it ended without a database */
    VB_FLEET_FAILED,   /* it ended with a database whose run is not complete, or unreadable */
};

struct vb_fleet_task {
    int index;                  /* its array index */
    struct vb_slurm_task slurm; /* state "" when Slurm knows nothing of it */
    char host[128];             /* from its database's name, else Slurm's node, else "" */
    char db[512];               /* its database, relative to DIR ("runs/n1-12_0.db"); "" none */
    char path[4700];            /* the same, as a path to open */
    int ndbs;                   /* databases found for it (requeued on another node: 2) */
    char run[16];               /* its newest run's status; "" no database, "none": no run in
                                 * it, "unreadable" */
    int cases;                  /* cases that run stored */
    enum vb_fleet_verdict verdict;
    char why[300]; /* for all but complete: "no database: CANCELLED" */
};

/* vb_fleet_tasks builds the table of the fleet in dir submitted as c: asks Slurm (a failure of
 * one of squeue and sacct goes into note, nn bytes), scans dir/runs and opens each database
 * read-only. Sets *out (malloc'd, c->tasks rows, caller frees). 0, or -1 with err (VB_E_SYS:
 * Slurm's CLIs missing or failing, dir/runs unreadable, memory). */
int vb_fleet_tasks(const char *dir, const struct vb_fleet_conf *c, struct vb_fleet_task **out,
                   char *note, size_t nn, struct vb_err *err);

/* vb_fleet_tasks_print writes the table, then one line per task not complete ("missing: task 2
 * (no database: CANCELLED)"), then a count line. Returns the tasks not complete. */
int vb_fleet_tasks_print(FILE *f, const struct vb_fleet_task *t, int n);

/* vb_fleet_verdict_name: "complete", "running", "missing", "failed". */
const char *vb_fleet_verdict_name(enum vb_fleet_verdict v);

#endif
