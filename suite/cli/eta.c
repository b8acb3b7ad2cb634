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
    /* --quick: a reference over the budget is not run at all (sweep.c), not even verified */
    if (r->min_samples == 0 && sample >= r->budget) return 0;
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

/* Sums of points (v, t) and the line t = a + b v they fit by least squares, kept non-negative
 * in its slope: one point, or one value of v, or a negative slope gives the mean. */
struct sums {
    double n, sv, st, svv, svt;
};
struct line {
    double a, b;
};

static void sums_add(struct sums *s, double v, double t)
{
    s->n++;
    s->sv += v;
    s->st += t;
    s->svv += v * v;
    s->svt += v * t;
}

static struct line sums_fit(const struct sums *s)
{
    struct line l = {0, 0};
    double d = s->n * s->svv - s->sv * s->sv;
    if (s->n == 0) return l;
    l.a = s->st / s->n;
    if (s->n < 2 || d <= 1e-12 * s->svv * s->n) return l;
    l.b = (s->n * s->svt - s->sv * s->st) / d;
    l.a = (s->st - l.b * s->sv) / s->n;
    if (l.b < 0) {
        l.a = s->st / s->n;
        l.b = 0;
    }
    return l;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* What the cases done say, made once per estimate of the time left (each remaining case is
 * then priced without another pass over the done ones). */
struct model {
    struct line cpu;   /* CPU cases: seconds past their samples', over their elements */
    int ncpu;          /* CPU cases done with a calibrated sample */
    double gpu_median; /* GPU cases done: their median time */
    int ngpu;          /* GPU cases done */
    double any_mean;   /* every case done: the mean time */
    int nany;
    int ngroups;
    struct sums *group; /* [2 slot + gpu]: the done cases' (elements, seconds) */
    double *ratio;      /* [slot]: the sum of its CPU cases' actual over predicted time */
    int *nratio;        /* [slot]: how many */
    /* [2 slot + skipped]: its largest calibrated CPU case done, run or (--quick) skipped */
    const struct vb_eta_case **big;
    double cpu_max; /* the most elements of a calibrated CPU case done: the fit's range */
};

/* slot: a group's index in the model's arrays; the cases of no group (-1) share the last one */
static int slot(const struct model *m, int group)
{
    return group >= 0 ? group : m->ngroups;
}

static void model_free(struct model *m)
{
    free(m->group);
    free(m->ratio);
    free(m->nratio);
    free(m->big);
}

/* skipped: whether CPU case c is a --quick reference over the budget, which is not run (its
 * case costs its inputs and the oracle on all cores, not its samples) */
static int skipped(const struct vb_eta *e, const struct vb_eta_case *c)
{
    return !c->gpu && e->rule.min_samples == 0 && c->sample >= e->rule.budget;
}

/* cpu_estimate: a CPU case's samples, and its setup per element and the constant as fitted
 * (never below nothing) */
static double cpu_estimate(const struct vb_eta *e, const struct model *m,
                           const struct vb_eta_case *c)
{
    double rest = m->cpu.a + m->cpu.b * c->work;
    return vb_eta_samples_time(e, c->sample) + (rest > 0 ? rest : 0);
}

/* model_of makes m from e's done cases; returns how many are done (0: nothing known), or -1
 * when out of memory */
static int model_of(const struct vb_eta *e, struct model *m)
{
    struct sums cpu = {0};
    double *t;
    int i, g, n = 0;
    memset(m, 0, sizeof *m);
    for (i = 0; i < e->n; i++)
        if (e->c[i].group >= m->ngroups) m->ngroups = e->c[i].group + 1;
    t = malloc(sizeof *t * (size_t)(e->n ? e->n : 1));
    m->group = calloc((size_t)(2 * m->ngroups + 2), sizeof *m->group);
    m->ratio = calloc((size_t)(m->ngroups + 1), sizeof *m->ratio);
    m->nratio = calloc((size_t)(m->ngroups + 1), sizeof *m->nratio);
    m->big = calloc((size_t)(2 * m->ngroups + 2), sizeof *m->big);
    if (!t || !m->group || !m->ratio || !m->nratio || !m->big) {
        free(t);
        model_free(m);
        return -1;
    }
    for (i = 0; i < e->n; i++) {
        const struct vb_eta_case *c = &e->c[i];
        if (c->seconds < 0) continue;
        m->any_mean += c->seconds;
        m->nany++;
        if (!c->gpu && c->sample > 0) {
            const struct vb_eta_case **b = &m->big[2 * slot(m, c->group) + skipped(e, c)];
            sums_add(&cpu, c->work, c->seconds - vb_eta_samples_time(e, c->sample));
            m->ncpu++;
            if (!*b || c->work >= (*b)->work) *b = c;
            if (c->work > m->cpu_max) m->cpu_max = c->work;
        }
        if (c->gpu) t[n++] = c->seconds;
        sums_add(&m->group[2 * slot(m, c->group) + !!c->gpu], c->work, c->seconds);
    }
    if (m->nany) m->any_mean /= m->nany;
    m->cpu = sums_fit(&cpu);
    if ((m->ngpu = n)) {
        qsort(t, (size_t)n, sizeof *t, cmp_double);
        m->gpu_median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    }
    free(t);
    for (i = 0; i < e->n && m->ncpu; i++) { /* each group's actual over predicted time */
        const struct vb_eta_case *c = &e->c[i];
        double p;
        if (c->seconds < 0 || c->gpu || c->sample <= 0) continue;
        g = slot(m, c->group);
        if ((p = cpu_estimate(e, m, c)) > 0) {
            m->ratio[g] += c->seconds / p;
            m->nratio[g]++;
        }
    }
    return m->nany;
}

/* estimate: case c from the model: a calibrated CPU case by the CPU fit and its group's
 * correction; any other by its group's cases done, else the median GPU case (a GPU case) or
 * the mean case */
static double estimate(const struct vb_eta *e, const struct model *m, const struct vb_eta_case *c)
{
    int g = slot(m, c->group);
    const struct vb_eta_case *b = m->big[2 * g + skipped(e, c)];
    if (!c->gpu && c->sample > 0 && b) { /* its samples, and the time past its samples of its
                                          * problem's largest case done like it, in proportion */
        double rest = b->seconds - vb_eta_samples_time(e, b->sample);
        return vb_eta_samples_time(e, c->sample) +
               (rest > 0 && b->work > 0 ? rest * c->work / b->work : 0);
    }
    if (!c->gpu && c->sample > 0 && m->ncpu)
        return cpu_estimate(e, m, c) * (m->nratio[g] ? m->ratio[g] / m->nratio[g] : 1);
    if (m->group[2 * g + !!c->gpu].n) {
        struct line l = sums_fit(&m->group[2 * g + !!c->gpu]);
        double x = l.a + l.b * c->work;
        return x > 0 ? x : 0;
    }
    if (c->gpu && m->ngpu) return m->gpu_median;
    return m->any_mean;
}

#define SPAN     10.0 /* the most a supported estimate stretches what was measured, in elements */
#define MIN_DONE 3    /* cases done before any estimate */
#define SHARE    0.25 /* of the time left, the most that unsupported estimates may be */

/* supported: whether case c's estimate rests on cases like it, not on an extrapolation: a
 * calibrated CPU case at most SPAN times the elements of its problem's largest case done like
 * it (run, or skipped by --quick), or of every CPU case done when its problem has none (a
 * --quick skip needs one of its problem's); a GPU case is priced by its group or the GPU
 * cases done (a skipped one costs nothing); any other by its group or the cases done */
static int supported(const struct vb_eta *e, const struct model *m, const struct vb_eta_case *c)
{
    const struct vb_eta_case *b = m->big[2 * slot(m, c->group) + skipped(e, c)];
    if (c->gpu || c->sample <= 0) return 1;
    if (!b && skipped(e, c)) return 0;
    return c->work <= SPAN * (b ? b->work : m->cpu_max);
}

double vb_eta_case_estimate(const struct vb_eta *e, int i)
{
    struct model m;
    double r = -1;
    if (i < 0 || i >= e->n || model_of(e, &m) < 0) return -1;
    if (m.nany) r = estimate(e, &m, &e->c[i]);
    model_free(&m);
    return r;
}

double vb_eta_left(const struct vb_eta *e, int from, double elapsed)
{
    struct model m;
    double left = -1;
    int j;
    if (model_of(e, &m) < 0) return -1;
    if (m.nany >= MIN_DONE) {
        double unsure = 0;
        left = 0;
        for (j = from < 0 ? 0 : from; j < e->n; j++) {
            double x;
            if (e->c[j].seconds >= 0) continue;
            x = estimate(e, &m, &e->c[j]);
            if (j == from) x = x > elapsed ? x - elapsed : 0; /* the running case's rest */
            left += x;
            if (!supported(e, &m, &e->c[j])) unsure += x;
        }
        if (unsure > SHARE * left) left = -1; /* estimating */
    }
    model_free(&m);
    return left;
}
