/* slurm: Slurm's CLIs, called and read (see slurm.h). */
#include "slurm.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "proc.h"

int vb_slurm_need(const char *tool, struct vb_err *err)
{
    if (vb_proc_on_path(tool)) return 0;
    vb_err_set(err, VB_E_SYS, "%s not found on PATH", tool);
    return vb_err_hint(err, "install Slurm's client commands (Debian: apt-get install "
                            "slurm-client) or run on a login node of the cluster");
}

/* first_line copies the first non-empty line of s into buf ("" when none). */
static void first_line(const char *s, char *buf, size_t n)
{
    size_t k;
    while (*s == '\n')
        s++;
    k = strcspn(s, "\n");
    snprintf(buf, n, "%.*s", (int)(k < n ? k : n - 1), s);
}

int vb_slurm_submit(const char *dir, const char *script, const char *dep, int64_t *job,
                    struct vb_err *err)
{
    char depopt[64], msg[256], *end;
    char *argv[5] = {"sbatch", "--parsable", NULL, NULL, NULL};
    struct vb_proc p;
    int k = 2;
    if (dep) {
        snprintf(depopt, sizeof depopt, "--dependency=%s", dep);
        argv[k++] = depopt;
    }
    argv[k] = (char *)script;
    if (vb_slurm_need("sbatch", err) || vb_proc_run(argv, dir, NULL, VB_SLURM_TIMEOUT_S, &p, err))
        return -1;
    *job = strtoll(p.out, &end, 10);
    if (p.status || end == p.out || *job <= 0 || (*end && *end != ';' && *end != '\n')) {
        first_line(p.errtail[0] ? p.errtail : p.out, msg, sizeof msg);
        vb_err_set(err, VB_E_SYS, "sbatch %s (exit %d): %s", script, p.status,
                   msg[0] ? msg : "no job id printed");
        vb_proc_free(&p);
        return vb_err_hint(err, "check the partition, account and time limit with 'sinfo' and "
                                "'sacctmgr show assoc user=$USER'");
    }
    vb_proc_free(&p);
    return 0;
}

int vb_slurm_live(const char *state)
{
    static const char *const live[] = {"PENDING",   "RUNNING",   "CONFIGURING",  "COMPLETING",
                                       "SUSPENDED", "REQUEUED",  "REQUEUE_HOLD", "REQUEUE_FED",
                                       "RESIZING",  "SIGNALING", "STAGE_OUT",    "STOPPED",
                                       NULL};
    int i;
    for (i = 0; live[i]; i++)
        if (!strcmp(state, live[i])) return 1;
    return 0;
}

/* fill copies a row's fields into task t (the state cut to its first word). */
static void fill(struct vb_slurm_task *t, const char *state, size_t ns, const char *node, size_t nn,
                 const char *exit, size_t ne)
{
    size_t k = strcspn(state, " +");
    if (k > ns) k = ns;
    snprintf(t->state, sizeof t->state, "%.*s", (int)k, state);
    snprintf(t->node, sizeof t->node, "%.*s", (int)nn, node);
    if (!strcmp(t->node, "(null)") || !strcmp(t->node, "None assigned")) t->node[0] = '\0';
    snprintf(t->exit, sizeof t->exit, "%.*s", (int)ne, exit);
}

/* tasks_of marks in hit[0..n) the tasks a JOBID's tail names: "3" or "[1,4-6%2]". */
static void tasks_of(const char *s, size_t len, int n, unsigned char *hit)
{
    const char *end = s + len;
    if (len && *s == '[') {
        s++;
        end = memchr(s, ']', len - 1);
        if (!end) return;
    }
    while (s < end) {
        char *e;
        long a = strtol(s, &e, 10), b = a, i;
        if (e == s) return;
        s = e;
        if (s < end && *s == '-') {
            b = strtol(s + 1, &e, 10);
            if (e == s + 1) return;
            s = e;
        }
        if (s < end && *s == '%') /* a throttle: "%2" ends the list */
            break;
        for (i = a < 0 ? 0 : a; i <= b && i < n; i++)
            hit[i] = 1;
        if (s < end && *s == ',')
            s++;
        else if (s < end)
            return;
    }
}

int vb_slurm_parse(const char *text, int64_t job, int n, int whole, struct vb_slurm_task *t)
{
    char id[32];
    size_t idlen = (size_t)snprintf(id, sizeof id, "%" PRId64, job);
    unsigned char *hit = calloc((size_t)n + 1, 1);
    int filled = 0, i;
    const char *line;
    if (!hit) return 0;
    for (line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *f[4] = {line, NULL, NULL, NULL}, *eol = line + strcspn(line, "\n");
        size_t flen[4] = {0, 0, 0, 0};
        int k;
        for (k = 1; k < 4; k++) {
            const char *bar = memchr(f[k - 1], '|', (size_t)(eol - f[k - 1]));
            if (!bar) break;
            f[k] = bar + 1;
        }
        if (k < 3) continue;
        for (k = 0; k < 4 && f[k]; k++) {
            const char *stop = k < 3 && f[k + 1] ? f[k + 1] - 1 : eol;
            flen[k] = (size_t)(stop - f[k]);
        }
        if (flen[0] < idlen || memcmp(f[0], id, idlen)) continue;
        memset(hit, 0, (size_t)n);
        if (whole && flen[0] == idlen)
            hit[0] = 1;
        else if (!whole && flen[0] > idlen + 1 && f[0][idlen] == '_')
            tasks_of(f[0] + idlen + 1, flen[0] - idlen - 1, n, hit);
        for (i = 0; i < n; i++)
            if (hit[i]) {
                fill(&t[i], f[1], flen[1], f[2], flen[2], f[3] ? f[3] : "", flen[3]);
                filled++;
            }
    }
    free(hit);
    return filled;
}

/* ask runs a listing and parses it into t; 0, or -1 with why in note (the tool's message). */
static int ask(char *const *argv, int64_t job, int n, int whole, struct vb_slurm_task *t,
               char *note, size_t nn)
{
    struct vb_proc p;
    struct vb_err err;
    char msg[200];
    if (vb_proc_run(argv, NULL, NULL, VB_SLURM_TIMEOUT_S, &p, &err)) {
        snprintf(note, nn, "%s", err.msg);
        return -1;
    }
    if (p.status) {
        first_line(p.errtail, msg, sizeof msg);
        /* squeue refuses a job id it has forgotten: no rows, not a failure */
        if (!strstr(msg, "Invalid job id")) {
            snprintf(note, nn, "%s: %s", argv[0], msg[0] ? msg : "failed");
            vb_proc_free(&p);
            return -1;
        }
    }
    vb_slurm_parse(p.out, job, n, whole, t);
    vb_proc_free(&p);
    return 0;
}

/* query fills t[0..n) from squeue and sacct (the rule of vb_slurm_array). */
static int query(int64_t job, int n, int whole, struct vb_slurm_task *t, char *note, size_t nn,
                 struct vb_err *err)
{
    char id[32], qnote[300] = "", anote[300] = "";
    char *sq[] = {"squeue", "-h", "-r", "--states=all", "-j", id, "-o", "%i|%T|%N", NULL};
    char *sa[] = {"sacct", "-X", "-n", "-P", "-j", id, "-o", "JobID,State,NodeList,ExitCode", NULL};
    struct vb_slurm_task *q = calloc((size_t)n, sizeof *q);
    int i, qok, aok;
    if (!q) return vb_err_set(err, VB_E_SYS, "out of memory");
    snprintf(id, sizeof id, "%" PRId64, job);
    memset(t, 0, (size_t)n * sizeof *t);
    note[0] = '\0';
    if (!vb_proc_on_path("squeue") && !vb_proc_on_path("sacct")) {
        free(q);
        vb_err_set(err, VB_E_SYS, "squeue and sacct not found on PATH");
        return vb_err_hint(err, "install Slurm's client commands (Debian: apt-get install "
                                "slurm-client) or run on a login node of the cluster");
    }
    qok = ask(sq, job, n, whole, q, qnote, sizeof qnote) == 0;
    aok = ask(sa, job, n, whole, t, anote, sizeof anote) == 0;
    if (!qok && !aok) {
        free(q);
        return vb_err_set(err, VB_E_SYS, "cannot ask Slurm about job %s: %s; %s", id, qnote, anote);
    }
    for (i = 0; i < n; i++)
        if (q[i].state[0] && (vb_slurm_live(q[i].state) || !t[i].state[0])) {
            char exit[sizeof t[i].exit];
            memcpy(exit, t[i].exit, sizeof exit);
            t[i] = q[i];
            memcpy(t[i].exit, exit, sizeof exit);
        } else if (!t[i].node[0]) {
            memcpy(t[i].node, q[i].node, sizeof t[i].node);
        }
    snprintf(note, nn, "%s%s%s%s", qnote, qnote[0] && anote[0] ? "; " : "", anote,
             anote[0] ? " (the states of ended tasks are squeue's, kept MinJobAge seconds)" : "");
    free(q);
    return 0;
}

int vb_slurm_array(int64_t job, int n, struct vb_slurm_task *t, char *note, size_t nn,
                   struct vb_err *err)
{
    return query(job, n, 0, t, note, nn, err);
}

int vb_slurm_job(int64_t job, struct vb_slurm_task *t, char *note, size_t nn, struct vb_err *err)
{
    return query(job, 1, 1, t, note, nn, err);
}
