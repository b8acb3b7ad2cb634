/*
 * workers: one `varbench run` process per device, their output relayed (see workers.h).
 */
#define _GNU_SOURCE
#include "workers.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"

#define LINE_MAX_BYTES 8192

/* One output stream of a worker: stdout (relayed to stdout) or stderr (to stderr). */
struct stream {
    int fd; /* -1 once at its end */
    struct vb_worker *w;
    FILE *to;
    char buf[LINE_MAX_BYTES];
    size_t len;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void vb_worker_tally_print(const struct vb_tally *t)
{
    printf("%s %d %d %d %d %d %d %d %d\n", VB_WORKER_TALLY, t->cases, t->ok, t->wrong,
           t->expected_wrong, t->failed, t->skipped, t->interrupted, t->throttled);
    fflush(stdout);
}

/* line hands one complete line of s on: the tally line is taken, any other is printed with
 * the worker's prefix. */
static void line(struct stream *s, const char *text)
{
    struct vb_tally *t = &s->w->t;
    if (s->to == stdout && !strncmp(text, VB_WORKER_TALLY, sizeof VB_WORKER_TALLY - 1)) {
        s->w->have_tally = sscanf(text + sizeof VB_WORKER_TALLY - 1, "%d %d %d %d %d %d %d %d",
                                  &t->cases, &t->ok, &t->wrong, &t->expected_wrong, &t->failed,
                                  &t->skipped, &t->interrupted, &t->throttled) == 8;
        return;
    }
    fprintf(s->to, "[gpu %d] %s\n", s->w->device, text);
    fflush(s->to);
}

/* drain reads what s has, relays its complete lines, and at its end the rest. */
static void drain(struct stream *s)
{
    ssize_t k = read(s->fd, s->buf + s->len, sizeof s->buf - 1 - s->len);
    char *nl;
    if (k < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (k > 0) s->len += (size_t)k;
    s->buf[s->len] = 0;
    while ((nl = memchr(s->buf, '\n', s->len))) {
        *nl = 0;
        line(s, s->buf);
        s->len -= (size_t)(nl + 1 - s->buf);
        memmove(s->buf, nl + 1, s->len);
        s->buf[s->len] = 0;
    }
    if (k <= 0 || s->len == sizeof s->buf - 1) { /* its end, or a line longer than the buffer */
        if (s->len) line(s, s->buf);
        s->len = 0;
    }
    if (k <= 0) {
        close(s->fd);
        s->fd = -1;
    }
}

/* spawn starts device w->device's worker with its stdout and stderr on pipes (out[0], err[0]
 * left to the caller). 0, or -1 with err. */
static int spawn(const char *exe, int argc, char **argv, int64_t run_id, struct vb_worker *w,
                 int *out, int *errfd, struct vb_err *err)
{
    char spec[64], **av;
    int po[2], pe[2], i;
    pid_t parent = getpid();
    snprintf(spec, sizeof spec, "%lld:%d", (long long)run_id, w->device);
    if (!(av = calloc((size_t)argc + 4, sizeof *av)))
        return vb_err_set(err, VB_E_SYS, "out of memory for a worker's command line");
    av[0] = (char *)exe;
    for (i = 0; i < argc; i++)
        av[i + 1] = argv[i];
    av[argc + 1] = "--worker";
    av[argc + 2] = spec;
    if (pipe2(po, O_CLOEXEC)) {
        free(av);
        return vb_err_set(err, VB_E_SYS, "pipe for device %d's worker: %s", w->device,
                          strerror(errno));
    }
    if (pipe2(pe, O_CLOEXEC)) {
        close(po[0]);
        close(po[1]);
        free(av);
        return vb_err_set(err, VB_E_SYS, "pipe for device %d's worker: %s", w->device,
                          strerror(errno));
    }
    fflush(NULL);
    w->pid = fork();
    if (w->pid == 0) { /* the worker: dies with its parent, writes into the pipes */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) _exit(130);
        if (dup2(po[1], 1) < 0 || dup2(pe[1], 2) < 0) _exit(126);
        execv(exe, av);
        dprintf(2, "cannot start %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    free(av);
    close(po[1]);
    close(pe[1]);
    if (w->pid < 0) {
        close(po[0]);
        close(pe[0]);
        return vb_err_set(err, VB_E_SYS, "cannot start device %d's worker: fork: %s", w->device,
                          strerror(errno));
    }
    *out = po[0];
    *errfd = pe[0];
    return 0;
}

/* reap waits for each started worker whose streams have both ended (it is exiting) and notes
 * when it ended. */
static void reap(const struct stream *s, struct vb_worker *w, int nw, double t0, int *reaped)
{
    int i;
    for (i = 0; i < nw; i++) {
        if (reaped[i] || w[i].pid <= 0 || s[2 * i].fd >= 0 || s[2 * i + 1].fd >= 0) continue;
        while (waitpid(w[i].pid, &w[i].status, 0) < 0 && errno == EINTR) {
        }
        w[i].seconds = now_s() - t0;
        reaped[i] = 1;
    }
}

/* relay moves the workers' lines until every stream has ended and every started worker has
 * been waited for, sending each worker SIGTERM once when vb_interrupted is set. */
static void relay(struct stream *s, int ns, struct vb_worker *w, int nw, double t0)
{
    struct pollfd p[2 * VB_WORKERS_MAX];
    int i, open_n, forwarded = 0, reaped[VB_WORKERS_MAX] = {0};
    for (;;) {
        reap(s, w, nw, t0, reaped);
        if (vb_interrupted && !forwarded) {
            for (i = 0; i < nw; i++)
                if (w[i].pid > 0) kill(w[i].pid, SIGTERM);
            forwarded = 1;
        }
        for (open_n = 0, i = 0; i < ns; i++) {
            p[i].fd = s[i].fd; /* poll ignores -1 */
            p[i].events = POLLIN;
            p[i].revents = 0;
            open_n += s[i].fd >= 0;
        }
        if (!open_n) return;
        /* a timeout, so an interrupt that lands between the check and poll is seen */
        if (poll(p, (nfds_t)ns, 250) <= 0) continue;
        for (i = 0; i < ns; i++)
            if (s[i].fd >= 0 && p[i].revents) drain(&s[i]);
    }
}

int vb_workers_run(int argc, char **argv, int64_t run_id, int first, int last, struct vb_worker *w,
                   int *n, struct vb_err *err)
{
    static struct stream s[2 * VB_WORKERS_MAX];
    char exe[4096];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    double t0 = now_s();
    int i, nw = 0, rc = 0;
    *n = 0;
    if (k <= 0)
        return vb_err_set(err, VB_E_SYS,
                          "cannot find this program to start workers: "
                          "/proc/self/exe: %s",
                          strerror(errno));
    exe[k] = 0;
    for (i = first; i <= last && nw < VB_WORKERS_MAX; i++, nw++) {
        memset(&w[nw], 0, sizeof w[nw]);
        w[nw].device = i;
        s[2 * nw] = (struct stream){.fd = -1, .w = &w[nw], .to = stdout};
        s[2 * nw + 1] = (struct stream){.fd = -1, .w = &w[nw], .to = stderr};
        if (spawn(exe, argc, argv, run_id, &w[nw], &s[2 * nw].fd, &s[2 * nw + 1].fd, err)) {
            rc = -1;
            vb_interrupted = 1; /* the ones started stop; relay then waits for their ends */
            break;
        }
    }
    relay(s, 2 * nw, w, nw, t0);
    *n = nw;
    return rc;
}

int vb_worker_exit_ok(const struct vb_worker *w, char *why, size_t n)
{
    int code = WIFEXITED(w->status) ? WEXITSTATUS(w->status) : -1;
    if (code == 0 || code == 1 || code == 130) return 1;
    if (code >= 0)
        snprintf(why, n, "exited with %d", code);
    else if (WIFSIGNALED(w->status))
        snprintf(why, n, "killed by signal %d (%s)", WTERMSIG(w->status),
                 strsignal(WTERMSIG(w->status)));
    else
        snprintf(why, n, "ended with status %#x", w->status);
    return 0;
}
