/* eta: the time a run has left, case by case (see eta.h). */
#include "eta.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int vb_eta_add(struct vb_eta *e, int group, int gpu, double work, double sample)
{
    if (e->n == e->cap) {
        int cap = e->cap ? 2 * e->cap : 64;
        struct vb_eta_case *c = realloc(e->c, sizeof *c * (size_t)cap);
        if (!c) return -1;
        e->c = c;
        e->cap = cap;
    }
    e->c[e->n++] = (struct vb_eta_case){group, gpu, work, sample, -1};
    return 0;
}

double vb_eta_samples_time(const struct vb_eta *e, double sample)
{
    const struct vb_eta_rule *r = &e->rule;
    double n;
    if (sample <= 0) return 0;
    /* the verified sample, then cpu_loop's: it stops at the first count past both minimums
     * (the budget is past the minimum time), or at the cap or the sample limit */
    n = ceil(r->min_time / sample);
    if (n < r->min_samples) n = r->min_samples;
    if (n < 1) n = 1;
    if (r->cap > 0 && n > ceil(r->cap / sample)) n = ceil(r->cap / sample);
    if (r->max_samples > 0 && n > r->max_samples) n = r->max_samples;
    if (r->min_samples == 0 && sample >= r->budget) n = 0; /* --quick: verified only */
    return (1 + n) * sample;
}

void vb_eta_done(struct vb_eta *e, int i, double seconds)
{
    if (i >= 0 && i < e->n) e->c[i].seconds = seconds > 0 ? seconds : 0;
}

void vb_eta_free(struct vb_eta *e)
{
    free(e->c);
    memset(e, 0, sizeof *e);
}

/* A line t = a + b v fitted by least squares over n points, kept non-negative in its slope:
 * with a negative slope, the mean. */
struct line {
    double a, b;
};

static struct line fit(const double *v, const double *t, int n)
{
    double sv = 0, st = 0, svv = 0, svt = 0, d;
    struct line l = {0, 0};
    int i;
    for (i = 0; i < n; i++) {
        sv += v[i];
        st += t[i];
        svv += v[i] * v[i];
        svt += v[i] * t[i];
    }
    if (n == 0) return l;
    d = n * svv - sv * sv;
    l.a = st / n;
    if (n < 2 || d <= 1e-12 * svv * n) return l; /* one point, or one value of v: the mean */
    l.b = (n * svt - sv * st) / d;
    l.a = (st - l.b * sv) / n;
    if (l.b < 0) {
        l.a = st / n;
        l.b = 0;
    }
    return l;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The fits made from the cases done, for estimating the others. */
struct model {
    struct line cpu;   /* CPU cases: seconds past their samples', over their elements */
    int ncpu;          /* CPU cases done with a calibrated sample */
    double gpu_median; /* GPU cases done: their median time */
    int ngpu;          /* GPU cases done */
    double any_mean;   /* every case done: the mean time */
    int nany;
};

/* model_of fits m from e's done cases (v, t: scratch of e->n each); returns how many are done */
static int model_of(const struct vb_eta *e, struct model *m, double *v, double *t)
{
    int i, n = 0;
    memset(m, 0, sizeof *m);
    for (i = 0; i < e->n; i++) {
        const struct vb_eta_case *c = &e->c[i];
        if (c->seconds < 0) continue;
        m->any_mean += c->seconds;
        m->nany++;
        if (!c->gpu && c->sample > 0) {
            v[n] = c->work;
            t[n++] = c->seconds - vb_eta_samples_time(e, c->sample);
        }
    }
    if (m->nany) m->any_mean /= m->nany;
    m->cpu = fit(v, t, n);
    m->ncpu = n;
    for (i = n = 0; i < e->n; i++)
        if (e->c[i].gpu && e->c[i].seconds >= 0) t[n++] = e->c[i].seconds;
    if (n) {
        qsort(t, (size_t)n, sizeof *t, cmp_double);
        m->gpu_median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    }
    m->ngpu = n;
    return m->nany;
}

/* cpu_estimate: a CPU case's samples, and its setup per element and the constant as fitted
 * (never below nothing) */
static double cpu_estimate(const struct vb_eta *e, const struct model *m,
                           const struct vb_eta_case *c)
{
    double rest = m->cpu.a + m->cpu.b * c->work;
    return vb_eta_samples_time(e, c->sample) + (rest > 0 ? rest : 0);
}

/* estimate: case j from the model and the done cases of its own group (v, t: scratch) */
static double estimate(const struct vb_eta *e, const struct model *m, int j, double *v, double *t)
{
    const struct vb_eta_case *c = &e->c[j];
    double ratio = 0;
    int i, n = 0, nr = 0;
    if (!c->gpu && c->sample > 0 && m->ncpu) {
        for (i = 0; i < e->n; i++) { /* the group's actual over predicted time */
            const struct vb_eta_case *d = &e->c[i];
            double p = d->sample > 0 ? cpu_estimate(e, m, d) : 0;
            if (d->seconds >= 0 && !d->gpu && d->group == c->group && p > 0) {
                ratio += d->seconds / p;
                nr++;
            }
        }
        return cpu_estimate(e, m, c) * (nr ? ratio / nr : 1);
    }
    for (i = 0; i < e->n; i++) { /* a GPU case, or a CPU one without calibration: its group */
        const struct vb_eta_case *d = &e->c[i];
        if (d->seconds >= 0 && d->gpu == c->gpu && d->group == c->group) {
            v[n] = d->work;
            t[n++] = d->seconds;
        }
    }
    if (n) {
        struct line l = fit(v, t, n);
        double x = l.a + l.b * c->work;
        return x > 0 ? x : 0;
    }
    if (c->gpu && m->ngpu) return m->gpu_median;
    return m->any_mean;
}

double vb_eta_case_estimate(const struct vb_eta *e, int i)
{
    struct model m;
    double *v = malloc(sizeof *v * (size_t)(e->n ? e->n : 1)),
           *t = malloc(sizeof *t * (size_t)(e->n ? e->n : 1)), r = -1;
    if (v && t && i >= 0 && i < e->n && model_of(e, &m, v, t)) r = estimate(e, &m, i, v, t);
    free(v);
    free(t);
    return r;
}

double vb_eta_left(const struct vb_eta *e, int from, double elapsed)
{
    struct model m;
    double *v = malloc(sizeof *v * (size_t)(e->n ? e->n : 1)),
           *t = malloc(sizeof *t * (size_t)(e->n ? e->n : 1)), left = -1;
    int j;
    if (v && t && model_of(e, &m, v, t)) {
        left = 0;
        for (j = from < 0 ? 0 : from; j < e->n; j++) {
            double x;
            if (e->c[j].seconds >= 0) continue;
            x = estimate(e, &m, j, v, t);
            if (j == from) x = x > elapsed ? x - elapsed : 0; /* the running case's rest */
            left += x;
        }
    }
    free(v);
    free(t);
    return left;
}
