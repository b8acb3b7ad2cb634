/* diagnose: a fleet's boards against a baseline's spread (see diagnose.h). */
#include "diagnose.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"

void vb_diag_opts_default(struct vb_diag_opts *o)
{
    o->threshold = 0.05;
    o->base_run = o->run = 0;
}

void vb_diag_result_free(struct vb_diag_result *res)
{
    int i;
    for (i = 0; i < res->n; i++)
        free(res->boards[i].out);
    free(res->boards);
    free(res->base_runs);
    free(res->runs);
    memset(res, 0, sizeof *res);
}

/* append formats onto the string in buf (cap bytes), never past its end (the text is cut). */
static void append(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;
    if (used + 1 >= cap) return;
    va_start(ap, fmt);
    vsnprintf(buf + used, cap - used, fmt, ap);
    va_end(ap);
}

/* pick_runs sets *ids (malloc'd, oldest first) to the runs of s a side reads: run, which must
 * be a complete suite run, or (run 0) every complete suite run, the others named in left_out.
 * side: "baseline" or "fleet", opt: the option naming a run. 0, or -1 with err. */
static int pick_runs(struct vb_store *s, int64_t run, const char *side, const char *opt,
                     int64_t **ids, int *n, char *left_out, size_t cap, struct vb_err *err)
{
    struct vb_run_list_row *rows = NULL;
    int nrows = 0, i;
    *ids = NULL;
    *n = 0;
    if (vb_store_run_list(s, &rows, &nrows, err)) return -1;
    if (!(*ids = calloc((size_t)nrows + 1, sizeof **ids))) {
        vb_store_run_list_free(rows);
        return vb_err_set(err, VB_E_SYS, "out of memory");
    }
    for (i = nrows - 1; i >= 0; i--) { /* the list is newest first */
        const struct vb_run_list_row *r = &rows[i];
        int ok = !strcmp(r->kind, "suite") && !strcmp(r->status, "complete");
        if (run > 0 && r->id != run) continue;
        if (run > 0 && !ok) {
            vb_err_set(err, VB_E_USAGE,
                       "%s run %lld is a %s run, '%s': diagnose reads complete suite runs", side,
                       (long long)run, r->kind, r->status);
            vb_err_hint(err,
                        "pass %s with a complete suite run ('varbench runs' lists them), or "
                        "leave it out to take every complete one",
                        opt);
            goto fail;
        }
        if (ok)
            (*ids)[(*n)++] = r->id;
        else if (!strcmp(r->kind, "suite"))
            append(left_out, cap, "%srun %lld ('%s')", left_out[0] ? ", " : "", (long long)r->id,
                   r->status);
    }
    if (*n) {
        vb_store_run_list_free(rows);
        return 0;
    }
    if (run > 0) {
        vb_err_set(err, VB_E_USAGE, "the %s database has no run %lld", side, (long long)run);
        vb_err_hint(err, "'varbench runs --db FILE' lists its runs");
    } else {
        vb_err_set(err, VB_E_USAGE, "the %s database has no complete suite run%s%s", side,
                   left_out[0] ? "; not complete: " : "", left_out);
        vb_err_hint(err,
                    "finish or rerun the %s's run ('varbench run --device all'), or merge "
                    "its complete copy",
                    side);
    }
fail:
    vb_store_run_list_free(rows);
    free(*ids);
    *ids = NULL;
    *n = 0;
    return -1;
}

/* noise_of: the largest IQR/median of case c's timed samples over up to VB_DIAG_NOISE_BOARDS of
 * the boards of m it is on (its compared phase: kernel or e2e); 0 when none has samples. */
static int noise_of(struct vb_store *s, const struct vb_boards_model *m, int c, double *noise,
                    int *e2e, struct vb_err *err)
{
    int k, seen = 0;
    *noise = 0;
    *e2e = 0;
    for (k = 0; k < m->nboards && seen < VB_DIAG_NOISE_BOARDS; k++) {
        const struct vb_case_row *r = m->at[(size_t)c * (size_t)m->nboards + (size_t)k];
        double *x, q;
        int n;
        if (!r) continue;
        seen++;
        *e2e |= !strcmp(vb_boards_phase(r), "e2e");
        if (vb_store_samples(s, r->id, vb_boards_phase(r), &x, &n, err)) return -1;
        q = n >= 4 ? vb_stats_iqr_ratio(x, (size_t)n) : NAN;
        free(x);
        if (q > *noise) *noise = q; /* NaN (a zero median, too few samples) is no noise */
    }
    return 0;
}

/* by_distance orders a board's cases outside, furthest from the median first. */
static int by_distance(const void *x, const void *y)
{
    double a = fabs(log1p(((const struct vb_diag_case *)x)->dev));
    double b = fabs(log1p(((const struct vb_diag_case *)y)->dev));
    return (a < b) - (a > b);
}

/* judge_board holds board k of fleet model fm against baseline model bm; margin[i] is base case
 * i's margin (NaN: not read yet; read from the baseline's samples here). */
static int judge_board(struct vb_store *base, const struct vb_boards_model *bm, double *margin,
                       const struct vb_boards_model *fm, int k, const int *map,
                       const struct vb_diag_opts *o, struct vb_diag_board *db, struct vb_err *err)
{
    int c;
    if (!(db->out = calloc((size_t)fm->ncases + 1, sizeof *db->out)))
        return vb_err_set(err, VB_E_SYS, "out of memory");
    for (c = 0; c < fm->ncases; c++) {
        const struct vb_boards_case *bc;
        struct vb_diag_case x;
        double t = vb_boards_time(fm, c, k), noise;
        if (map[c] < 0 || !(t > 0)) continue;
        bc = &bm->cases[map[c]];
        if (isnan(margin[map[c]])) {
            int e2e;
            if (noise_of(base, bm, map[c], &noise, &e2e, err)) return -1;
            margin[map[c]] = fmax(o->threshold, VB_DIAG_NOISE_FACTOR * noise);
            /* a time on the host clock (copies, pageable ones above all) moves between boards
             * by more than its noise inside one */
            if (e2e) margin[map[c]] = fmax(margin[map[c]], VB_DIAG_HOST_FLOOR);
        }
        memset(&x, 0, sizeof x);
        snprintf(x.variant, sizeof x.variant, "%s", bc->variant);
        snprintf(x.axes, sizeof x.axes, "%s", bc->axes);
        x.value = t;
        x.median = bc->median;
        x.margin = margin[map[c]];
        x.lo = bc->min * (1 - x.margin);
        x.hi = bc->max * (1 + x.margin);
        x.dev = t / bc->median - 1;
        x.outside = t > x.hi; /* slower than every baseline board, by more than the margin */
        db->faster += t < x.lo;
        if (!db->checked++ || fabs(log1p(x.dev)) > fabs(log1p(db->worst.dev))) db->worst = x;
        if (x.outside) db->out[db->outside++] = x;
    }
    qsort(db->out, (size_t)db->outside, sizeof *db->out, by_distance);
    return 0;
}

/* judge_model judges every board of fleet model fm against the baseline's model bm (NULL: not
 * judged) into res->boards. */
static int judge_model(struct vb_store *base, const struct vb_boards_model *bm,
                       const struct vb_boards_model *fm, const struct vb_diag_opts *o,
                       struct vb_diag_result *res, struct vb_err *err)
{
    int *map = calloc((size_t)fm->ncases + 1, sizeof *map), k, c, rc = -1;
    double *margin = bm ? malloc(sizeof *margin * ((size_t)bm->ncases + 1)) : NULL;
    if (!map || (bm && !margin)) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        goto out;
    }
    for (c = 0; bm && c < bm->ncases; c++)
        margin[c] = NAN;
    for (c = 0; c < fm->ncases; c++)
        map[c] = bm ? vb_boards_case_index(bm, fm->cases[c].variant, fm->cases[c].axes) : -1;
    for (k = 0; k < fm->nboards; k++) {
        struct vb_diag_board *db = &res->boards[res->n++];
        memset(db, 0, sizeof *db);
        db->b = fm->boards[k];
        db->judged = bm != NULL;
        if (!bm) continue;
        res->judged++;
        if (judge_board(base, bm, margin, fm, k, map, o, db, err)) goto out;
        res->flagged += db->outside > 0;
    }
    rc = 0;
out:
    free(map);
    free(margin);
    return rc;
}

/* read_boards reads the boards of runs ids[0..n) of s (every case on one board or more). */
static int read_boards(struct vb_store *s, const int64_t *ids, int n, struct vb_boards_src *src,
                       struct vb_boards *b, const char *side, struct vb_err *err)
{
    int k;
    if (vb_boards_read(s, ids, n, src, err)) return -1;
    if (vb_boards_compute(src->runs, src->n, 1, b, err)) {
        vb_boards_src_free(src);
        return -1;
    }
    for (k = 0; k < b->nmodels && !b->models[k].nboards; k++) {
    }
    if (k < b->nmodels) return 0;
    vb_boards_free(b);
    vb_boards_src_free(src);
    vb_err_set(err, VB_E_USAGE, "the %s's complete suite runs have no GPU case", side);
    return vb_err_hint(err, "diagnose judges GPU boards: give it runs made on GPUs");
}

/* conclude refuses a diagnosis of nothing: no model in common, or no case comparable. */
static int conclude(const struct vb_diag_result *res, const struct vb_boards *fb,
                    struct vb_err *err)
{
    char fleet[512] = "";
    int i, checked = 0;
    for (i = 0; i < res->n; i++)
        checked += res->boards[i].checked;
    if (checked) return 0;
    for (i = 0; i < fb->nmodels; i++)
        append(fleet, sizeof fleet, "%s%s", i ? ", " : "", fb->models[i].model);
    if (!res->judged) {
        vb_err_set(err, VB_E_USAGE, "no GPU model in common: the baseline has %s, the fleet %s",
                   res->base_models, fleet);
        return vb_err_hint(err, "diagnose boards against a baseline of their own GPU model");
    }
    vb_err_set(err, VB_E_USAGE,
               "nothing comparable: no case of the fleet's judged boards is ok and timed in the "
               "baseline");
    return vb_err_hint(err, "run the same --filter and --axis values for the baseline and the "
                            "fleet");
}

int vb_diagnose(struct vb_store *base, struct vb_store *fleet, const struct vb_diag_opts *o,
                struct vb_diag_result *res, struct vb_err *err)
{
    struct vb_boards_src bs = {0}, fs = {0};
    struct vb_boards bb = {0}, fb = {0};
    int k, total = 0, rc = -1;
    memset(res, 0, sizeof *res);
    if (pick_runs(base, o->base_run, "baseline", "--base-run", &res->base_runs, &res->nbase_runs,
                  res->left_out[0], sizeof res->left_out[0], err) ||
        pick_runs(fleet, o->run, "fleet", "--run", &res->runs, &res->nruns, res->left_out[1],
                  sizeof res->left_out[1], err))
        goto out;
    if (read_boards(base, res->base_runs, res->nbase_runs, &bs, &bb, "baseline", err) ||
        read_boards(fleet, res->runs, res->nruns, &fs, &fb, "fleet", err))
        goto out;
    for (k = 0; k < bb.nmodels; k++) {
        res->base_boards += bb.models[k].nboards;
        append(res->base_models, sizeof res->base_models, "%s%s: %d board%s", k ? "; " : "",
               bb.models[k].model, bb.models[k].nboards, bb.models[k].nboards == 1 ? "" : "s");
    }
    for (k = 0; k < fb.nmodels; k++)
        total += fb.models[k].nboards;
    if (!(res->boards = calloc((size_t)total + 1, sizeof *res->boards))) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        goto out;
    }
    for (k = 0; k < fb.nmodels; k++)
        if (judge_model(base, vb_boards_find(&bb, fb.models[k].model), &fb.models[k], o, res, err))
            goto out;
    rc = conclude(res, &fb, err);
out:
    vb_boards_free(&bb);
    vb_boards_free(&fb);
    vb_boards_src_free(&bs);
    vb_boards_src_free(&fs);
    if (rc) vb_diag_result_free(res);
    return rc;
}
