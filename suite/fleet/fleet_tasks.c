/* fleet_tasks: the table of a fleet's tasks (see fleet_tasks.h). */
#include "fleet_tasks.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "fleet_conf.h"
#include "store.h"

const char *vb_fleet_verdict_name(enum vb_fleet_verdict v)
{
    static const char *const names[] = {"complete", "running", "missing", "failed"};
    return names[v];
}

/* task_of: the task index a database's name gives ("<host>-<job>_<task>.db"), with its host
 * in host; -1 for a name of another job or no such task. */
static int task_of(const char *name, int64_t job, int n, char *host, size_t hn)
{
    char tail[48];
    size_t len = strlen(name), k;
    const char *us;
    char *end;
    long i;
    if (len < 4 || strcmp(name + len - 3, ".db")) return -1;
    if (!(us = strrchr(name, '_'))) return -1;
    i = strtol(us + 1, &end, 10);
    if (end == us + 1 || strcmp(end, ".db") || i < 0 || i >= n) return -1;
    k = (size_t)snprintf(tail, sizeof tail, "-%" PRId64, job);
    if ((size_t)(us - name) <= k || strncmp(us - k, tail, k)) return -1;
    snprintf(host, hn, "%.*s", (int)(us - k - name), name);
    return (int)i;
}

/* scan finds each task's database in dir/runs (of several, the newest written). 0 or -1. */
static int scan(const char *dir, int64_t job, struct vb_fleet_task *t, int n, struct vb_err *err)
{
    char runs[4200], host[128];
    time_t *when = calloc((size_t)n, sizeof *when);
    struct dirent *e;
    DIR *d;
    if (!when) return vb_err_set(err, VB_E_SYS, "out of memory");
    snprintf(runs, sizeof runs, "%s/runs", dir);
    if (!(d = opendir(runs))) {
        free(when);
        if (errno == ENOENT) return 0; /* no task has started */
        return vb_err_set(err, VB_E_SYS, "cannot read '%s': %s", runs, strerror(errno));
    }
    while ((e = readdir(d))) {
        struct stat st;
        char path[4700];
        int i = task_of(e->d_name, job, n, host, sizeof host);
        if (i < 0) continue;
        snprintf(path, sizeof path, "%s/%s", runs, e->d_name);
        if (stat(path, &st)) continue;
        if (t[i].ndbs++ && st.st_mtime < when[i]) continue;
        when[i] = st.st_mtime;
        snprintf(t[i].db, sizeof t[i].db, "runs/%s", e->d_name);
        snprintf(t[i].path, sizeof t[i].path, "%s", path);
        snprintf(t[i].host, sizeof t[i].host, "%s", host);
    }
    closedir(d);
    free(when);
    return 0;
}

/* inspect reads the task's database: its newest run's status and cases (never writing it). */
static void inspect(struct vb_fleet_task *t)
{
    struct vb_run_list_row *runs = NULL;
    struct vb_store *s;
    struct vb_err err;
    int n = 0;
    if (!t->db[0]) return;
    if (vb_store_open_ro(t->path, &s, &err)) {
        snprintf(t->run, sizeof t->run, "unreadable");
        snprintf(t->why, sizeof t->why, "%s", err.msg);
        return;
    }
    if (vb_store_run_list(s, &runs, &n, &err)) {
        vb_store_close(s);
        snprintf(t->run, sizeof t->run, "unreadable");
        snprintf(t->why, sizeof t->why, "%s", err.msg);
        return;
    }
    vb_store_close(s);
    if (n == 0) {
        snprintf(t->run, sizeof t->run, "none");
    } else {
        snprintf(t->run, sizeof t->run, "%s", runs[0].status); /* newest first */
        t->cases = runs[0].cases;
    }
    vb_store_run_list_free(runs);
}

/* judge sets the task's verdict and why from Slurm's state and its database. */
static void judge(struct vb_fleet_task *t)
{
    const char *st = t->slurm.state[0] ? t->slurm.state : "unknown to Slurm";
    char why[sizeof t->why];
    snprintf(why, sizeof why, "%s", t->why);
    t->why[0] = '\0';
    if (!strcmp(t->run, "complete")) {
        t->verdict = VB_FLEET_COMPLETE;
    } else if (vb_slurm_live(t->slurm.state)) {
        t->verdict = VB_FLEET_LIVE;
        snprintf(t->why, sizeof t->why, "%s%s%s", st, t->run[0] ? ", run " : "", t->run);
    } else if (!t->db[0]) {
        t->verdict = VB_FLEET_MISSING;
        snprintf(t->why, sizeof t->why, "no database: %s", st);
    } else if (!strcmp(t->run, "unreadable")) {
        t->verdict = VB_FLEET_FAILED;
        snprintf(t->why, sizeof t->why, "%s unreadable (%s): %s", t->db, why, st);
    } else if (!strcmp(t->run, "running")) {
        t->verdict = VB_FLEET_FAILED;
        snprintf(t->why, sizeof t->why,
                 "run 'running' with %d case%s, but the task ended: %s (its writer was killed)",
                 t->cases, t->cases == 1 ? "" : "s", st);
    } else {
        t->verdict = VB_FLEET_FAILED;
        snprintf(t->why, sizeof t->why, "run '%s' with %d case%s: %s", t->run, t->cases,
                 t->cases == 1 ? "" : "s", st);
    }
}

int vb_fleet_tasks(const char *dir, const struct vb_fleet_conf *c, struct vb_fleet_task **out,
                   char *note, size_t nn, struct vb_err *err)
{
    struct vb_slurm_task *st = calloc((size_t)c->tasks, sizeof *st);
    struct vb_fleet_task *t = calloc((size_t)c->tasks, sizeof *t);
    int i;
    *out = NULL;
    if (!st || !t) {
        free(st);
        free(t);
        return vb_err_set(err, VB_E_SYS, "out of memory");
    }
    if (vb_slurm_array(c->array_job, c->tasks, st, note, nn, err) ||
        scan(dir, c->array_job, t, c->tasks, err)) {
        free(st);
        free(t);
        return -1;
    }
    for (i = 0; i < c->tasks; i++) {
        t[i].index = i;
        t[i].slurm = st[i];
        if (!t[i].host[0]) snprintf(t[i].host, sizeof t[i].host, "%s", st[i].node);
        inspect(&t[i]);
        judge(&t[i]);
    }
    free(st);
    *out = t;
    return 0;
}

int vb_fleet_tasks_print(FILE *f, const struct vb_fleet_task *t, int n)
{
    int i, bad = 0, counts[4] = {0, 0, 0, 0};
    fprintf(f, "%-5s %-20s %-12s %-12s %6s  %s\n", "task", "host", "slurm", "run", "cases",
            "database");
    for (i = 0; i < n; i++)
        fprintf(f, "%-5d %-20s %-12s %-12s %6d  %s%s\n", t[i].index, t[i].host[0] ? t[i].host : "-",
                t[i].slurm.state[0] ? t[i].slurm.state : "-", t[i].run[0] ? t[i].run : "-",
                t[i].cases, t[i].db[0] ? t[i].db : "-",
                t[i].ndbs > 1 ? " (newest of several: requeued)" : "");
    for (i = 0; i < n; i++) {
        counts[t[i].verdict]++;
        if (t[i].verdict == VB_FLEET_COMPLETE) continue;
        fprintf(f, "%s: task %d (%s)\n", vb_fleet_verdict_name(t[i].verdict), t[i].index, t[i].why);
        bad++;
    }
    fprintf(f, "tasks: %d complete, %d running, %d missing, %d failed (of %d)\n", counts[0],
            counts[1], counts[2], counts[3], n);
    return bad;
}
