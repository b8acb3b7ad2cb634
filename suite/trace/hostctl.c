/* hostctl: the host's control in a traced process, measured by a thread (see hostctl.h). */
#include "hostctl.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "stamp.h"
#include "stats.h"

/* One control: when (the middle of its run) and how long it took. */
struct point {
    uint64_t t;
    double ns;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct point *pts; /* in time order */
static size_t npts, cap;
static pthread_t th;
static pid_t owner; /* the process whose thread runs, 0 none */
static volatile int quit;

static void *loop(void *arg)
{
    struct timespec pause = {0, VB_TRACE_CTL_PERIOD_MS * 1000000L};
    (void)arg;
    while (!quit) {
        uint64_t t0 = vb_realtime_ns();
        double ns = vb_control_cpu_ns();
        pthread_mutex_lock(&mu);
        if (npts == cap && cap < VB_TRACE_CTL_MAX) {
            size_t c = cap ? 2 * cap : 4096;
            struct point *p = realloc(pts, c * sizeof *p);
            if (p) pts = p, cap = c;
        }
        if (npts < cap) pts[npts++] = (struct point){t0 + (uint64_t)(ns / 2), ns};
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

double vb_trace_ctl_over(uint64_t start, uint64_t end)
{
    double m = NAN, *x;
    size_t lo = 0, hi, i, n = 0;
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
            x[i] = pts[lo + i].ns;
        m = vb_stats_median(x, n);
        free(x);
    } else if (!n && npts) { /* none inside: the nearer of its neighbours */
        if (lo == npts)
            m = pts[npts - 1].ns;
        else if (lo == 0)
            m = pts[0].ns;
        else
            m = start - pts[lo - 1].t < pts[lo].t - end ? pts[lo - 1].ns : pts[lo].ns;
    }
    pthread_mutex_unlock(&mu);
    return m;
}
