/*
 * ab: `varbench ab A B`, two builds paired on one GPU. A and B (two varbench binaries, or two
 * builds of a user's benchmark: any program whose `run` is varbench's) are started as `run
 * --ab-worker` on the same device, into the same database, each with a run of its own. Every
 * case both make is timed in rounds: A's K samples then B's, then B's then A's (ABBA), the
 * round's medians sent here (ab_worker.h), until each judged phase is decided (paired.h) after
 * --rounds MIN rounds, or MAX rounds or the case's --budget are spent (noisy, "undecided"). A
 * case only one side makes runs there alone under the usual rule. Verdicts, table, Markdown,
 * JUnit and exit codes are compare's (cmp_print.h). Workload: a line a round; the sides do
 * the measuring, this only waits on them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "cmd.h"
#include "ab_explain.h"
#include "ab_judge.h"
#include "cmp_print.h"
#include "code_diff.h"
#include "environ.h"
#include "norm.h"
#include "compare.h"
#include "opt.h"
#include "paired.h"
#include "proc.h"
#include "progress.h"
#include "result.h"
#include "stats.h"
#include "store.h"

#define MAX_ARGS 64
#define LABEL    VB_AB_LABEL

static const int codes[] = {0, 1, 2, 3, 6, 7, -1};
static const struct vb_usage usage = {
    .cmd = "ab",
    .synopsis = "A B [options] [-- RUN-OPTIONS...]",
    .about =
        "Pairs two builds on one GPU: A and B (two varbench binaries, or two builds of a\n"
        "benchmark program of your own) run side by side as `run` processes on the same\n"
        "device, into one database (a run each), and every case both make is timed in rounds:\n"
        "K samples of A, then K of B, then B then A (ABBA), until the paired difference of each\n"
        "judged phase is decided. The round-to-round drift of clocks and of a shared host cancels\n"
        "in each round's B/A ratio, which two runs minutes apart cannot do.\n",
    .notes =
        "A phase is judged on its rounds' B/A ratios: the sign test's interval of their median\n"
        "(coverage 1 - alpha) inside [1/(1+limit), 1+limit] is same, above 1+limit slower, below\n"
        "1/(1+limit) faster; otherwise more rounds (at least MIN, whatever the budget), and\n"
        "noisy when none are left. The limit is --threshold, and never under 0.5 us (5 us for\n"
        "e2e). A phase the host moves (a copy, the GPU time holding one, e2e, a CPU case) is\n"
        "judged too on its rounds against the controls each side measured beside its samples\n"
        "(a copy of the same size and kind, the host's arithmetic chain and memory walk): it is\n"
        "slower only when both are. A GPU case is judged on its GPU time, each\n"
        "phase of 5% of it or more and e2e; a CPU case on e2e, paired only when the run has no\n"
        "GPU case (else it runs alone on each side, as compare lets GPU cases decide). A case\n"
        "one side makes and the other does not is only-in-base or only-in-candidate; broken:\n"
        "ok in A, wrong or failed in B. RUN-OPTIONS after -- go to both sides' run (for example\n"
        "--cache warm). Both sides time without the metrics pass (two profiling sessions\n"
        "cannot share a board); a GPU case slower or faster in a GPU phase is then run again by\n"
        "A, then by B, alone (run --quick --metrics default, two more runs in the database),\n"
        "and the counters that moved are named as compare names them (--no-counters: not).\n"
        "Exit 1: a case slower or broken; 7: one noisy, or nothing compared; 6: a side that\n"
        "cannot be started or that died.\n",
    .codes = codes,
    .min_args = 2,
    .max_args = 2,
    .expects = "A and B, two programs",
};

struct side {
    const char *exe;
    const char *name; /* "A" or "B" */
    pid_t pid;
    FILE *from, *to;
    char log[1024]; /* its stderr, shown if it fails */
    int64_t run;
    char (*plan)[LABEL];
    char *kind; /* plan[i]'s: 'g' a GPU case, 'c' a CPU case, 'n' a GPU case with no device */
    int nplan, ended;
    char cur[LABEL]; /* the case it announced and waits in, or "" */
};

struct opts {
    const char *db, *filter, *junit;
    struct vb_opt_list axes; /* --axis, as given */
    int device, quick, md, rmin, rmax, k, no_counters;
    double threshold, alpha, budget;
    char **extra;
    int nextra;
};

/* start runs `EXE run ... --ab-worker R,W` with its stdout to /dev/null, its stderr to a file */
static int start(struct side *s, const struct opts *o, struct vb_err *err)
{
    char *av[MAX_ARGS + 32], spec[32], dev[16], name[32];
    int down[2], up[2], n = 0, i, fd;
    snprintf(name, sizeof name, "varbench-ab-%s", s->name);
    vb_proc_tmp_template(s->log, sizeof s->log, name);
    if ((fd = mkstemp(s->log)) < 0)
        return vb_err_set(err, VB_E_SYS, "a log for %s: %s", s->name, strerror(errno));
    /* close-on-exec: the other side's process must not hold this side's pipes (its end of
     * them made inheritable in the child) */
    if (pipe2(down, O_CLOEXEC) || pipe2(up, O_CLOEXEC)) {
        close(fd);
        return vb_err_set(err, VB_E_SYS, "pipes for %s: %s", s->name, strerror(errno));
    }
    snprintf(spec, sizeof spec, "%d,%d", down[0], up[1]);
    snprintf(dev, sizeof dev, "%d", o->device);
    av[n++] = (char *)s->exe;
    av[n++] = "run";
    av[n++] = "--db";
    av[n++] = (char *)o->db;
    av[n++] = "--device";
    av[n++] = dev;
    av[n++] = "--no-metrics";
    if (o->quick) av[n++] = "--quick";
    if (o->filter) av[n++] = "--filter", av[n++] = (char *)o->filter;
    for (i = 0; i < o->axes.n; i++)
        av[n++] = "--axis", av[n++] = (char *)o->axes.v[i];
    for (i = 0; i < o->nextra; i++)
        av[n++] = o->extra[i];
    av[n++] = "--ab-worker";
    av[n++] = spec;
    av[n] = NULL;
    fflush(NULL);
    s->pid = fork();
    if (s->pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (null < 0 || dup2(null, 1) < 0 || dup2(fd, 2) < 0 || fcntl(down[0], F_SETFD, 0) ||
            fcntl(up[1], F_SETFD, 0))
            _exit(126);
        execv(s->exe, av);
        dprintf(2, "cannot start %s: %s\n", s->exe, strerror(errno));
        _exit(127);
    }
    close(fd);
    close(down[0]);
    close(up[1]);
    if (s->pid < 0) {
        close(down[1]);
        close(up[0]);
        return vb_err_set(err, VB_E_SYS, "cannot start %s: fork: %s", s->exe, strerror(errno));
    }
    s->to = fdopen(down[1], "w");
    s->from = fdopen(up[0], "r");
    if (!s->to || !s->from) return vb_err_set(err, VB_E_SYS, "fdopen: %s", strerror(errno));
    return 0;
}

/* died: the side's run ended before it said "end": its exit and the tail of its stderr */
static int died(struct side *s, struct vb_err *err)
{
    char tail[600] = "";
    FILE *f = fopen(s->log, "r");
    int st = 0;
    if (f) {
        long size;
        fseek(f, 0, SEEK_END);
        size = ftell(f);
        fseek(f, size > (long)sizeof tail - 1 ? size - (long)sizeof tail + 1 : 0, SEEK_SET);
        tail[fread(tail, 1, sizeof tail - 1, f)] = '\0';
        fclose(f);
    }
    if (s->pid > 0 && waitpid(s->pid, &st, 0) == s->pid) s->pid = 0;
    vb_err_set(err, VB_E_SYS, "%s (%s) stopped before its run ended (%s %d): %s", s->name, s->exe,
               WIFSIGNALED(st) ? "signal" : "exit",
               WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st), tail[0] ? tail : "no output");
    if (strstr(tail, "ab-worker")) /* a build from before varbench ab */
        return vb_err_hint(err,
                           "%s's run has no --ab-worker: a build older than varbench ab; pair "
                           "two builds that both have it",
                           s->name);
    return vb_err_hint(err,
                       "'%s run --help' should work: A and B are varbench binaries or "
                       "benchmark programs built with varbench",
                       s->exe);
}

/* hear reads the side's next line (newline dropped); -1 when it closed its pipe */
static int hear(struct side *s, char *line, size_t n)
{
    size_t len;
    if (!fgets(line, (int)n, s->from)) return -1;
    len = strlen(line);
    if (len && line[len - 1] == '\n') line[len - 1] = '\0';
    return 0;
}

static int tell(struct side *s, const char *line)
{
    return fprintf(s->to, "%s\n", line) < 0 || fflush(s->to) ? -1 : 0;
}

/* hello reads "run ID", the plan and "planned N" */
static int hello(struct side *s, struct vb_err *err)
{
    char line[LABEL + 16];
    long long run;
    int n;
    if (hear(s, line, sizeof line) || sscanf(line, "run %lld", &run) != 1) return died(s, err);
    s->run = run;
    for (;;) {
        if (hear(s, line, sizeof line)) return died(s, err);
        if (sscanf(line, "planned %d", &n) == 1) return 0;
        char *sp = strchr(line + 5, ' ');
        if (strncmp(line, "plan ", 5) || !sp || !strchr("gcn", line[5])) return died(s, err);
        if (!(s->nplan & (s->nplan - 1))) { /* 0, 1, 2, 4, ...: grow */
            size_t cap = (size_t)(s->nplan ? 2 * s->nplan : 1);
            void *grown = realloc(s->plan, sizeof *s->plan * cap), *g;
            if (grown) s->plan = grown;
            if (!grown || !(g = realloc(s->kind, cap)))
                return vb_err_set(err, VB_E_SYS, "out of memory for %s's plan", s->name);
            s->kind = g;
        }
        s->kind[s->nplan] = line[5];
        snprintf(s->plan[s->nplan++], LABEL, "%s", sp + 1);
    }
}

/* announced reads the side's next "case LABEL" into cur, or notes "end" */
static int announced(struct side *s, struct vb_err *err)
{
    char line[LABEL + 16];
    if (s->ended || s->cur[0]) return 0;
    if (hear(s, line, sizeof line)) return died(s, err);
    if (!strcmp(line, "end")) {
        s->ended = 1;
        return 0;
    }
    if (strncmp(line, "case ", 5)) return died(s, err);
    snprintf(s->cur, sizeof s->cur, "%s", line + 5);
    return 0;
}

/* pos: where label is in the side's plan, or -1 */
static int pos(const struct side *s, const char *label)
{
    int i;
    for (i = 0; i < s->nplan; i++)
        if (!strcmp(s->plan[i], label)) return i;
    return -1;
}

/* one_round: K samples of side s, its medians into c (round r, side i) */
static int one_round(struct side *s, int i, int k, struct vb_paired_case *c, struct vb_err *err)
{
    char line[1024], *p, *end;
    int ph, x;
    snprintf(line, sizeof line, "round %d", k);
    if (tell(s, line) || hear(s, line, sizeof line) || strncmp(line, "medians", 7))
        return died(s, err);
    p = line + 7;
    for (ph = 0; ph < VB_PH_COUNT; ph++)
        c->v[i][ph][c->rounds] = strtod(p, &p);
    c->pageable[i][0] |= strtol(p, &p, 10) == 1;
    c->pageable[i][1] |= strtol(p, &p, 10) == 1;
    for (x = 0; x < VB_CTL_COUNT; x++) { /* a build before the controls sends none */
        double m = strtod(p, &end);
        c->ctl[i][x][c->rounds] = end != p ? m : NAN;
        p = end;
    }
    return 0;
}

/* pair: the rounds of case c, A and B both waiting in it (ABBA), until decided or spent */
static int pair(struct side *ab, struct vb_paired_case *c, const struct opts *o, struct vb_err *err)
{
    double t0 = vb_mono_ns();
    int k = o->k > 0 ? o->k : 3, done;
    for (c->rounds = 0;;) {
        int first = c->rounds % 2; /* A B, B A, A B, ... */
        if (one_round(&ab[first], first, k, c, err) || one_round(&ab[!first], !first, k, c, err))
            return -1;
        c->rounds++;
        if ((done = vb_ab_judge(c, o->threshold, o->alpha, err)) < 0) return -1;
        /* the budget never ends a case before its least rounds: fewer decide nothing */
        if ((done && c->rounds >= o->rmin) || c->rounds >= o->rmax ||
            (c->rounds >= o->rmin && (vb_mono_ns() - t0) * 1e-9 >= o->budget))
            break;
        /* after the first round, K so that a side's round takes about 20 ms (1 to 50) */
        if (o->k <= 0 && c->rounds == 1) {
            double e2e = fmax(c->v[0][VB_PH_E2E][0], c->v[1][VB_PH_E2E][0]);
            k = e2e > 0 ? (int)fmin(50, fmax(1, ceil(20e6 / e2e))) : 3;
        }
    }
    return tell(&ab[0], "done") || tell(&ab[1], "done") ? died(&ab[0], err) : 0;
}

/* verdict_line: the worst of c's judged phases, as the progress line says it */
static const char *verdict_line(const struct vb_paired_case *c)
{
    enum vb_verdict v = VB_VERDICT_SAME;
    int ph;
    for (ph = 0; ph < VB_PH_COUNT; ph++)
        if (c->judged[ph] && vb_cmp_severity(c->ph[ph].verdict) > vb_cmp_severity(v))
            v = c->ph[ph].verdict;
    return vb_verdict_name(v);
}

/* paired_of: the case of label among the n paired ones, or NULL */
static const struct vb_paired_case *paired_of(struct vb_paired_case *const *cases, int n,
                                              const char *label)
{
    int i;
    for (i = 0; i < n; i++)
        if (!strcmp(cases[i]->label, label)) return cases[i];
    return NULL;
}

/* solo tells side s to run its announced case alone */
static int solo(struct side *s, struct vb_err *err)
{
    s->cur[0] = '\0';
    return tell(s, "solo") ? died(s, err) : 0;
}

/* match runs both sides to their end: a case both announce is paired (unless it is a CPU case
 * of a run with GPU cases: those run alone, as compare leaves them out), one only one side
 * makes, or that the other has passed (it failed before its rounds there), runs alone */
static int match(struct side *ab, const struct opts *o, struct vb_paired_case **cases, int *n,
                 struct vb_err *err)
{
    int gpu_run = 0, i;
    for (i = 0; i < ab[0].nplan; i++)
        gpu_run |= ab[0].kind[i] == 'g';
    for (;;) {
        struct side *a = &ab[0], *b = &ab[1];
        if (announced(a, err) || announced(b, err)) return -1;
        if (a->ended && b->ended) return 0;
        if (a->cur[0] && b->cur[0] && !strcmp(a->cur, b->cur)) {
            struct vb_paired_case *c;
            int pa = pos(a, a->cur);
            /* a case outside the plan (none is: each is at most once in it, and the cases
             * array has a slot each) runs alone; so does a CPU case of a GPU run */
            if (pa < 0 || pos(b, b->cur) < 0 || *n >= a->nplan || (gpu_run && a->kind[pa] == 'c')) {
                if (solo(a, err) || solo(b, err)) return -1;
                continue;
            }
            if (!(c = cases[(*n)++] = calloc(1, sizeof *c)))
                return vb_err_set(err, VB_E_SYS, "out of memory for a case's rounds");
            snprintf(c->label, LABEL, "%s", a->cur);
            if (pair(ab, c, o, err)) return -1;
            if (vb_progress_wanted(stderr)) /* minutes for a catalog: a line a case */
                fprintf(stderr, "ab: [%d/%d] %s: %d rounds, %s\n", pa + 1, a->nplan, a->cur,
                        c->rounds, verdict_line(c));
            a->cur[0] = b->cur[0] = '\0';
            continue;
        }
        /* the side whose case the other will not reach runs it alone */
        for (i = 0; i < 2; i++) {
            struct side *s = &ab[i], *t = &ab[!i];
            int there = s->cur[0] ? pos(t, s->cur) : -1, at = t->cur[0] ? pos(t, t->cur) : -1;
            if (s->cur[0] && (there < 0 || t->ended || (at >= 0 && at > there))) {
                if (solo(s, err)) return -1;
                break;
            }
        }
        if (i == 2 && a->cur[0] && b->cur[0]) /* each ahead of the other: the order differs */
            if (solo(a, err)) return -1;
    }
}

/* result builds res from both sides' plans, the paired cases and the runs' statuses */
static int result(struct side *ab, struct vb_paired_case *const *cases, int ncases,
                  struct vb_store *st, struct vb_cmp_result *res, struct vb_err *err)
{
    struct vb_case_row *rows[2] = {NULL, NULL};
    int nrows[2] = {0, 0}, i, k, gpu_run = 0, rc = -1;
    memset(res, 0, sizeof *res);
    res->run_base = ab[0].run;
    res->run_cand = ab[1].run;
    res->dev_base = res->dev_cand = -1;
    for (i = 0; i < ab[0].nplan; i++)
        gpu_run |= ab[0].kind[i] == 'g';
    if (vb_store_cases(st, ab[0].run, &rows[0], &nrows[0], err) ||
        vb_store_cases(st, ab[1].run, &rows[1], &nrows[1], err))
        goto done;
    if (!(res->rows = calloc((size_t)(ab[0].nplan + ab[1].nplan + 1), sizeof *res->rows))) {
        vb_err_set(err, VB_E_SYS, "out of memory for the result");
        goto done;
    }
    for (k = 0; k < 2; k++)
        for (i = 0; i < ab[k].nplan; i++) {
            const char *label = ab[k].plan[i], *sp = strchr(label, ' ');
            const struct vb_case_row *ra = vb_ab_case_row(rows[0], nrows[0], label),
                                     *rb = vb_ab_case_row(rows[1], nrows[1], label);
            const char *sa = ra ? ra->status : "", *sb = rb ? rb->status : "";
            int in_a = pos(&ab[0], label) >= 0, in_b = pos(&ab[1], label) >= 0, same = -1;
            const struct vb_paired_case *c;
            struct vb_cmp_row *r;
            if (k == 1 && in_a) continue; /* listed with A's */
            r = &res->rows[res->nrows++];
            r->ratio = r->p = r->spread = r->limit = r->e2e_ratio = r->med_base = r->med_cand = NAN;
            r->code_same = -1;
            snprintf(r->variant, sizeof r->variant, "%.*s", sp ? (int)(sp - label) : 0, label);
            snprintf(r->axes, sizeof r->axes, "%s", sp ? sp + 1 : "");
            snprintf(r->status_base, sizeof r->status_base, "%s", sa[0] ? sa : "-");
            snprintf(r->status_cand, sizeof r->status_cand, "%s", sb[0] ? sb : "-");
            r->needs_gpu = ab[k].kind[i] != 'c';
            if (!in_b)
                r->verdict = VB_VERDICT_ONLY_BASE;
            else if (!in_a)
                r->verdict = VB_VERDICT_ONLY_CAND;
            else if (strcmp(sa, "ok")) {
                r->verdict = VB_VERDICT_NOT_COMPARED;
                snprintf(r->why, sizeof r->why, "%s in A", sa[0] ? sa : "not run");
            } else if (!strcmp(sb, "wrong-result") || !strcmp(sb, "failed"))
                r->verdict = VB_VERDICT_BROKEN;
            else if ((c = paired_of(cases, ncases, label))) {
                if (ra && rb && vb_code_case(st, ra->id, st, rb->id, &same, err)) goto done;
                vb_ab_fill_row(r, c, same);
                if (ra && rb) vb_cmp_environment(ra, rb, r, vb_cmp_phase_label(r->phase));
            } else {
                r->verdict = VB_VERDICT_NOT_COMPARED;
                snprintf(r->why, sizeof r->why, "%s",
                         gpu_run && !r->needs_gpu ? "run alone: GPU cases decide" : "not paired");
            }
            res->count[r->verdict]++;
            if (r->verdict <= VB_VERDICT_BROKEN && (!gpu_run || r->needs_gpu)) res->compared++;
        }
    if (!res->compared)
        snprintf(res->why, sizeof res->why,
                 "no case was made and verified by both A and B (check --filter, and that both "
                 "are builds of the same benchmarks)");
    rc = 0;
done:
    if (rc) vb_cmp_result_free(res);
    free(rows[0]);
    free(rows[1]);
    return rc;
}

/* finish waits for a side's process: 0 when it ended as a run may (0, 1 wrong or failed cases,
 * 4 GPU cases skipped), else -1 with err */
static int finish(struct side *s, struct vb_err *err)
{
    int st = 0;
    if (s->from) fclose(s->from);
    if (s->to) fclose(s->to);
    s->from = s->to = NULL;
    if (s->pid <= 0) return 0;
    if (waitpid(s->pid, &st, 0) != s->pid)
        return vb_err_set(err, VB_E_SYS, "waitpid: %s", strerror(errno));
    s->pid = 0;
    if (WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 1 || WEXITSTATUS(st) == 4))
        return 0;
    return vb_err_set(err, VB_E_SYS, "%s (%s) ended with %s %d", s->name, s->exe,
                      WIFSIGNALED(st) ? "signal" : "exit",
                      WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
}

/* stop ends a side: its pipes closed (a side waiting on them stops as an interrupted run),
 * SIGTERM, waited for */
static void stop(struct side *s)
{
    if (s->from) fclose(s->from);
    if (s->to) fclose(s->to);
    s->from = s->to = NULL;
    if (s->pid > 0) {
        kill(s->pid, SIGTERM);
        waitpid(s->pid, NULL, 0);
        s->pid = 0;
    }
    if (s->log[0]) unlink(s->log);
    free(s->plan);
    free(s->kind);
}

static int option_rounds(void *ctx, const char *arg, struct vb_err *err)
{
    struct opts *o = ctx;
    int end = 0;
    if (sscanf(arg, "%d:%d%n", &o->rmin, &o->rmax, &end) != 2 || arg[end] || o->rmin < 6 ||
        o->rmax < o->rmin || o->rmax > VB_AB_MAX_ROUND)
        return vb_err_set(err, VB_E_USAGE,
                          "bad --rounds '%s': MIN:MAX, 6 <= MIN <= MAX <= %d (6: the fewest "
                          "whose interval holds the median with 95%%)",
                          arg, VB_AB_MAX_ROUND);
    return 0;
}

int vb_cmd_ab(int argc, char **argv)
{
    static const char *const formats[] = {"table", "md", NULL};
    struct opts o = {
        .db = VB_DEFAULT_DB, .rmin = 6, .rmax = 30, .threshold = 2, .alpha = 0.05, .budget = 5};
    struct side ab[2] = {{.name = "A"}, {.name = "B"}};
    struct vb_paired_case **cases = NULL; /* the cases timed in rounds */
    struct vb_cmp_result res;
    struct vb_store *st = NULL;
    struct vb_run_info_row info;
    struct vb_err err;
    int n, rc, i, ncases = 0, code, dash = argc;
    const struct vb_opt opts[] = {
        VB_OPT_DB(&o.db, "database both runs go into (default " VB_DEFAULT_DB ")"),
        VB_OPT_STR('f', "filter", "GLOB", &o.filter, "variants to pair ('mesh/*'; default all)"),
        VB_OPT_LIST(0, "axis", "NAME=V1,V2", &o.axes, "axis values, as for run"),
        VB_OPT_INT(0, "device", "N", &o.device, 0, 63, "the CUDA device both sides run on (0)"),
        VB_OPT_FLAG(0, "quick", &o.quick,
                    "both sides' run --quick (their warm-up, and the rule of cases run alone)"),
        VB_OPT_CALL(0, "rounds", "MIN:MAX", &o, option_rounds,
                    "rounds a case: at least MIN (6), at most MAX (30)"),
        VB_OPT_INT(0, "round-samples", "K", &o.k, 1, 1000,
                   "samples a side a round (default: 3, then what takes ~20 ms, 1 to 50)"),
        VB_OPT_NUM(0, "budget", "S", &o.budget, 0.01, 86400,
                   "seconds of rounds a case at most (default 5): then noisy if undecided"),
        VB_OPT_NUM(0, "threshold", "PCT", &o.threshold, 0, 999,
                   "relative change that matters (default 2)"),
        VB_OPT_NUM(0, "alpha", "A", &o.alpha, 1e-6, 0.5,
                   "1 - the intervals' coverage (default 0.05)"),
        VB_OPT_CHOICE(0, "format", "table|md", &o.md, formats,
                      "output: aligned table (default) or Markdown (pull-request comment)"),
        VB_OPT_STR(0, "junit", "FILE", &o.junit,
                   "also write a JUnit XML report (slower/broken cases fail)"),
        VB_OPT_FLAG(0, "no-counters", &o.no_counters,
                    "do not run the cases that moved again for their counters"),
        VB_OPT_END()};
    for (i = 1; i < argc; i++) /* what follows -- is both sides' run's */
        if (!strcmp(argv[i], "--")) {
            dash = i;
            break;
        }
    if (dash < argc) {
        o.extra = argv + dash + 1;
        o.nextra = argc - dash - 1;
        if (o.nextra > MAX_ARGS) return vb_opt_error(&usage, "more than %d RUN-OPTIONS", MAX_ARGS);
    }
    if ((rc = vb_opt_parse(&usage, opts, dash, argv, &n))) return rc == 1 ? 0 : rc;
    o.threshold /= 100;
    vb_err_clear(&err);
    ab[0].exe = argv[1];
    ab[1].exe = argv[2];
    signal(SIGPIPE, SIG_IGN); /* a side that died: its pipe's error, said, not a silent death */
    for (i = 0; i < 2; i++)
        if (access(ab[i].exe, X_OK))
            return vb_opt_error_hint(&usage,
                                     "a path to a varbench binary or a benchmark program built "
                                     "with varbench (./build/varbench, ../base/build/varbench)",
                                     "%s: '%s' is not an executable file (%s)", ab[i].name,
                                     ab[i].exe, strerror(errno));
    for (i = 0; i < 2; i++)
        if (start(&ab[i], &o, &err) || hello(&ab[i], &err)) goto fail;
    if (!(cases = calloc((size_t)(ab[0].nplan + 1), sizeof *cases))) {
        vb_err_set(&err, VB_E_SYS, "out of memory");
        goto fail;
    }
    if (match(ab, &o, cases, &ncases, &err) || finish(&ab[0], &err) || finish(&ab[1], &err))
        goto fail;
    if (vb_store_open_ro(o.db, &st, &err) || result(ab, cases, ncases, st, &res, &err)) goto fail;
    if (!o.no_counters) {
        /* the programs that were timed, by path (a bare name is a file here, as execv took it,
         * not one on PATH) */
        char *pa = realpath(ab[0].exe, NULL), *pb = realpath(ab[1].exe, NULL);
        const struct vb_ab_sides sides = {
            {pa ? pa : ab[0].exe, pb ? pb : ab[1].exe}, o.db, o.device, o.extra, o.nextra};
        int bad = vb_ab_explain(&sides, st, &res, o.threshold, &err);
        free(pa);
        free(pb);
        if (bad) {
            vb_cmp_result_free(&res);
            goto fail;
        }
    }
    if (vb_store_run_info(st, ab[0].run, &info, &err)) info.gpu[0] = '\0';
    vb_err_clear(&err);
    snprintf(res.gpu_base, sizeof res.gpu_base, "%s", info.gpu);
    snprintf(res.gpu_cand, sizeof res.gpu_cand, "%s", info.gpu);
    printf(o.md ? "### varbench paired A/B\n\n" : "paired A/B: ");
    printf("A %s (run %lld) vs B %s (run %lld) in %s, taking turns on device %d (%s); threshold "
           "%g%% (host-bound phases also against their controls), alpha %g, %d to %d rounds, "
           "%g s a case\n%s",
           ab[0].exe, (long long)ab[0].run, ab[1].exe, (long long)ab[1].run, o.db, o.device,
           info.gpu[0] ? info.gpu : "no GPU", o.threshold * 100, o.alpha, o.rmin, o.rmax, o.budget,
           o.md ? "\n" : "");
    vb_cmp_print_rows(&res, o.md, "rounds");
    if (vb_cmp_code(st, ab[0].run, st, ab[1].run, o.md, &err)) {
        vb_cmp_result_free(&res);
        goto fail;
    }
    code = vb_cmp_exit(&res);
    printf("%sverdict: %s (exit %d)\n", o.md ? "\n" : "",
           code == 1 ? "REGRESSION"
           : code    ? "INCONCLUSIVE"
                     : "no regression",
           code);
    if (o.junit && vb_cmp_write_junit(o.junit, &res, "varbench ab")) {
        fprintf(stderr,
                "varbench ab: cannot write the JUnit file '%s' (exit %d; the verdict above "
                "stands)\n",
                o.junit, vb_code_exit(VB_E_SYS));
        code = vb_code_exit(VB_E_SYS);
    }
    vb_cmp_result_free(&res);
    goto end;
fail:
    code = vb_report_error("ab", &err);
end:
    for (i = 0; i < ncases; i++)
        free(cases[i]);
    free(cases);
    vb_store_close(st);
    stop(&ab[0]);
    stop(&ab[1]);
    return code;
}
