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

#include "activity.h"
#include "cmd.h"
#include "env.h"
#include "logpath.h"
#include "nvprof_print.h"
#include "nvtx.h"
#include "store.h"
#include "summary.h"
#include "tools.h"
#include "trace.h"
#include "trace_opts.h"

/* find_inject puts the absolute path of the injection library into buf: $VARBENCH_VB_INJECT_LIB,
 * else next to the varbench binary, else in ../lib from it (an installed layout). */
static int find_inject(char *buf, size_t n, struct vb_err *err)
{
    const char *env = getenv("VARBENCH_VB_INJECT_LIB");
    char exe[PATH_MAX], cand[PATH_MAX + 64], *slash;
    ssize_t k;
    if (env && *env) {
        if (access(env, R_OK) == 0 && realpath(env, buf)) return 0;
        vb_err_set(err, VB_E_SYS, "VARBENCH_VB_INJECT_LIB='%s': %s", env, strerror(errno));
        return vb_err_hint(err, "point it at the %s built with varbench, or unset it",
                           VB_INJECT_LIB);
    }
    k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k <= 0) return vb_err_set(err, VB_E_SYS, "cannot read /proc/self/exe: %s", strerror(errno));
    exe[k] = '\0';
    slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    snprintf(cand, sizeof cand, "%s/%s", exe, VB_INJECT_LIB);
    if (access(cand, R_OK) == 0 && realpath(cand, buf) && strlen(buf) < n) return 0;
    snprintf(cand, sizeof cand, "%s/../lib/%s", exe, VB_INJECT_LIB);
    if (access(cand, R_OK) == 0 && realpath(cand, buf) && strlen(buf) < n) return 0;
    vb_err_set(err, VB_E_SYS, "cannot find %s next to the varbench binary (in '%s')", VB_INJECT_LIB,
               exe);
    return vb_err_hint(err, "build the target varbench_inject (cmake --build build), or set "
                            "VARBENCH_VB_INJECT_LIB to the library's path");
}

static volatile sig_atomic_t child, got_signal;
static pid_t program; /* the command's pid, once started (%p of --log-file) */
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
        char root[32]; /* the process COMMAND is: needs no pid to be told from its children */
        close(pfd[0]);
        snprintf(root, sizeof root, "%ld", (long)getpid());
        setenv(VB_TRACE_ENV_ROOT, root, 1); /* failing, it is named by its pid, as its children */
        execvp(cmd[0], cmd);
        e = errno;
        if (write(pfd[1], &e, sizeof e) < 0) {
        } /* the parent then sees no errno: exit 127 */
        _exit(e == ENOENT ? 127 : 126);
    }
    child = pid;
    program = pid;
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
    *ncases = *nuntraced = 0;
    why[0] = '\0';
    for (i = 0; i < k; i++) {
        if (!vb_store_whole_process(c[i].family, c[i].axes)) continue; /* a process's ranges */
        ++*ncases;
        if (strcmp(c[i].status, "ok")) {
            if (!(*nuntraced)++) snprintf(why, n, "%s", c[i].reason);
        }
    }
    free(c);
    return 0;
}

/* A trace run being recorded. */
struct trace_run {
    struct vb_store *st;
    int64_t id;
    char db[PATH_MAX]; /* the database as given (expanded -o) */
};

/* fail_run ends the run as failed with err's message and returns the exit code. */
static int fail_run(struct trace_run *r, struct vb_err *err)
{
    struct vb_err ignored;
    int code = vb_report_error("trace", err);
    if (r->id) vb_store_run_end(r->st, r->id, "failed", code, err->msg, &ignored);
    vb_store_close(r->st);
    return code;
}

/* open_db opens the database of o (-o: a new file, replaced with -f) and begins the run. 0, or
 * an exit code after saying why. */
static int open_db(const struct vb_trace_opts *o, const char *label, const char *injection,
                   struct trace_run *r, char *dbabs)
{
    struct vb_err err;
    struct vb_run_info info;
    struct vb_host_env host;
    char cwd[PATH_MAX], optline[PATH_MAX + 512], form[160];
    vb_err_clear(&err);
    memset(r, 0, sizeof *r);
    if (o->out) {
        if (vb_log_path(o->out, (long)getpid(), r->db, sizeof r->db, &err))
            return vb_report_error("trace", &err);
        if (access(r->db, F_OK) == 0 && !o->force) {
            vb_err_set(&err, VB_E_USAGE, "-o '%s': the file exists", r->db);
            vb_err_hint(&err, "-f replaces it (as nvprof's); --db %s adds a run to it", r->db);
            return vb_report_error("trace", &err);
        }
        if (o->force && vb_store_remove(r->db, &err)) return vb_report_error("trace", &err);
    } else {
        snprintf(r->db, sizeof r->db, "%s", o->db);
    }
    if (vb_store_open(r->db, &r->st, &err)) return vb_report_error("trace", &err);
    if (!realpath(r->db, dbabs)) {
        vb_err_set(&err, VB_E_DB, "database '%s': cannot resolve its path: %s", r->db,
                   strerror(errno));
        return fail_run(r, &err);
    }
    snprintf(optline, sizeof optline, "name=%s injection=%s trace=%s capture=%s%s%s", label,
             injection, o->kinds, vb_capture_format(&o->capture, form, sizeof form),
             o->metrics ? " metrics=" : "", o->metrics ? o->metric_names : "");
    info.kind = "trace";
    info.command_line = vb_command_line;
    info.cwd = getcwd(cwd, sizeof cwd) ? cwd : NULL;
    info.git_commit = vb_git_commit;
    info.version = VB_VERSION;
    info.options = optline;
    vb_env_host(&host);
    if (vb_store_run_begin(r->st, &info, &r->id, &err) || vb_store_host(r->st, r->id, &host, &err))
        return fail_run(r, &err);
    return 0;
}

/* preload_env puts the CUPTI sharer (libvarbench_preload.so, beside the injection lib) first in
 * the program's LD_PRELOAD; without it a CUPTI client of the program takes CUPTI from varbench
 * (said). 0 or -1 with err. */
static int preload_env(const char *lib, struct vb_err *err)
{
    const char *old = getenv("LD_PRELOAD");
    char path[PATH_MAX], *slash, *value;
    size_t n;
    int rc;
    snprintf(path, sizeof path, "%s", lib);
    slash = strrchr(path, '/');
    snprintf(slash ? slash + 1 : path, sizeof path - (size_t)(slash ? slash + 1 - path : 0), "%s",
             VB_PRELOAD_LIB);
    if (access(path, R_OK)) {
        fprintf(stderr,
                "varbench trace: %s: %s: a CUPTI client of the program (torch.profiler) will take "
                "CUPTI's records from varbench\nhint: build the target varbench_preload\n",
                path, strerror(errno));
        return 0;
    }
    n = strlen(path) + (old ? strlen(old) : 0) + 2;
    if (!(value = malloc(n))) return vb_err_set(err, VB_E_SYS, "out of memory");
    snprintf(value, n, "%s%s%s", path, old && *old ? ":" : "", old && *old ? old : "");
    rc = setenv("LD_PRELOAD", value, 1);
    free(value);
    return rc ? vb_err_set(err, VB_E_SYS, "cannot set LD_PRELOAD: %s", strerror(errno)) : 0;
}

/* child_env hands the injection what it needs; 0 or -1 with err */
static int child_env(const struct vb_trace_opts *o, const char *lib, const char *dbabs,
                     int64_t run_id, const char *label, struct vb_err *err)
{
    const char *user_nvtx = vb_nvtx_user_injection();
    char runbuf[32], form[160], ranges[VB_TRACE_MAX_NAMED * 130 + 8],
        kernels[VB_TRACE_MAX_NAMED * 258];
    snprintf(runbuf, sizeof runbuf, "%lld", (long long)run_id);
    /* NVTX goes to varbench's own recorder (nvtx_record.h), unless the user named a tool */
    if (user_nvtx)
        fprintf(stderr,
                "varbench trace: NVTX_INJECTION64_PATH=%s is kept: NVTX ranges go to that tool, "
                "and varbench records none\n",
                user_nvtx);
    else if (setenv("NVTX_INJECTION64_PATH", lib, 1))
        return vb_err_set(err, VB_E_SYS, "cannot set NVTX_INJECTION64_PATH: %s", strerror(errno));
    if (preload_env(lib, err)) return -1;
    if (setenv("CUDA_INJECTION64_PATH", lib, 1) || setenv(VB_TRACE_ENV_DB, dbabs, 1) ||
        setenv(VB_TRACE_ENV_RUN, runbuf, 1) || setenv(VB_TRACE_ENV_NAME, label, 1) ||
        setenv(VB_TRACE_ENV_KINDS, o->kinds, 1) ||
        setenv(VB_TRACE_ENV_CAPTURE, vb_capture_format(&o->capture, form, sizeof form), 1) ||
        (o->all_apis ? setenv(VB_TRACE_ENV_ALL_APIS, "1", 1) : unsetenv(VB_TRACE_ENV_ALL_APIS)) ||
        setenv(VB_TRACE_ENV_RANGES, vb_trace_pick_format(&o->pick, 0, ranges, sizeof ranges), 1) ||
        setenv(VB_TRACE_ENV_KERNELS, vb_trace_pick_format(&o->pick, 1, kernels, sizeof kernels),
               1) ||
        (o->metrics ? setenv(VB_TRACE_ENV_METRICS, o->metric_names, 1)
                    : unsetenv(VB_TRACE_ENV_METRICS)))
        return vb_err_set(err, VB_E_SYS, "cannot set the environment of the command: %s",
                          strerror(errno));
    return 0;
}

/* leave_to_tool keeps the environment as the tool made it: no NVTX injection of ours */
static void leave_to_tool(const char *tool, const char *evidence)
{
    if (!vb_nvtx_user_injection()) unsetenv("NVTX_INJECTION64_PATH"); /* main()'s, for itself */
    fprintf(stderr,
            "varbench trace: %s is in charge (%s): the program runs under it, untraced by "
            "varbench\n",
            tool, evidence);
}

/* store_skipped records the process run under another tool as one skipped case */
static void store_skipped(struct trace_run *r, const char *label, uint64_t start, uint64_t end,
                          const char *tool, const char *evidence)
{
    struct vb_trace_case t;
    struct vb_err err;
    char how[64], reason[1024];
    snprintf(how, sizeof how, "exit (pid %d)", (int)program);
    snprintf(reason, sizeof reason,
             "untraced: run under %s (%s); CUDA takes one tool at a time: run varbench trace "
             "outside it",
             tool, evidence);
    vb_trace_case_untraced(&t, label, start, end, how, reason);
    vb_err_clear(&err);
    if (vb_store_case(r->st, r->id, &t.r, NULL, &err))
        fprintf(stderr, "varbench trace: the skipped case was not stored: %s\n", err.msg);
    vb_trace_case_free(&t);
}

/* outcome writes the run's message for a command that ran: how it ended and what was traced */
static void outcome(char *msg, size_t n, int sig, int code, const char *tool, int ncases,
                    int nuntraced, const char *why)
{
    size_t k;
    char probe[512];
    if (sig)
        snprintf(msg, n, "the program was ended by signal %d (%s); ", sig, signame(sig));
    else
        snprintf(msg, n, "the program exited with status %d; ", code);
    k = strlen(msg);
    if (tool)
        snprintf(msg + k, n - k, "untraced: it ran under %s", tool);
    else if (ncases == 0 && vb_cuda_probe(0, probe, sizeof probe))
        snprintf(msg + k, n - k,
                 "no process was traced: CUDA cannot start here (%s), so its CUDA calls, if any, "
                 "failed",
                 probe);
    else if (ncases == 0 && sig)
        snprintf(msg + k, n - k,
                 "no traced process was stored (the program made no CUDA calls, or a process "
                 "killed outright lost its trace)");
    else if (ncases == 0)
        snprintf(msg + k, n - k, "the program made no CUDA calls: the run is stored empty");
    else
        snprintf(msg + k, n - k, "%d process%s traced%s%s", ncases - nuntraced,
                 ncases - nuntraced == 1 ? "" : "es", nuntraced ? ", untraced: " : "",
                 nuntraced ? why : "");
}

/* print_results prints what the flags ask for, on stderr or into --log-file */
static int print_results(const struct vb_trace_opts *o, struct trace_run *r)
{
    struct vb_err err;
    struct vb_print_opts p = {.summary = o->summary,
                              .gpu_trace = o->gpu_trace,
                              .api_trace = o->api_trace,
                              .csv = o->csv,
                              .rank = -1,
                              .after_head = vb_print_ranks};
    char path[PATH_MAX];
    FILE *out = stderr;
    int rc;
    vb_err_clear(&err);
    if (o->log_file && !(out = vb_log_open(o->log_file, (long)program, path, sizeof path, &err)))
        return vb_report_error("trace", &err);
    fflush(stdout);
    rc = vb_nvprof_print(out, r->st, r->id, &p, &err);
    if (out != stderr && fclose(out) && !rc) {
        vb_err_set(&err, VB_E_SYS, "--log-file '%s': %s", path, strerror(errno));
        rc = -1;
    }
    if (rc) return vb_report_error("trace", &err);
    if (out != stderr) fprintf(stderr, "varbench trace: the profiling result is in %s\n", path);
    return 0;
}

int vb_cmd_trace(int argc, char **argv)
{
    struct vb_trace_opts o;
    struct trace_run r;
    struct vb_err err;
    struct sigaction sa, old[sizeof passed / sizeof passed[0]];
    char lib[PATH_MAX], dbabs[PATH_MAX], label[96], msg[1600], why[1024], tool[64], evidence[512];
    const char *status;
    uint64_t t0, t1;
    int rc, wstatus = 0, exec_errno = 0, code, ncases = 0, nuntraced = 0, sig = 0, under;
    size_t i;
    vb_err_clear(&err);
    if ((rc = vb_trace_parse(argc, argv, &o))) return rc == 1 ? 0 : rc;
    if (find_inject(lib, sizeof lib, &err)) return vb_report_error("trace", &err);
    if (o.name)
        snprintf(label, sizeof label, "%s", o.name);
    else
        vb_trace_label(o.ncmd, o.cmd, label, sizeof label);
    under = vb_tool_detect(lib, tool, sizeof tool, evidence, sizeof evidence);
    if ((rc = open_db(&o, label, under ? evidence : lib, &r, dbabs))) return rc;
    if (under)
        leave_to_tool(tool, evidence);
    else if (child_env(&o, lib, dbabs, r.id, label, &err))
        return fail_run(&r, &err);

    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof passed / sizeof passed[0]; i++)
        sigaction(passed[i], &sa, &old[i]);
    t0 = vb_activity_now();
    rc = spawn(o.cmd, &wstatus, &exec_errno, &err);
    t1 = vb_activity_now();
    for (i = 0; i < sizeof passed / sizeof passed[0]; i++)
        sigaction(passed[i], &old[i], NULL);
    if (rc) return fail_run(&r, &err);

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
        if (under) store_skipped(&r, label, t0, t1, tool, evidence);
        if (tally(r.st, r.id, &ncases, &nuntraced, why, sizeof why, &err)) {
            vb_report_error("trace", &err);
            fail_run(&r, &err); /* best effort */
            return code ? code : vb_code_exit(VB_E_DB);
        }
        status = (sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT || got_signal)
                     ? "interrupted"
                 : sig ? "failed"
                       : "complete";
        outcome(msg, sizeof msg, sig, code, under ? tool : NULL, ncases, nuntraced, why);
    }
    if (vb_store_run_end(r.st, r.id, status, code, msg, &err)) {
        vb_report_error("trace", &err);
        vb_store_close(r.st);
        return code ? code : vb_code_exit(VB_E_DB);
    }
    if (!exec_errno && !under && ncases == 0) fprintf(stderr, "varbench trace: %s\n", msg);
    if (!o.quiet && ncases > nuntraced && print_results(&o, &r) && !code)
        code = vb_code_exit(VB_E_SYS);
    fprintf(stderr,
            "varbench trace: run %lld (%s) stored in %s; 'varbench summary --db %s --run "
            "%lld' shows it\n",
            (long long)r.id, status, r.db, r.db, (long long)r.id);
    vb_store_close(r.st);
    return code;
}
