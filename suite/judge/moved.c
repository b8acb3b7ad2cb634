/* moved: the counters that moved between two runs of a case (see moved.h). */
#include "moved.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric_set.h"
#include "occupancy.h"
#include "store.h"

#define DURATION  "gpu__time_duration.sum"
#define PCT_FLOOR 1.0 /* points: the least move of a percentage that counts */

/* The launch records' counters, under Nsight Compute's launch__ names: X(name, plain, slower,
 * field of struct vb_launch_row). Exact on each side: any difference moved. */
#define VB_LAUNCH_COUNTERS(X)                                                                      \
    X("launch__grid_size", "blocks a grid", -1, blocks)                                            \
    X("launch__registers_per_thread", "registers a thread", 1, registers)                          \
    X("launch__shared_mem_per_block", "shared memory a block", 1, shared)

/* One counter of one side, aggregated over the case's profiled launches. */
struct agg {
    const char *metric;
    double value; /* the sum (a count), else the duration-weighted mean */
    double noise; /* relative (a percentage's: points), NaN unmeasured */
    int launches;
};

struct side {
    struct agg *a;
    int n;
};

/* A candidate explanation before ranking. */
struct cand {
    struct vb_moved_item it;
    int rank;     /* rank_of */
    double pred;  /* |log| of the time ratio it predicts */
    int measured; /* its noise measured (a launch counter: exact) */
};

static int by_metric(const void *x, const void *y)
{
    const struct vb_counter_row *a = x, *b = y;
    int c = strcmp(a->metric, b->metric);
    if (!c) c = strcmp(a->kernel, b->kernel);
    return c ? c : (a->launch > b->launch) - (a->launch < b->launch);
}

static int by_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static int is_count(const char *metric)
{
    size_t n = strlen(metric);
    return n > 4 && !strcmp(metric + n - 4, ".sum");
}

/* spread of v[0..n) (sorted here): (max - min), relative to the median unless points */
static double spread(double *v, int n, int points)
{
    double med;
    qsort(v, (size_t)n, sizeof *v, by_double);
    med = v[n / 2];
    if (points) return v[n - 1] - v[0];
    return med != 0 ? (v[n - 1] - v[0]) / fabs(med) : v[n - 1] != v[0] ? INFINITY : 0;
}

/* aggregate fills s (one agg a metric) from r[0..n) (sorted here, by_metric), of kernel only when
 * not NULL. 0, or -1 with err (memory). */
static int aggregate(struct vb_counter_row *r, int n, const char *kernel, struct side *s,
                     struct vb_err *err)
{
    double *dur = NULL, *tmp = NULL;
    int i, j, k, maxl = 0, rc = -1;
    memset(s, 0, sizeof *s);
    for (i = 0; i < n; i++)
        if (r[i].launch >= 0 && r[i].launch < (1 << 24) && r[i].launch + 1 > maxl)
            maxl = (int)r[i].launch + 1;
    if (!(dur = calloc((size_t)maxl + 1, sizeof *dur)) ||
        !(tmp = malloc(sizeof *tmp * (size_t)(n + 1))) ||
        !(s->a = calloc((size_t)n + 1, sizeof *s->a))) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        goto out;
    }
    for (i = 0; i < n; i++)
        if (!strcmp(r[i].metric, DURATION) && r[i].launch >= 0 && r[i].launch < maxl)
            dur[r[i].launch] = r[i].value;
    if (n) qsort(r, (size_t)n, sizeof *r, by_metric); /* no rows: r may be NULL */
    for (i = 0; i < n; i = j) {
        const struct vb_metric_def *d = vb_metric_def_find(r[i].metric);
        struct agg *a = &s->a[s->n];
        double wsum = 0, wtot = 0, total = 0;
        int m = 0;
        for (j = i; j < n && !strcmp(r[j].metric, r[i].metric); j++) {
            double w = r[j].launch >= 0 && r[j].launch < maxl && dur[r[j].launch] > 0
                           ? dur[r[j].launch]
                           : 1;
            if (kernel && strcmp(r[j].kernel, kernel)) continue;
            total += r[j].value;
            wsum += w * r[j].value;
            wtot += w;
            m++;
        }
        if (!d || !m) continue; /* a metric varbench does not know: no plain name, no direction */
        a->metric = d->name;
        a->launches = m;
        a->value = is_count(d->name) ? total : wsum / wtot;
        a->noise = NAN;
        for (k = i; k < j;) { /* each kernel's launches: their spread */
            int e, q = 0;
            for (e = k; e < j && !strcmp(r[e].kernel, r[k].kernel); e++)
                if (!kernel || !strcmp(r[e].kernel, kernel)) tmp[q++] = r[e].value;
            if (q >= 2) {
                double sp = spread(tmp, q, d->is_pct);
                if (!(a->noise >= sp)) a->noise = sp;
            }
            k = e;
        }
        s->n++;
    }
    rc = 0;
out:
    free(dur);
    free(tmp);
    if (rc) free(s->a), s->a = NULL;
    return rc;
}

/* read_side reads case_id's counters and aggregates them into s (of kernel only, not NULL). */
static int read_side(struct vb_store *st, int64_t case_id, const char *kernel, struct side *s,
                     struct vb_err *err)
{
    struct vb_counter_row *r = NULL;
    int n = 0, rc;
    memset(s, 0, sizeof *s);
    if (vb_store_case_counters(st, case_id, &r, &n, err)) return -1;
    rc = aggregate(r, n, kernel, s, err);
    free(r);
    return rc;
}

static const struct agg *find(const struct side *s, const char *metric)
{
    int i;
    for (i = 0; i < s->n; i++)
        if (!strcmp(s->a[i].metric, metric)) return &s->a[i];
    return NULL;
}

/* predicted: the time ratio a counter's move predicts (slower: how the time follows it,
 * metric_set.h), |log|'d into *mag; the share of log(time_ratio) it accounts for, 0 when none
 * (the other way, no move) */
static double share_of(double before, double after, int slower, double time_ratio, double *mag)
{
    double lp;
    *mag = 0;
    if (!slower || before < 0 || after < 0 || before == after) return 0;
    if (slower == 2) /* a stall reason's share of the cycles, in % (kept under 100) */
        lp = log((100 - fmin(before, 99.99)) / (100 - fmin(after, 99.99)));
    else if (before == 0 || after == 0) /* from none, or to none: as far as it goes */
        lp = (after > before ? 1 : -1) * slower * INFINITY;
    else
        lp = slower * log(after / before);
    *mag = fabs(lp);
    return fmin(1, lp / log(time_ratio));
}

/* rank_of: the launch 6 (what the code set: the grid, registers, shared memory), what sets the
 * cost 5 (an efficiency, bank conflicts, a hit rate, occupancy), DRAM bytes 4, the warps' stall
 * reasons 3 (where the time went: a dependent chain shows there first), any other percentage or
 * ratio 2 (pipe use, sectors a request), other traffic 1 */
static int rank_of(const char *metric)
{
    static const char *const sets[] = {"sass_average_data_bytes_per_sector", "bank_conflicts",
                                       "hit_rate", "sm__warps_active"};
    const struct vb_metric_def *d = vb_metric_def_find(metric);
    size_t i;
    if (!strncmp(metric, "launch__", 8)) return 6;
    for (i = 0; i < sizeof sets / sizeof sets[0]; i++)
        if (strstr(metric, sets[i])) return 5;
    if (d && d->nvprof && strstr(d->nvprof, "efficiency")) return 5; /* sm_, warp_execution_ */
    if (!strncmp(metric, "dram__bytes", 11)) return 4;
    if (d && d->slower == 2) return 3;
    if (!d || d->is_pct || d->slower < 0 || !is_count(metric)) return 2;
    return 1;
}

static void add(struct cand *c, int *nc, int cap, const struct cand *x)
{
    if (*nc < cap) c[(*nc)++] = *x;
}

static int by_cause(const void *x, const void *y)
{
    const struct cand *a = x, *b = y;
    if (a->it.share != b->it.share) return a->it.share < b->it.share ? 1 : -1;
    if (a->rank != b->rank) return b->rank - a->rank;
    return (a->pred < b->pred) - (a->pred > b->pred);
}

/* occupancy_note writes into note what the launches b and c of one kernel set its theoretical
 * occupancy to and what limits it, and into occ[0..1] those occupancies (%); 1, or 0 with note ""
 * where either's device is unknown */
static int occupancy_note(const struct vb_launch_row *b, const struct vb_launch_row *c, char *note,
                          size_t n, double occ[2])
{
    struct vb_occupancy ob, oc;
    note[0] = '\0';
    if (vb_occupancy_of(b->cc_major, b->cc_minor, b->sms, b->blocks, b->threads, b->registers,
                        b->shared, &ob) ||
        vb_occupancy_of(c->cc_major, c->cc_minor, c->sms, c->blocks, c->threads, c->registers,
                        c->shared, &oc))
        return 0;
    if (ob.by == oc.by)
        snprintf(note, n, "theoretical occupancy %.3g%% -> %.3g%%, limited by %s", ob.pct, oc.pct,
                 vb_occ_limit_name(oc.by));
    else
        snprintf(note, n, "theoretical occupancy %.3g%% -> %.3g%%, limited by %s (was %s)", ob.pct,
                 oc.pct, vb_occ_limit_name(oc.by), vb_occ_limit_name(ob.by));
    occ[0] = ob.pct;
    occ[1] = oc.pct;
    return 1;
}

/* launches sets *c (malloc'd, *nc of them) to the launch counters that moved of the kernels
 * both sides launched one way each */
static int launches(struct vb_store *base, int64_t case_b, struct vb_store *cand, int64_t case_c,
                    double time_ratio, struct cand **c, int *nc, struct vb_err *err)
{
    struct vb_launch_row *lb = NULL, *lc = NULL;
    char note[sizeof(*c)->it.note];
    double occ[2];
    int nb = 0, nn = 0, i, j, cap, known;
    *c = NULL;
    *nc = 0;
    if (vb_store_case_launches(base, case_b, &lb, &nb, err) ||
        vb_store_case_launches(cand, case_c, &lc, &nn, err)) {
        free(lb);
        return -1;
    }
    /* each of base's kernels matches at most one of cand's: 3 counters each */
    cap = 3 * nb + 1;
    if (!(*c = calloc((size_t)cap, sizeof **c))) {
        free(lb);
        free(lc);
        return vb_err_set(err, VB_E_SYS, "out of memory");
    }
    for (i = 0; i < nb; i++) {
        int once = (i == 0 || strcmp(lb[i - 1].kernel, lb[i].kernel)) &&
                   (i + 1 == nb || strcmp(lb[i + 1].kernel, lb[i].kernel));
        for (j = 0; once && j < nn; j++) {
            int one = (j == 0 || strcmp(lc[j - 1].kernel, lc[j].kernel)) &&
                      (j + 1 == nn || strcmp(lc[j + 1].kernel, lc[j].kernel));
            if (!one || strcmp(lb[i].kernel, lc[j].kernel)) continue;
            /* with the device known, a launch counter costs time through the occupancy it
             * sets (none when that stayed); else in proportion (its direction) */
            known = occupancy_note(&lb[i], &lc[j], note, sizeof note, occ);
#define X(name, pl, dir, field)                                                                    \
    {                                                                                              \
        struct cand x;                                                                             \
        memset(&x, 0, sizeof x);                                                                   \
        x.it.before = (double)lb[i].field;                                                         \
        x.it.after = (double)lc[j].field;                                                          \
        x.it.share = x.it.before == x.it.after ? 0                                                 \
                     : known                   ? share_of(occ[0], occ[1], -1, time_ratio, &x.pred) \
                             : share_of(x.it.before, x.it.after, dir, time_ratio, &x.pred);        \
        if (x.it.share > 0) {                                                                      \
            snprintf(x.it.metric, sizeof x.it.metric, "%s", name);                                 \
            snprintf(x.it.plain, sizeof x.it.plain, "%s", pl);                                     \
            snprintf(x.it.note, sizeof x.it.note, "%s", note);                                     \
            x.rank = rank_of(name);                                                                \
            x.measured = 1;                                                                        \
            add(*c, nc, cap, &x);                                                                  \
        }                                                                                          \
    }
            VB_LAUNCH_COUNTERS(X)
#undef X
        }
    }
    free(lb);
    free(lc);
    return 0;
}

/* rank_sides fills m from sides b and c (and the launch candidates c0[0..n0)) whose time moved
 * by time_ratio, at threshold. 0, or -1 with err (memory). */
static int rank_sides(const struct side *b, const struct side *c, const struct cand *c0, int n0,
                      double time_ratio, double threshold, struct vb_moved *m, struct vb_err *err)
{
    int i, nc = 0, cap = b->n + n0 + 1;
    struct cand *cs = calloc((size_t)cap, sizeof *cs);
    if (!cs) return vb_err_set(err, VB_E_SYS, "out of memory");
    for (i = 0; i < n0; i++)
        add(cs, &nc, cap, &c0[i]);
    for (i = 0; i < b->n; i++) {
        const struct agg *x = &b->a[i], *y = find(c, x->metric);
        const struct vb_metric_def *d = vb_metric_def_find(x->metric);
        struct cand k;
        double noise, rel;
        if (!y || !d || !d->slower) continue;
        noise = fmax(x->noise, y->noise); /* fmax: NaN where a side did not measure it */
        rel = fmax(fabs(x->value), fabs(y->value));
        if (!(rel > 0)) continue;
        /* a percentage is read to a point (a stall reason 0% -> 0.04% did not move) */
        if (d->is_pct && fabs(y->value - x->value) < PCT_FLOOR) continue;
        /* a percentage's noise is in points: as a share of the larger value */
        if (d->is_pct && isfinite(noise)) noise /= rel;
        if (!(fabs(y->value - x->value) / (x->value != 0 ? fabs(x->value) : rel) >
              fmax(threshold, isfinite(noise) ? noise : 0)))
            continue;
        memset(&k, 0, sizeof k);
        k.it.before = x->value;
        k.it.after = y->value;
        k.it.share = share_of(x->value, y->value, d->slower, time_ratio, &k.pred);
        if (!(k.it.share > 0)) continue;
        snprintf(k.it.metric, sizeof k.it.metric, "%s", d->name);
        snprintf(k.it.plain, sizeof k.it.plain, "%s", d->plain);
        k.it.pct = d->is_pct;
        k.it.per_launch = is_count(d->name) && x->launches == y->launches && x->launches > 0;
        if (k.it.per_launch) k.it.before /= x->launches, k.it.after /= y->launches;
        k.rank = rank_of(d->name);
        k.measured = isfinite(noise);
        add(cs, &nc, cap, &k);
    }
    if (nc) qsort(cs, (size_t)nc, sizeof *cs, by_cause);
    for (i = 0; i < nc && m->n < VB_MOVED_MAX; i++) {
        m->item[m->n++] = cs[i].it;
        if (!cs[i].measured) m->noise_measured = 0;
    }
    free(cs);
    return 0;
}

int vb_moved_explain(struct vb_store *base, int64_t case_b, struct vb_store *cand, int64_t case_c,
                     double time_ratio, double threshold, struct vb_moved *m, struct vb_err *err)
{
    struct side b, c;
    struct cand *l = NULL;
    int nl = 0, rc = -1;
    memset(m, 0, sizeof *m);
    m->noise_measured = 1;
    if (!(time_ratio > 0) || time_ratio == 1 || !isfinite(time_ratio)) return 0;
    if (read_side(base, case_b, NULL, &b, err)) return -1;
    if (read_side(cand, case_c, NULL, &c, err)) {
        free(b.a);
        return -1;
    }
    if (!launches(base, case_b, cand, case_c, time_ratio, &l, &nl, err) &&
        !rank_sides(&b, &c, l, nl, time_ratio, threshold, m, err))
        rc = 0;
    free(l);
    free(b.a);
    free(c.a);
    return rc;
}

int vb_moved_line(struct vb_store *base, int64_t case_b, struct vb_store *cand, int64_t case_c,
                  double time_ratio, double threshold, char *buf, size_t n, struct vb_err *err)
{
    struct vb_moved m;
    if (n) buf[0] = '\0';
    if (vb_moved_explain(base, case_b, cand, case_c, time_ratio, threshold, &m, err)) return -1;
    vb_moved_text(&m, buf, n);
    return 0;
}

/* num writes v compactly: 4.2 M, 812 k, 12.5, 0 */
static void num(double v, int bytes, char *buf, size_t n)
{
    static const char *const big[] = {"", " k", " M", " G", " T"};
    int k = 0;
    double a = fabs(v);
    if (bytes) {
        static const char *const by[] = {" B", " kB", " MB", " GB", " TB"};
        while (a >= 1000 && k < 4)
            a /= 1000, v /= 1000, k++;
        snprintf(buf, n, "%.3g%s", v, by[k]);
        return;
    }
    while (a >= 1000 && k < 4)
        a /= 1000, v /= 1000, k++;
    snprintf(buf, n, "%.3g%s", v, big[k]);
}

char *vb_moved_text(const struct vb_moved *m, char *buf, size_t n)
{
    size_t used = 0;
    int i;
    if (n) buf[0] = '\0';
    for (i = 0; i < m->n && used < n; i++) {
        const struct vb_moved_item *it = &m->item[i];
        char b[32], a[32];
        int bytes = strstr(it->metric, "bytes") != NULL || strstr(it->metric, "shared_mem");
        if (it->pct) {
            snprintf(b, sizeof b, "%.3g%%", it->before);
            snprintf(a, sizeof a, "%.3g%%", it->after);
        } else {
            num(it->before, bytes, b, sizeof b);
            num(it->after, bytes, a, sizeof a);
        }
        used += (size_t)snprintf(buf + used, n - used, "%s%s (%s) %s -> %s%s%s%s%s", i ? "; " : "",
                                 it->plain, it->metric, b, a,
                                 !is_count(it->metric) ? ""
                                 : it->per_launch      ? " a launch"
                                                       : " a sample",
                                 it->note[0] ? " (" : "", it->note, it->note[0] ? ")" : "");
    }
    if (m->n && !m->noise_measured && used < n)
        snprintf(buf + used, n - used,
                 " (noise not measured: each kernel launched once in the profiled sample)");
    return buf;
}

/* One kernel of a traced process, on both sides: its duration under the profiler summed over its
 * launches, and its launches. */
struct kern {
    const char *name;
    double dur[2];
    int launches[2];
};

static int by_move(const void *x, const void *y)
{
    const struct kern *a = x, *b = y;
    double da = fabs(a->dur[1] - a->dur[0]), db = fabs(b->dur[1] - b->dur[0]);
    return (da < db) - (da > db);
}

/* kernels fills k (cap slots) with the kernels of both sides' rows and their durations */
static int kernels(struct vb_counter_row *const r[2], const int n[2], struct kern *k, int cap)
{
    int side, i, j, nk = 0;
    for (side = 0; side < 2; side++)
        for (i = 0; i < n[side]; i++) {
            const struct vb_counter_row *x = &r[side][i];
            if (strcmp(x->metric, DURATION) || !x->kernel[0]) continue;
            for (j = 0; j < nk && strcmp(k[j].name, x->kernel); j++) {
            }
            if (j == nk) {
                if (nk == cap) continue;
                memset(&k[nk], 0, sizeof k[nk]);
                k[nk++].name = x->kernel;
            }
            k[j].dur[side] += x->value;
            k[j].launches[side]++;
        }
    return nk;
}

/* by_number: are the n rows' kernels named by launch number ("0", "1", ...: result.h's
 * vb_metric_values_name without kernel records)? */
static int by_number(const struct vb_counter_row *r, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (!r[i].kernel[0] || strspn(r[i].kernel, "0123456789") != strlen(r[i].kernel)) return 0;
    return n > 0;
}

int vb_moved_kernels(struct vb_store *base, int64_t case_b, struct vb_store *cand, int64_t case_c,
                     double threshold, char *buf, size_t len, struct vb_err *err)
{
    struct vb_counter_row *r[2] = {NULL, NULL};
    struct kern *k = NULL;
    int n[2] = {0, 0}, nk, i, shown = 0, rc = -1;
    size_t used = 0;
    if (len) buf[0] = '\0';
    if (vb_store_case_counters(base, case_b, &r[0], &n[0], err) ||
        vb_store_case_counters(cand, case_c, &r[1], &n[1], err))
        goto out;
    if (by_number(r[0], n[0]) || by_number(r[1], n[1])) { /* said when the kernels' time moved */
        double d[2] = {0, 0};
        for (i = 0; i < n[0] + n[1]; i++) {
            const struct vb_counter_row *x = i < n[0] ? &r[0][i] : &r[1][i - n[0]];
            if (!strcmp(x->metric, DURATION)) d[i >= n[0]] += x->value;
        }
        if (d[0] > 0 && fabs(d[1] / d[0] - 1) > threshold)
            snprintf(buf, len,
                     "kernels not matched: a side's counters are by launch number (a trace "
                     "--trace api --metrics records no kernel names)");
        rc = 0;
        goto out;
    }
    if (!(k = calloc((size_t)(n[0] + n[1] + 1), sizeof *k))) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        goto out;
    }
    /* in aggregate's order first: its sorts then leave every row where it is (the rows' keys are
     * unique), so the kernels' names, pointers into them, stay theirs */
    if (n[0]) qsort(r[0], (size_t)n[0], sizeof *r[0], by_metric);
    if (n[1]) qsort(r[1], (size_t)n[1], sizeof *r[1], by_metric);
    nk = kernels(r, n, k, n[0] + n[1] + 1);
    if (nk) qsort(k, (size_t)nk, sizeof *k, by_move);
    for (i = 0; i < nk && shown < VB_MOVED_KERNELS && used < len; i++) {
        double ratio = k[i].dur[0] > 0 ? k[i].dur[1] / k[i].dur[0] : INFINITY;
        char what[768];
        if (k[i].launches[0] && k[i].launches[1]) {
            struct side b, c;
            struct vb_moved m;
            char text[640];
            if (!(fabs(ratio - 1) > threshold)) continue;
            memset(&m, 0, sizeof m);
            m.noise_measured = 1;
            if (aggregate(r[0], n[0], k[i].name, &b, err)) goto out;
            if (aggregate(r[1], n[1], k[i].name, &c, err)) {
                free(b.a);
                goto out;
            }
            if (rank_sides(&b, &c, NULL, 0, ratio, threshold, &m, err)) {
                free(b.a);
                free(c.a);
                goto out;
            }
            free(b.a);
            free(c.a);
            snprintf(what, sizeof what, "duration %+.1f%% (%d -> %d launches)%s%s",
                     (ratio - 1) * 100, k[i].launches[0], k[i].launches[1], m.n ? ": " : "",
                     m.n ? vb_moved_text(&m, text, sizeof text)
                         : ": no counter moved past its noise");
        } else {
            snprintf(what, sizeof what, "only in the %s (%d launches, %.3g ms)",
                     k[i].launches[0] ? "base" : "candidate", k[i].launches[0] + k[i].launches[1],
                     (k[i].dur[0] + k[i].dur[1]) / 1e6);
        }
        used += (size_t)snprintf(buf + used, len - used, "%skernel %.80s: %s", shown ? " | " : "",
                                 k[i].name, what);
        shown++;
    }
    rc = 0;
out:
    free(r[0]);
    free(r[1]);
    free(k);
    return rc;
}
