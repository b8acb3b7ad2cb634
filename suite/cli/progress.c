/* progress: the run's progress line on a terminal (see progress.h). */
#include "progress.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int lines_wanted(void)
{
    const char *v = getenv("VARBENCH_PROGRESS");
    return v && !strcmp(v, "lines");
}

int vb_progress_wanted(FILE *out)
{
    return lines_wanted() || isatty(fileno(out));
}

void vb_progress_begin(struct vb_progress *p, FILE *out, int total, struct vb_eta *eta)
{
    memset(p, 0, sizeof *p);
    p->lines = lines_wanted();
    p->on = vb_progress_wanted(out);
    p->total = total;
    p->eta = eta && eta->n == total ? eta : NULL; /* a plan of other cases would mislead */
    p->t0 = p->case_t0 = now_s();
}

void vb_progress_case(struct vb_progress *p, const char *label)
{
    double el, left = -1;
    p->case_t0 = now_s();
    if (!p->on) return;
    el = p->case_t0 - p->t0;
    if (p->eta)
        left = vb_eta_left(p->eta, p->done, 0);
    else if (p->done > 0)
        left = el / p->done * (p->total - p->done);
    if (p->lines) {
        if (left >= 0)
            fprintf(stderr, "progress: [%d/%d] %.1f s in, %.1f s left: %s\n", p->done + 1, p->total,
                    el, left, label);
        else
            fprintf(stderr, "progress: [%d/%d] %.1f s in, estimating: %s\n", p->done + 1, p->total,
                    el, label);
        return;
    }
    fprintf(stderr, "\r\033[K[%d/%d] %.60s", p->done + 1, p->total, label);
    if (left >= 0)
        fprintf(stderr, " ... %dm%02ds left", (int)left / 60, (int)left % 60);
    else
        fprintf(stderr, " ... estimating");
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
    double t = now_s();
    if (p->eta) vb_eta_done(p->eta, p->done, t - p->case_t0);
    p->done++;
    if (p->lines && p->done == p->total)
        fprintf(stderr, "progress: [%d/%d] done, %.1f s in\n", p->done, p->total, t - p->t0);
}
