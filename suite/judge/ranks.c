/* ranks: a traced job's straggler per range (see ranks.h). */
#include "ranks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

int vb_rank_of(const struct vb_case_row *c, const char **range, long *rank)
{
    int i, got = 0;
    if (strcmp(c->family, "trace") || strcmp(c->status, "ok")) return 0;
    for (i = 0; i < c->naxes; i++) {
        if (!strcmp(c->axis[i].name, "range")) *range = c->axis[i].label, got |= 1;
        if (!strcmp(c->axis[i].name, "rank")) *rank = (long)c->axis[i].value, got |= 2;
    }
    return got == 3;
}

/* A rank's steps: own time (e2e - comm) and e2e, ns. */
struct steps {
    long rank;
    double *own, *e2e;
    int n;
};

/* read_steps reads case id's steps; comm missing (no records) counts as 0 */
static int read_steps(struct vb_store *s, int64_t id, long rank, struct steps *x,
                      struct vb_err *err)
{
    double *comm = NULL;
    int nc = 0, i;
    x->rank = rank;
    x->own = NULL;
    if (vb_store_samples(s, id, "e2e", &x->e2e, &x->n, err)) return -1;
    if (vb_store_samples(s, id, "comm", &comm, &nc, err)) {
        free(x->e2e);
        return -1;
    }
    if (!(x->own = malloc(sizeof *x->own * (size_t)(x->n + 1)))) {
        free(x->e2e);
        free(comm);
        return vb_err_set(err, VB_E_SYS, "out of memory");
    }
    for (i = 0; i < x->n; i++)
        x->own[i] = x->e2e[i] - (nc == x->n && isfinite(comm[i]) ? comm[i] : 0);
    free(comm);
    return 0;
}

/* spread fills o from the steps of x[0..nr) */
static int spread(const struct steps *x, int nr, struct vb_rank_spread *o)
{
    int k, r, m, steps = x[0].n, *wins = calloc((size_t)nr, sizeof *wins), best = 0;
    double *a = NULL, *b = NULL;
    for (r = 1; r < nr; r++)
        if (x[r].n < steps) steps = x[r].n;
    a = malloc(sizeof *a * (size_t)(steps + 1));
    b = malloc(sizeof *b * (size_t)(nr + 1));
    if (!wins || !a || !b) {
        free(wins);
        free(a);
        free(b);
        return -1;
    }
    o->nranks = nr;
    o->nsteps = steps;
    for (k = 0; k < steps; k++) { /* each step's straggler: the most own time */
        int w = 0;
        for (r = 1; r < nr; r++)
            if (x[r].own[k] > x[w].own[k]) w = r;
        wins[w]++;
    }
    for (r = 1; r < nr; r++)
        if (wins[r] > wins[best]) best = r;
    o->slowest = x[best].rank;
    o->slowest_steps = wins[best];
    o->own_slowest_ms = vb_stats_median(x[best].own, (size_t)steps) / 1e6;
    for (k = 0; k < steps; k++) { /* per step, the other ranks' median own time */
        for (r = m = 0; r < nr; r++)
            if (r != best) b[m++] = x[r].own[k];
        a[k] = vb_stats_median(b, (size_t)m);
    }
    o->own_others_ms = vb_stats_median(a, (size_t)steps) / 1e6;
    for (k = 0; k < steps; k++) { /* per step, the longest rank's step */
        a[k] = 0;
        for (r = 0; r < nr; r++)
            if (x[r].e2e[k] > a[k]) a[k] = x[r].e2e[k];
    }
    o->step_ms = vb_stats_median(a, (size_t)steps) / 1e6;
    free(wins);
    free(a);
    free(b);
    return 0;
}

static void free_steps(struct steps *x, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        free(x[i].own);
        free(x[i].e2e);
    }
}

int vb_rank_spreads(struct vb_store *s, int64_t run_id, struct vb_rank_spread **out, int *n,
                    struct vb_err *err)
{
    struct vb_case_row *c = NULL;
    struct vb_rank_spread *o = NULL;
    struct steps *x = NULL;
    char *done = NULL;
    int nc = 0, i, j, no = 0, rc = -1;
    *out = NULL;
    *n = 0;
    if (vb_store_cases(s, run_id, &c, &nc, err)) return -1;
    done = calloc((size_t)nc + 1, 1);
    x = calloc((size_t)nc + 1, sizeof *x);
    o = calloc((size_t)nc + 1, sizeof *o);
    if (!done || !x || !o) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        goto out;
    }
    for (i = 0; i < nc; i++) { /* each program's range, once: the cases of its ranks */
        const char *range = NULL, *r2 = NULL;
        long rank = 0, rank2 = 0;
        int nr = 0;
        if (done[i] || !vb_rank_of(&c[i], &range, &rank)) continue;
        for (j = i; j < nc; j++) {
            if (done[j] || !vb_rank_of(&c[j], &r2, &rank2) || strcmp(c[j].variant, c[i].variant) ||
                strcmp(r2, range))
                continue;
            done[j] = 1;
            if (read_steps(s, c[j].id, rank2, &x[nr], err)) {
                free_steps(x, nr);
                goto out;
            }
            if (x[nr].n)
                nr++;
            else
                free_steps(&x[nr], 1);
        }
        /* a range that does not hold its collectives' wait (an enqueue): no line */
        for (j = 0; j < nr && vb_stats_median(x[j].own, (size_t)x[j].n) >= 0; j++) {
        }
        if (nr >= 2 && j == nr) {
            snprintf(o[no].variant, sizeof o[no].variant, "%s", c[i].variant);
            snprintf(o[no].range, sizeof o[no].range, "%s", range);
            if (spread(x, nr, &o[no])) {
                free_steps(x, nr);
                vb_err_set(err, VB_E_SYS, "out of memory");
                goto out;
            }
            no += o[no].nsteps > 0;
        }
        free_steps(x, nr);
    }
    *out = o;
    *n = no;
    o = NULL;
    rc = 0;
out:
    free(o);
    free(x);
    free(done);
    free(c);
    return rc;
}

int vb_rank_job_steps(struct vb_store *s, const int64_t *ids, int n, double **steps, int *nsteps,
                      struct vb_err *err)
{
    double *step = NULL;
    int r, k;
    *steps = NULL;
    *nsteps = 0;
    for (r = 0; r < n; r++) {
        double *e2e;
        int m;
        if (vb_store_samples(s, ids[r], "e2e", &e2e, &m, err)) {
            free(step);
            return -1;
        }
        if (r == 0) {
            step = e2e;
            *nsteps = m;
            continue;
        }
        if (m < *nsteps) *nsteps = m;
        for (k = 0; k < *nsteps; k++)
            if (e2e[k] > step[k]) step[k] = e2e[k];
        free(e2e);
    }
    *steps = step;
    return 0;
}

char *vb_rank_spread_text(const struct vb_rank_spread *x, char *buf, size_t n)
{
    double more = x->own_others_ms > 0 ? 100 * (x->own_slowest_ms / x->own_others_ms - 1) : NAN;
    snprintf(buf, n,
             "%s range '%s': %d ranks, %d steps; slowest rank %ld in %d of %d steps, its own "
             "time (step minus NCCL) %.3f ms against %.3f ms for the other ranks (%+.0f%%); "
             "step %.3f ms",
             x->variant, x->range, x->nranks, x->nsteps, x->slowest, x->slowest_steps, x->nsteps,
             x->own_slowest_ms, x->own_others_ms, more, x->step_ms);
    return buf;
}
