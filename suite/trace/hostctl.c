/* hostctl: the host's controls in a traced process, measured by a thread (see hostctl.h). */
#define _GNU_SOURCE
#include "hostctl.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "stamp.h"
#include "stats.h"

/* One pair of controls: when (the middle of their run) and how long each took. */
struct point {
    uint64_t t;
    double ns[2]; /* the chain, the mix */
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct point *pts; /* in time order */
static size_t npts, cap;
static pthread_t th;
static pid_t owner;  /* the process whose thread runs, 0 none */
static pid_t follow; /* the thread whose core the controls run on */
static volatile int quit;

/* core_of: the core thread tid of this process last ran on (/proc's stat, field 39), -1 if
 * unknown (the thread gone, no /proc) */
static int core_of(pid_t tid)
{
    char path[64], buf[1024], *p;
    FILE *f;
    size_t n;
    int field, cpu = -1;
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)tid);
    if (!(f = fopen(path, "r"))) return -1;
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    if (!(p = strrchr(buf, ')'))) return -1; /* the command may hold spaces: fields after it */
    for (field = 2; *p && field < 39; p++)
        if (*p == ' ') field++;
    return field == 39 && sscanf(p, "%d", &cpu) == 1 ? cpu : -1;
}

static void *loop(void *arg)
{
    struct timespec pause = {0, VB_TRACE_CTL_PERIOD_MS * 1000000L};
    cpu_set_t own, one;
    int pinned = 0, have_own = sched_getaffinity(0, sizeof own, &own) == 0;
    (void)arg;
    while (!quit) {
        uint64_t t0;
        double ns[2];
        int cpu = have_own ? core_of(follow) : -1;
        if (cpu >= 0 && cpu < CPU_SETSIZE) {
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            pinned = sched_setaffinity(0, sizeof one, &one) == 0;
        }
        t0 = vb_realtime_ns();
        ns[0] = vb_control_cpu_ns();
        ns[1] = vb_control_thr_ns();
        if (pinned) sched_setaffinity(0, sizeof own, &own); /* sleep anywhere */
        pinned = 0;
        pthread_mutex_lock(&mu);
        if (npts == cap && cap < VB_TRACE_CTL_MAX) {
            size_t c = cap ? 2 * cap : 4096;
            struct point *p = realloc(pts, c * sizeof *p);
            if (p) pts = p, cap = c;
        }
        if (npts < cap)
            pts[npts++] = (struct point){t0 + (uint64_t)((ns[0] + ns[1]) / 2), {ns[0], ns[1]}};
        pthread_mutex_unlock(&mu);
        nanosleep(&pause, NULL);
    }
    return NULL;
}

int vb_trace_ctl_start(void)
{
    sigset_t all, prev;
    int rc;
    if (owner == getpid()) return 0;
    pthread_mutex_lock(&mu); /* a fork's child starts afresh: its parent's controls are not its */
    npts = 0;
    pthread_mutex_unlock(&mu);
    quit = 0;
    follow = (pid_t)syscall(SYS_gettid);
    sigfillset(&all); /* none of the program's signals lands on this thread */
    pthread_sigmask(SIG_SETMASK, &all, &prev);
    rc = pthread_create(&th, NULL, loop, NULL);
    pthread_sigmask(SIG_SETMASK, &prev, NULL);
    if (rc) return -1;
    owner = getpid();
    return 0;
}

void vb_trace_ctl_stop(void)
{
    if (owner != getpid()) return;
    quit = 1;
    pthread_join(th, NULL);
    owner = 0;
}

double vb_trace_ctl_over(int c, uint64_t start, uint64_t end)
{
    double m = NAN, *x;
    size_t lo = 0, hi, i, n = 0;
    int j = c == VB_CTL_CPU ? 0 : c == VB_CTL_THR ? 1 : -1;
    if (j < 0) return NAN;
    pthread_mutex_lock(&mu);
    hi = npts;
    while (lo < hi) { /* the first control at start or later */
        size_t mid = lo + (hi - lo) / 2;
        if (pts[mid].t < start)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (i = lo; i < npts && pts[i].t <= end; i++)
        n++;
    if (n && (x = malloc(sizeof *x * n))) {
        for (i = 0; i < n; i++)
            x[i] = pts[lo + i].ns[j];
        m = vb_stats_median(x, n);
        free(x);
    } else if (!n && npts) { /* none inside: the nearer of its neighbours */
        if (lo == npts)
            m = pts[npts - 1].ns[j];
        else if (lo == 0)
            m = pts[0].ns[j];
        else
            m = start - pts[lo - 1].t < pts[lo].t - end ? pts[lo - 1].ns[j] : pts[lo].ns[j];
    }
    pthread_mutex_unlock(&mu);
    return m;
}
