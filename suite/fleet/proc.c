/* proc: run a program without a shell, with a time limit (see proc.h). */
#define _GNU_SOURCE /* pipe2 */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "err.h"

#define OUT_MAX (16u << 20) /* a Slurm listing of a large array is well under this */

int vb_proc_on_path(const char *name)
{
    const char *path = getenv("PATH"), *p, *end;
    char buf[4096];
    if (strchr(name, '/')) return access(name, X_OK) == 0;
    for (p = path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
        struct stat st;
        end = strchr(p, ':');
        if (!end) end = p + strlen(p);
        if ((size_t)snprintf(buf, sizeof buf, "%.*s/%s", (int)(end - p), end > p ? p : ".", name) >=
            sizeof buf)
            continue;
        if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0) return 1;
    }
    return 0;
}

/* child_exec sets up the child's files and runs argv; it never returns. The exec's errno goes
 * back through report (closed by a successful exec). */
static void child_exec(char *const *argv, const char *cwd, int out_fd, int err_fd, int report)
{
    int e, null = open("/dev/null", O_RDONLY);
    if (null < 0 || dup2(null, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0 ||
        (cwd && chdir(cwd)))
        e = errno;
    else {
        execvp(argv[0], argv);
        e = errno;
    }
    if (write(report, &e, sizeof e) < 0) {
    } /* the parent then sees no errno and the exit code */
    _exit(127);
}

/* now_s: a monotonic clock in seconds. */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* take appends what fd has to the buffer (out: grows up to OUT_MAX; errtail: keeps the end).
 * Returns 0 at its end of file, 1 while open. */
static int take(int fd, struct vb_proc *p, size_t *len, size_t *cap, int is_out)
{
    char buf[4096];
    ssize_t k = read(fd, buf, sizeof buf);
    if (k < 0) return errno == EINTR || errno == EAGAIN ? 1 : 0;
    if (k == 0) return 0;
    if (is_out) {
        if (*len + (size_t)k + 1 > *cap && *cap < OUT_MAX) {
            size_t ncap = *cap ? *cap * 2 : 8192;
            char *n;
            while (ncap < *len + (size_t)k + 1)
                ncap *= 2;
            if ((n = realloc(p->out, ncap))) {
                p->out = n;
                *cap = ncap;
            }
        }
        if (p->out && *len + (size_t)k + 1 <= *cap) {
            memcpy(p->out + *len, buf, (size_t)k);
            *len += (size_t)k;
            p->out[*len] = '\0';
        }
    } else {
        size_t n = strlen(p->errtail), room = sizeof p->errtail - 1;
        if ((size_t)k > room) {
            memcpy(p->errtail, buf + (size_t)k - room, room);
            n = room;
        } else {
            if (n + (size_t)k > room) {
                memmove(p->errtail, p->errtail + n + (size_t)k - room, room - (size_t)k);
                n = room - (size_t)k;
            }
            memcpy(p->errtail + n, buf, (size_t)k);
            n += (size_t)k;
        }
        p->errtail[n] = '\0';
    }
    return 1;
}

int vb_proc_run(char *const *argv, const char *cwd, const char *out_path, int timeout_s,
                struct vb_proc *p, struct vb_err *err)
{
    int opipe[2] = {-1, -1}, epipe[2] = {-1, -1}, rpipe[2] = {-1, -1}, out_fd = -1, e = 0;
    int open_out, open_err, wst, killed = 0;
    size_t len = 0, cap = 0;
    double deadline = now_s() + timeout_s;
    ssize_t got;
    pid_t pid;
    memset(p, 0, sizeof *p);
    if (!vb_proc_on_path(argv[0]))
        return vb_err_set(err, VB_E_SYS, "%s not found on PATH", argv[0]);
    if (out_path && (out_fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
        return vb_err_set(err, VB_E_SYS, "cannot write '%s': %s", out_path, strerror(errno));
    if ((!out_path && pipe2(opipe, O_CLOEXEC)) || pipe2(epipe, O_CLOEXEC) ||
        pipe2(rpipe, O_CLOEXEC)) {
        vb_err_set(err, VB_E_SYS, "pipe: %s", strerror(errno));
        goto fail;
    }
    fflush(stdout);
    fflush(stderr);
    if ((pid = fork()) < 0) {
        vb_err_set(err, VB_E_SYS, "fork: %s", strerror(errno));
        goto fail;
    }
    if (pid == 0) child_exec(argv, cwd, out_path ? out_fd : opipe[1], epipe[1], rpipe[1]);
    close(rpipe[1]);
    close(epipe[1]);
    if (!out_path) close(opipe[1]);
    rpipe[1] = epipe[1] = opipe[1] = -1;
    while ((got = read(rpipe[0], &e, sizeof e)) < 0 && errno == EINTR) {
    }
    if (got != (ssize_t)sizeof e) e = 0;
    open_out = !out_path;
    open_err = 1;
    while (open_out || open_err) {
        struct pollfd fds[2] = {{epipe[0], POLLIN, 0}, {open_out ? opipe[0] : -1, POLLIN, 0}};
        double left = deadline - now_s();
        int k;
        if (!open_err) fds[0].fd = -1;
        if (left <= 0) {
            kill(pid, SIGKILL);
            killed = 1;
            break;
        }
        k = poll(fds, 2, (int)(left * 1000) + 1);
        if (k < 0 && errno != EINTR) break;
        if (k <= 0) continue;
        if (fds[0].revents && !take(epipe[0], p, &len, &cap, 0)) open_err = 0;
        if (fds[1].revents && !take(opipe[0], p, &len, &cap, 1)) open_out = 0;
    }
    /* its output is closed: it has ended or closed both; wait for it within the time left */
    while (!killed) {
        pid_t w = waitpid(pid, &wst, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) {
            vb_err_set(err, VB_E_SYS, "waitpid: %s", strerror(errno));
            goto fail;
        }
        if (now_s() > deadline) {
            kill(pid, SIGKILL);
            killed = 1;
            break;
        }
        usleep(10000);
    }
    if (killed)
        while (waitpid(pid, &wst, 0) < 0 && errno == EINTR) {
        }
    if (killed) {
        vb_err_set(err, VB_E_SYS, "%s ran past %d s and was killed", argv[0], timeout_s);
        goto fail;
    }
    if (e) {
        vb_err_set(err, VB_E_SYS, "cannot run %s: %s", argv[0], strerror(e));
        goto fail;
    }
    p->status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
    if (!out_path && !p->out && !(p->out = calloc(1, 1))) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        goto fail;
    }
    if (out_fd >= 0 && close(out_fd)) {
        out_fd = -1;
        vb_err_set(err, VB_E_SYS, "cannot write '%s': %s", out_path, strerror(errno));
        goto fail;
    }
    out_fd = -1;
    close(rpipe[0]);
    close(epipe[0]);
    if (!out_path) close(opipe[0]);
    return 0;
fail:
    for (e = 0; e < 2; e++) {
        if (opipe[e] >= 0) close(opipe[e]);
        if (epipe[e] >= 0) close(epipe[e]);
        if (rpipe[e] >= 0) close(rpipe[e]);
    }
    if (out_fd >= 0) close(out_fd);
    vb_proc_free(p);
    return -1;
}

void vb_proc_free(struct vb_proc *p)
{
    if (!p) return;
    free(p->out);
    p->out = NULL;
}

void vb_proc_tmp_template(char *buf, size_t n, const char *name)
{
    const char *d = getenv("TMPDIR");
    snprintf(buf, n, "%s/%s-XXXXXX", d && d[0] ? d : "/tmp", name);
}
