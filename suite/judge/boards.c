/* boards: grouping stored cases by GPU model and board, and their spread (see boards.h). */
#include "boards.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

const char *vb_boards_phase(const struct vb_case_row *r)
{
    return !strcmp(r->floor_of, "kernel") ? "kernel" : "e2e";
}

double vb_boards_time_ns(const struct vb_case_row *r)
{
    return !strcmp(vb_boards_phase(r), "kernel") ? r->kernel_median_ns : r->e2e_median_ns;
}

/* One ok and timed GPU row with the board and model it belongs to; order: its position among
 * all the rows, so that ties in the sort keep the runs' own order. */
struct entry {
    const struct vb_case_row *r;
    int model, board; /* indexes into the result's models and that model's boards */
    long order;
};

static int by_point(const void *x, const void *y)
{
    const struct entry *a = x, *b = y;
    int c;
    if (a->model != b->model) return a->model - b->model;
    if ((c = strcmp(a->r->variant, b->r->variant))) return c;
    if ((c = strcmp(a->r->axes, b->r->axes))) return c;
    return (a->order > b->order) - (a->order < b->order);
}

/* A case found in the sorted entries: its model, its first entry and count, its sort key. */
struct group {
    int model, first, n;
    long key; /* the order of its entry on the lowest board: the first board's order first */
};

static int by_key(const void *x, const void *y)
{
    const struct group *a = x, *b = y;
    if (a->model != b->model) return a->model - b->model;
    return (a->key > b->key) - (a->key < b->key);
}

void vb_boards_free(struct vb_boards *b)
{
    int i;
    for (i = 0; i < b->nmodels; i++) {
        free(b->models[i].boards);
        free(b->models[i].cases);
        free(b->models[i].at);
    }
    free(b->models);
    memset(b, 0, sizeof *b);
}

/* grow makes room for element n of the array *pp (n in use, sz bytes each) and returns it
 * zeroed, or NULL when out of memory. The capacity follows from n: 8, then doubled whenever n
 * reaches a power of two, so an array needs no capacity field beside its count. */
static void *grow(void *pp, int n, size_t sz)
{
    void **p = pp;
    if (n == 0 || (n >= 8 && !(n & (n - 1)))) {
        void *q = realloc(*p, (size_t)(n ? 2 * n : 8) * sz);
        if (!q) return NULL;
        *p = q;
    }
    return memset((char *)*p + (size_t)n * sz, 0, sz);
}

/* model_of: the index of the model named name in out, added when new; -1 out of memory. */
static int model_of(struct vb_boards *out, const char *name)
{
    struct vb_boards_model *m;
    int i;
    for (i = 0; i < out->nmodels; i++)
        if (!strcmp(out->models[i].model, name)) return i;
    if (!(m = grow(&out->models, out->nmodels, sizeof *m))) return -1;
    snprintf(m->model, sizeof m->model, "%s", name);
    m->most = -1;
    return out->nmodels++;
}

/* add_board adds board (run k, row r's device) to model m; its index, or -1 out of memory. */
static int add_board(struct vb_boards_model *m, const struct vb_boards_run *run, int k,
                     const struct vb_case_row *r)
{
    struct vb_board *b = grow(&m->boards, m->nboards, sizeof *b);
    const char *host = run->host ? run->host : "";
    if (!b) return -1;
    b->run = k;
    b->run_id = run->id;
    b->device = r->device_id;
    snprintf(b->host, sizeof b->host, "%s", host);
    snprintf(b->model, sizeof b->model, "%s", r->device);
    snprintf(b->bus, sizeof b->bus, "%s", r->board);
    snprintf(b->label, sizeof b->label, "%s%srun %lld device %d%s%s", host, host[0] ? " " : "",
             (long long)run->id, r->device_id, r->board[0] ? " " : "", r->board);
    return m->nboards++;
}

/* collect finds every board of runs[0..nr) and lists their ok and timed GPU rows in *ent. */
static int collect(const struct vb_boards_run *runs, int nr, struct vb_boards *out,
                   struct entry **ent, int *nent, struct vb_err *err)
{
    int k, i, model = -1, board = -1;
    long order = 0;
    for (k = 0; k < nr; k++)
        for (i = 0; i < runs[k].n; i++, order++) {
            const struct vb_case_row *r = &runs[k].cases[i];
            struct vb_boards_model *m;
            struct entry *e;
            double t;
            if (r->device_id < 0) continue;
            /* a run's rows come device by device: the last board found is nearly always it */
            m = model >= 0 ? &out->models[model] : NULL;
            if (!m || board < 0 || m->boards[board].run != k ||
                m->boards[board].device != r->device_id || strcmp(m->model, r->device)) {
                if ((model = model_of(out, r->device)) < 0) goto oom;
                m = &out->models[model];
                for (board = m->nboards - 1; board >= 0; board--)
                    if (m->boards[board].run == k && m->boards[board].device == r->device_id) break;
                if (board < 0 && (board = add_board(m, &runs[k], k, r)) < 0) goto oom;
            }
            t = vb_boards_time_ns(r);
            if (strcmp(r->status, "ok") || !(t > 0)) continue;
            if (!(e = grow(ent, *nent, sizeof *e))) goto oom;
            *e = (struct entry){r, model, board, order};
            (*nent)++;
        }
    return 0;
oom:
    return vb_err_set(err, VB_E_SYS, "out of memory");
}

/* fill_case sets case c of m from its entries e[0..n) (one model, one point, board order). */
static int fill_case(struct vb_boards_model *m, int c, const struct entry *e, int n,
                     struct vb_err *err)
{
    struct vb_boards_case *bc = &m->cases[c];
    struct vb_stats st;
    double *t = malloc(sizeof *t * (size_t)n);
    int i;
    if (!t) return vb_err_set(err, VB_E_SYS, "out of memory");
    snprintf(bc->variant, sizeof bc->variant, "%s", e[0].r->variant);
    snprintf(bc->axes, sizeof bc->axes, "%s", e[0].r->axes);
    bc->slowest = -1;
    for (i = 0; i < n; i++) {
        const struct vb_case_row **at = &m->at[(size_t)c * (size_t)m->nboards + (size_t)e[i].board];
        if (*at) continue; /* the same point twice on a board: its first row counts */
        *at = e[i].r;
        t[bc->nboards++] = vb_boards_time_ns(e[i].r);
        if (bc->slowest < 0 || vb_boards_time_ns(e[i].r) > bc->max) {
            bc->slowest = e[i].board;
            bc->max = vb_boards_time_ns(e[i].r);
        }
    }
    if (vb_stats_compute(t, (size_t)bc->nboards, &st)) {
        free(t);
        return vb_err_set(err, VB_E_SYS, "out of memory");
    }
    free(t);
    bc->min = st.min;
    bc->median = st.median;
    bc->max = st.max;
    return 0;
}

/* distinct: the boards among e[0..n) (sorted by board order within a point). */
static int distinct(const struct entry *e, int n)
{
    int i, d = 0;
    for (i = 0; i < n; i++)
        d += !i || e[i].board != e[i - 1].board;
    return d;
}

int vb_boards_compute(const struct vb_boards_run *runs, int nr, int min_boards,
                      struct vb_boards *out, struct vb_err *err)
{
    struct entry *e = NULL;
    struct group *g = NULL;
    int ne = 0, ng = 0, i, j, rc = -1;
    memset(out, 0, sizeof *out);
    if (collect(runs, nr, out, &e, &ne, err)) goto out;
    if (ne) qsort(e, (size_t)ne, sizeof *e, by_point); /* e is NULL when empty (qsort's UB) */
    for (i = 0; i < ne; i = j) {
        struct group *x;
        long key = e[i].order;
        for (j = i + 1;
             j < ne && e[j].model == e[i].model && !strcmp(e[j].r->variant, e[i].r->variant) &&
             !strcmp(e[j].r->axes, e[i].r->axes);
             j++)
            if (e[j].order < key) key = e[j].order;
        if (distinct(&e[i], j - i) < min_boards) continue;
        if (!(x = grow(&g, ng, sizeof *x))) goto oom;
        *x = (struct group){e[i].model, i, j - i, key};
        ng++;
    }
    if (ng) qsort(g, (size_t)ng, sizeof *g, by_key);
    for (i = 0; i < out->nmodels; i++) {
        struct vb_boards_model *m = &out->models[i];
        int n = 0;
        for (j = 0; j < ng; j++)
            n += g[j].model == i;
        if (!n) continue;
        m->cases = calloc((size_t)n, sizeof *m->cases);
        m->at = calloc((size_t)n * (size_t)m->nboards, sizeof *m->at);
        if (!m->cases || !m->at) goto oom;
    }
    for (j = 0; j < ng; j++) {
        struct vb_boards_model *m = &out->models[g[j].model];
        int c = m->ncases++;
        if (fill_case(m, c, &e[g[j].first], g[j].n, err)) goto out;
        m->boards[m->cases[c].slowest].slowest++;
    }
    for (i = 0; i < out->nmodels; i++) {
        struct vb_boards_model *m = &out->models[i];
        for (j = 0; j < m->nboards && m->ncases; j++)
            if (m->most < 0 || m->boards[j].slowest > m->boards[m->most].slowest) m->most = j;
    }
    rc = 0;
    goto out;
oom:
    vb_err_set(err, VB_E_SYS, "out of memory");
out:
    free(e);
    free(g);
    if (rc) vb_boards_free(out);
    return rc;
}

const struct vb_boards_model *vb_boards_find(const struct vb_boards *b, const char *model)
{
    int i;
    for (i = 0; i < b->nmodels; i++)
        if (!strcmp(b->models[i].model, model)) return &b->models[i];
    return NULL;
}

int vb_boards_case_index(const struct vb_boards_model *m, const char *variant, const char *axes)
{
    int i;
    for (i = 0; i < m->ncases; i++)
        if (!strcmp(m->cases[i].variant, variant) && !strcmp(m->cases[i].axes, axes)) return i;
    return -1;
}

double vb_boards_time(const struct vb_boards_model *m, int c, int k)
{
    const struct vb_case_row *r = m->at[(size_t)c * (size_t)m->nboards + (size_t)k];
    return r ? vb_boards_time_ns(r) : NAN;
}

int vb_boards_devices(const struct vb_case_row *rows, int n, int *lowest, char *buf, size_t cap)
{
    int i, d = -1, count = 0;
    size_t used = 0;
    *lowest = -1;
    if (cap) buf[0] = '\0';
    for (;;) { /* the next larger device id each pass: a run holds a handful */
        int next = -1;
        for (i = 0; i < n; i++)
            if (rows[i].device_id > d && (next < 0 || rows[i].device_id < next))
                next = rows[i].device_id;
        if (next < 0) return count;
        if (*lowest < 0) *lowest = next;
        if (used < cap)
            used += (size_t)snprintf(buf + used, cap - used, "%s%d", count ? ", " : "", next);
        count++;
        d = next;
    }
}

void vb_boards_keep(struct vb_case_row *rows, int *n, int dev)
{
    int i, m = 0;
    for (i = 0; i < *n; i++)
        if (rows[i].device_id < 0 || rows[i].device_id == dev) {
            if (m != i) rows[m] = rows[i];
            m++;
        }
    *n = m;
}

int vb_boards_pick(struct vb_case_row *rows, int *n, int want, int across, const char *side,
                   int64_t run, int *dev, int *ndev, char *note, size_t nn, struct vb_err *err)
{
    const char *opt = strcmp(side, "base") ? "--cand-device" : "--base-device";
    char list[128];
    int lowest, i;
    *ndev = vb_boards_devices(rows, *n, &lowest, list, sizeof list);
    *dev = lowest;
    if (want >= 0) {
        for (i = 0; i < *n && rows[i].device_id != want; i++) {
        }
        if (i == *n) {
            if (!*ndev) {
                vb_err_set(err, VB_E_USAGE, "%s run %lld has no GPU case, none on device %d", side,
                           (long long)run, want);
                return vb_err_hint(err, "leave %s and --device out for a run without GPU cases",
                                   opt);
            }
            vb_err_set(err, VB_E_USAGE,
                       "%s run %lld has no GPU case on device %d (its devices: %s)", side,
                       (long long)run, want, list);
            return vb_err_hint(err, "pass %s with one of its devices", opt);
        }
        *dev = want;
    } else if (*ndev > 1 && !across) {
        vb_err_set(err, VB_E_USAGE, "%s run %lld has cases on %d devices (%s)", side,
                   (long long)run, *ndev, list);
        return vb_err_hint(err,
                           "pass %s N (or --device N for both sides) to judge one board, or "
                           "--across-devices for the board table",
                           opt);
    } else if (*ndev > 1) {
        snprintf(note, nn,
                 "%s run %lld has cases on %d devices (%s): verdicts on device %d (%s N picks "
                 "another)",
                 side, (long long)run, *ndev, list, lowest, opt);
    }
    vb_boards_keep(rows, n, *dev);
    return 0;
}

void vb_boards_src_free(struct vb_boards_src *src)
{
    int k;
    for (k = 0; k < src->n; k++)
        free(src->rows[k]);
    free(src->rows);
    free(src->runs);
    free(src->hosts);
    memset(src, 0, sizeof *src);
}

int vb_boards_read(struct vb_store *s, const int64_t *ids, int n, struct vb_boards_src *src,
                   struct vb_err *err)
{
    struct vb_run_row *runs = NULL;
    int nruns = 0, k, j;
    memset(src, 0, sizeof *src);
    if (vb_store_runs(s, &runs, &nruns, err)) return -1;
    src->runs = calloc((size_t)n + 1, sizeof *src->runs);
    src->rows = calloc((size_t)n + 1, sizeof *src->rows);
    src->hosts = calloc((size_t)n + 1, sizeof *src->hosts);
    if (!src->runs || !src->rows || !src->hosts) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        goto fail;
    }
    for (k = 0; k < n; k++) {
        for (j = 0; j < nruns && runs[j].id != ids[k]; j++) {
        }
        if (j == nruns) {
            vb_err_set(err, VB_E_USAGE, "the database has no run %lld", (long long)ids[k]);
            vb_err_hint(err, "'varbench runs --db FILE' lists its runs");
            goto fail;
        }
        snprintf(src->hosts[k], sizeof src->hosts[k], "%s", runs[j].host);
        src->runs[k].id = ids[k];
        src->runs[k].host = src->hosts[k];
        src->n = k + 1;
        if (vb_store_cases(s, ids[k], &src->rows[k], &src->runs[k].n, err)) goto fail;
        src->runs[k].cases = src->rows[k];
    }
    free(runs);
    return 0;
fail:
    free(runs);
    vb_boards_src_free(src);
    return -1;
}
