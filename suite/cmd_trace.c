/*
 * trace: `varbench trace`, nvprof's one-command experience on GPUs nvprof no longer supports.
 * Records a run of kind 'trace' with its host, runs the command with varbench's CUDA
 * injection (libvarbench_inject.so, found next to the varbench binary) and NVTX routed to
 * CUPTI, so every process of it that initialises CUDA writes its own case (inject.c); waits
 * for it, passing on signals sent to varbench alone; ends the run with the command's outcome,
 * prints the summary like nvprof did, and exits with the command's own status. varbench
 * itself never initialises CUDA here: the program's timing is the program's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "env.h"
#include "metric_set.h"
#include "opt.h"
#include "store.h"
#include "summary.h"
#include "trace.h"

#define INJECT_LIB "libvarbench_inject.so"

static const int codes[] = {0, 2, 3, 6, -1};
static const struct vb_usage usage = {
    .cmd = "trace",
    .synopsis = "[--db FILE] [--name LABEL] [--metrics LIST] [-q] [--] COMMAND [ARGS...]",
    .about =
        "Runs COMMAND, an unmodified CUDA program (a binary, 'python3 t38.py', a script), with\n"
        "varbench's CUDA injection: each of its processes that uses CUDA is traced through CUPTI\n"
        "(kernels, copies, memsets, NVTX ranges, CUDA runtime and driver API calls) and stored as\n"
        "one case of a run of kind 'trace' in the database, next to the suite's runs. When the\n"
        "command ends, nvprof's summary is printed on stderr ('varbench summary' prints it "
        "again).\n",
    .notes =
        "A Ctrl-C reaches the program as usual; SIGINT, SIGTERM, SIGHUP or SIGQUIT sent to "
        "varbench\n"
        "alone is passed on to it. A process stores its trace when it exits (exit(), an uncaught\n"
        "Python exception, Ctrl-C, SIGTERM); one killed outright (SIGKILL, a crash) loses it.\n"
        "Environment: VARBENCH_INJECT_LIB overrides where " INJECT_LIB " is looked for.\n"
        "\n"
        "Exit status, as nvprof's: once COMMAND has started, COMMAND's own exit status (128+N "
        "when\n"
        "signal N ended it; 126 COMMAND is not executable, 127 COMMAND not found: the run is "
        "stored\n"
        "as failed), or 3 when COMMAND succeeded but the run could not be completed in the\n"
        "database. Before COMMAND starts, the table below (6: " INJECT_LIB " not found).\n",
    .codes = codes,
    .min_args = 1,
    .max_args = -1,
    .expects = "a COMMAND to trace (varbench trace [options] -- COMMAND [ARGS...])",
    .stop_at_arg = 1,
};

struct opts {
    const char *db, *name, *metrics;
    char metric_names[VB_MAX_METRICS * VB_METRIC_NAME]; /* resolved, comma-separated */
    int quiet;
    char **cmd; /* NULL-terminated */
    int ncmd;
};

/* parse fills o; returns 0, 1 for --help (printed), or an exit code >= 2. Options end at the
 * first argument that is not one (or at "--"), so the command's own options stay its own. */
static int parse(int argc, char **argv, struct opts *o)
{
    int n, rc;
    const struct vb_opt opts[] = {
        VB_OPT_DB(&o->db, "database (default " VB_DEFAULT_DB "; created if missing)"),
        VB_OPT_STR(0, "name", "LABEL", &o->name,
                   "the name of the program's cases (default: the script or program run,\n"
                   "e.g. t38.py for 'python3 t38.py')"),
        VB_OPT_STR(0, "metrics", "LIST", &o->metrics,
                   "hardware counters of the traced kernels by kernel replay (nvprof names\n"
                   "such as gst_efficiency, Nsight Compute names, 'default'; see\n"
                   "'varbench list --metrics'); kernels then carry no timestamps"),
        VB_OPT_FLAG('q', "quiet", &o->quiet,
                    "no summary at the end, only the line that says where the run is"),
        VB_OPT_END()};
    memset(o, 0, sizeof *o);
    o->db = VB_DEFAULT_DB;
    if ((rc = vb_opt_parse(&usage, opts, argc, argv, &n))) return rc;
    if (!strcmp(o->db, ":memory:"))
        return vb_opt_error(&usage,
                            "--db '%s': the traced processes write to the database, so it "
                            "must be a file",
                            o->db);
    if (o->name && strchr(o->name, '/'))
        return vb_opt_error(&usage, "bad --name '%s': a non-empty name without '/'", o->name);
    if (o->name && strlen(o->name) >= 96)
        return vb_opt_error(&usage, "--name '%s' is too long (95 at most)", o->name);
    if (o->metrics) {
        struct vb_metric_set set;
        struct vb_err err;
        size_t used = 0;
        int i;
        if (vb_metric_set_parse(o->metrics, &set, &err)) {
            fprintf(stderr, "varbench trace: --metrics: %s\n", err.msg);
            if (err.hint[0]) fprintf(stderr, "hint: %s\n", err.hint);
            return vb_code_exit(VB_E_USAGE);
        }
        /* the resolved names travel to the injection library in the environment */
        for (i = 0; i < set.n; i++)
            used += (size_t)snprintf(o->metric_names + used, sizeof o->metric_names - used, "%s%s",
                                     i ? "," : "", set.names[i]);
    }
    o->cmd = argv + 1;
    o->ncmd = n;
    return 0;
}

/* find_inject puts the absolute path of the injection library into buf: $VARBENCH_INJECT_LIB,
 * else next to the varbench binary, else in ../lib from it (an installed layout). */
static int find_inject(char *buf, size_t n, struct vb_err *err)
{
    const char *env = getenv("VARBENCH_INJECT_LIB");
    char exe[PATH_MAX], cand[PATH_MAX + 64], *slash;
    ssize_t k;
    if (env && *env) {
        if (access(env, R_OK) == 0 && realpath(env, buf)) return 0;
        vb_err_set(err, VB_E_SYS, "VARBENCH_INJECT_LIB='%s': %s", env, strerror(errno));
        return vb_err_hint(err, "point it at the %s built with varbench, or unset it", INJECT_LIB);
    }
    k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k <= 0) return vb_err_set(err, VB_E_SYS, "cannot read /proc/self/exe: %s", strerror(errno));
    exe[k] = '\0';
    slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    snprintf(cand, sizeof cand, "%s/%s", exe, INJECT_LIB);
    if (access(cand, R_OK) == 0 && realpath(cand, buf) && strlen(buf) < n) return 0;
    snprintf(cand, sizeof cand, "%s/../lib/%s", exe, INJECT_LIB);
    if (access(cand, R_OK) == 0 && realpath(cand, buf) && strlen(buf) < n) return 0;
    vb_err_set(err, VB_E_SYS, "cannot find %s next to the varbench binary (in '%s')", INJECT_LIB,
               exe);
    return vb_err_hint(err, "build the target varbench_inject (cmake --build build), or set "
                            "VARBENCH_INJECT_LIB to the library's path");
}

static volatile sig_atomic_t child, got_signal;
static const int passed[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/* on_signal keeps varbench alive to record the outcome. A terminal's Ctrl-C (sent by the kernel
 * to the whole foreground group) reached the program too; a signal sent to varbench alone
 * (kill, timeout) is passed on. */
static void on_signal(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    got_signal = sig;
    if (child > 0 && (!si || si->si_code != SI_KERNEL)) kill((pid_t)child, sig);
}

static const char *signame(int sig)
{
    const char *s = strsignal(sig);
    return s ? s : "unknown signal";
}

/* spawn runs the command; sets *status (waitpid's) or *exec_errno when it could not start. */
static int spawn(char **cmd, int *status, int *exec_errno, struct vb_err *err)
{
    int pfd[2], e = 0;
    ssize_t got;
    pid_t pid;
    if (pipe2(pfd, O_CLOEXEC)) return vb_err_set(err, VB_E_SYS, "pipe: %s", strerror(errno));
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        close(pfd[0]);
        close(pfd[1]);
        return vb_err_set(err, VB_E_SYS, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(pfd[0]);
        execvp(cmd[0], cmd);
        e = errno;
        if (write(pfd[1], &e, sizeof e) < 0) {
        } /* the parent then sees no errno: exit 127 */
        _exit(e == ENOENT ? 127 : 126);
    }
    child = pid;
    close(pfd[1]);
    /* the pipe closes at a successful exec (O_CLOEXEC) or carries exec's errno */
    while ((got = read(pfd[0], &e, sizeof e)) < 0 && errno == EINTR) {
    }
    close(pfd[0]);
    *exec_errno = got == (ssize_t)sizeof e ? e : 0;
    while (waitpid(pid, status, 0) < 0)
        if (errno != EINTR) {
            child = 0;
            return vb_err_set(err, VB_E_SYS, "waitpid: %s", strerror(errno));
        }
    child = 0;
    return 0;
}

/* tally reads what the processes stored: cases, the ones that ran untraced, and a reason. */
static int tally(struct vb_store *st, int64_t run_id, int *ncases, int *nuntraced, char *why,
                 size_t n, struct vb_err *err)
{
    struct vb_case_row *c;
    int k, i;
    if (vb_store_cases(st, run_id, &c, &k, err)) return -1;
    *ncases = k;
    *nuntraced = 0;
    why[0] = '\0';
    for (i = 0; i < k; i++)
        if (strcmp(c[i].status, "ok")) {
            if (!(*nuntraced)++) snprintf(why, n, "%s", c[i].reason);
        }
    free(c);
    return 0;
}

int vb_cmd_trace(int argc, char **argv)
{
    struct opts o;
    struct vb_err err, ignored;
    struct vb_store *st = NULL;
    struct vb_run_info info;
    struct vb_host_env host;
    struct sigaction sa, old[sizeof passed / sizeof passed[0]];
    char lib[PATH_MAX], dbabs[PATH_MAX], cwd[PATH_MAX], label[96], optline[PATH_MAX + 256];
    char runbuf[32], msg[1400], why[1024];
    const char *prev, *status;
    int64_t run_id = 0;
    int rc, wstatus = 0, exec_errno = 0, code, foreign = 0, ncases = 0, nuntraced = 0, sig = 0;
    size_t i;
    vb_err_clear(&err);
    if ((rc = parse(argc, argv, &o))) return rc == 1 ? 0 : rc;
    if (find_inject(lib, sizeof lib, &err)) return vb_report_error("trace", &err);
    if (o.name)
        snprintf(label, sizeof label, "%s", o.name);
    else
        vb_trace_label(o.ncmd, o.cmd, label, sizeof label);
    prev = getenv("CUDA_INJECTION64_PATH");
    if (prev && *prev) {
        char p[PATH_MAX];
        foreign = !(realpath(prev, p) && !strcmp(p, lib));
    }
    if (vb_store_open(o.db, &st, &err)) return vb_report_error("trace", &err);
    if (!realpath(o.db, dbabs)) {
        vb_err_set(&err, VB_E_DB, "database '%s': cannot resolve its path: %s", o.db,
                   strerror(errno));
        vb_store_close(st);
        return vb_report_error("trace", &err);
    }
    snprintf(optline, sizeof optline, "name=%s injection=%s", label, foreign ? prev : lib);
    info.kind = "trace";
    info.command_line = vb_command_line;
    info.cwd = getcwd(cwd, sizeof cwd) ? cwd : NULL;
    info.git_commit = vb_git_commit;
    info.version = VB_VERSION;
    info.options = optline;
    vb_env_host(&host);
    if (vb_store_run_begin(st, &info, &run_id, &err) || vb_store_host(st, run_id, &host, &err)) {
        code = vb_report_error("trace", &err);
        if (run_id) vb_store_run_end(st, run_id, "failed", code, err.msg, &ignored);
        vb_store_close(st);
        return code;
    }
    snprintf(runbuf, sizeof runbuf, "%lld", (long long)run_id);
    if (foreign) {
        fprintf(stderr,
                "varbench trace: another CUDA tool is injected (CUDA_INJECTION64_PATH=%s: "
                "nsys or ncu?): the program runs under it, untraced by varbench\n"
                "hint: run varbench trace outside other profilers\n",
                prev);
    } else if (setenv("CUDA_INJECTION64_PATH", lib, 1) || setenv(VB_TRACE_ENV_DB, dbabs, 1) ||
               setenv(VB_TRACE_ENV_RUN, runbuf, 1) || setenv(VB_TRACE_ENV_NAME, label, 1) ||
               (o.metrics ? setenv(VB_TRACE_ENV_METRICS, o.metric_names, 1)
                          : unsetenv(VB_TRACE_ENV_METRICS))) {
        vb_err_set(&err, VB_E_SYS, "cannot set the environment of the command: %s",
                   strerror(errno));
        code = vb_report_error("trace", &err);
        vb_store_run_end(st, run_id, "failed", code, err.msg, &ignored);
        vb_store_close(st);
        return code;
    }
    /* NVTX_INJECTION64_PATH (libcupti, for NVTX ranges) was set by main(), unless the user had */

    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof passed / sizeof passed[0]; i++)
        sigaction(passed[i], &sa, &old[i]);
    rc = spawn(o.cmd, &wstatus, &exec_errno, &err);
    for (i = 0; i < sizeof passed / sizeof passed[0]; i++)
        sigaction(passed[i], &old[i], NULL);
    if (rc) {
        code = vb_report_error("trace", &err);
        vb_store_run_end(st, run_id, "failed", code, err.msg, &ignored);
        vb_store_close(st);
        return code;
    }

    if (exec_errno) {
        code = exec_errno == ENOENT ? 127 : 126;
        snprintf(msg, sizeof msg, "cannot run '%s': %s", o.cmd[0], strerror(exec_errno));
        fprintf(stderr, "varbench trace: %s\nhint: %s\n", msg,
                exec_errno == ENOENT
                    ? "check the command's name and PATH (varbench runs it without a shell)"
                    : "check that it is an executable file");
        status = "failed";
    } else {
        if (WIFSIGNALED(wstatus)) {
            sig = WTERMSIG(wstatus);
            code = 128 + sig;
        } else {
            code = WEXITSTATUS(wstatus);
        }
        if (tally(st, run_id, &ncases, &nuntraced, why, sizeof why, &err)) {
            vb_report_error("trace", &err);
            vb_store_run_end(st, run_id, "failed", code, err.msg, &ignored); /* best effort */
            vb_store_close(st);
            return code ? code : vb_code_exit(VB_E_DB);
        }
        status = (sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT || got_signal)
                     ? "interrupted"
                 : sig ? "failed"
                       : "complete";
        if (sig)
            snprintf(msg, sizeof msg, "the program was ended by signal %d (%s); ", sig,
                     signame(sig));
        else
            snprintf(msg, sizeof msg, "the program exited with status %d; ", code);
        if (foreign)
            snprintf(msg + strlen(msg), sizeof msg - strlen(msg),
                     "untraced: another CUDA tool is injected (CUDA_INJECTION64_PATH=%s)", prev);
        else if (ncases == 0 && sig)
            snprintf(msg + strlen(msg), sizeof msg - strlen(msg),
                     "no traced process was stored (the program made no CUDA calls, or a process "
                     "killed outright lost its trace)");
        else if (ncases == 0)
            snprintf(msg + strlen(msg), sizeof msg - strlen(msg),
                     "the program made no CUDA calls: the run is stored empty");
        else
            snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "%d process%s traced%s%s",
                     ncases - nuntraced, ncases - nuntraced == 1 ? "" : "es",
                     nuntraced ? ", untraced: " : "", nuntraced ? why : "");
    }
    if (vb_store_run_end(st, run_id, status, code, msg, &err)) {
        vb_report_error("trace", &err);
        vb_store_close(st);
        return code ? code : vb_code_exit(VB_E_DB);
    }
    if (!exec_errno && !foreign && ncases == 0)
        fprintf(stderr, "varbench trace: %s\n",
                sig ? msg : "the program made no CUDA calls: the run is stored empty");
    if (!o.quiet && ncases > nuntraced) {
        fflush(stdout);
        if (vb_summary_print(stderr, st, run_id, &err)) vb_report_error("trace", &err);
    }
    fprintf(stderr,
            "varbench trace: run %lld (%s) stored in %s; 'varbench summary --db %s --run "
            "%lld' shows it\n",
            (long long)run_id, status, o.db, o.db, (long long)run_id);
    vb_store_close(st);
    return code;
}
