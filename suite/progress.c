/* progress: the run's progress line on a terminal (see progress.h). */
#include "progress.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void vb_progress_begin(struct vb_progress *p, FILE *out, int total)
{
    memset(p, 0, sizeof *p);
    p->on = isatty(fileno(out));
    p->total = total;
    p->t0 = now_s();
}

void vb_progress_case(struct vb_progress *p, const char *label)
{
    double el, left;
    if (!p->on) return;
    el = now_s() - p->t0;
    fprintf(stderr, "\r\033[K[%d/%d] %.60s", p->done + 1, p->total, label);
    if (p->done > 0) {
        left = el / p->done * (p->total - p->done);
        fprintf(stderr, " ... %dm%02ds left", (int)left / 60, (int)left % 60);
    }
    fflush(stderr);
    p->shown = 1;
}

void vb_progress_clear(struct vb_progress *p)
{
    if (!p->on || !p->shown) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->shown = 0;
}

void vb_progress_done(struct vb_progress *p)
{
    p->done++;
}
