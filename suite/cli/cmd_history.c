/*
 * history: `varbench history`, each case's median run after run with its change points: where
 * a case became slower or faster and stayed so (changepoint.h), like the trackers' (Chromium's,
 * Mozilla's) change-point views, from one database of many runs. Information, not a gate: it
 * exits 0 whatever it finds. Reads only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "cmd.h"
#include "escape.h"
#include "opt.h"
#include "store.h"
#include "fmt.h"
#include "moved.h"

static const int codes[] = {0, 2, 3, 6, -1};
static const struct vb_usage usage = {
    .cmd = "history",
    .synopsis = "[--db FILE] [--filter GLOB] [--metric M] [--penalty K] [--min-change PCT] [--all]",
    .about =
        "Each case (variant and axes) on each GPU model, run after run (its complete suite runs,\n"
        "oldest first, where the case is ok): the stored median of the metric, and where it\n"
        "changed level and stayed there. A change point is found by PELT (Killick et al. 2012)\n"
        "on the log of the medians: a step of a segment's mean, penalised K x sigma^2 x log n per\n"
        "change, sigma the run-to-run noise estimated from the successive differences (robust\n"
        "to the steps, at least 0.2%); a run out of line with both neighbours is an outlier, not\n"
        "a change, and a segment has 2 runs at least (one slow newest run is not yet a change);\n"
        "changes whose segment medians differ by less than the min change are dropped. Series\n"
        "with a change point are printed, a line a run, the run that starts a new level marked:\n"
        "'<- change point: 1.85x slower than runs 1-5 (median 0.1710 -> 0.3160 ms)'. Needs no\n"
        "GPU.\n",
    .notes = "Exit 0 whether or not there are change points (they are information; compare is\n"
             "the gate). Exit 2 also when --filter matches no case of the database. A stored\n"
             "median that is no time (+Inf, negative, text, a blob) is missing: its run has no\n"
             "point, and a warning on stderr names the first such case and its column.\n",
    .codes = codes,
};

/* The metrics a history can follow, as --metric names them (store.h's vb_store_history). */
static const char *const metrics[] = {"e2e", "gpu", "kernel", "h2d", "d2h", NULL};

/* One series to print: a history and the metric it follows. */
struct series {
    const struct vb_history *h;
    const char *metric;
    int fallback; /* e2e standing in for a case without GPU time */
};

/* choose picks, for the default metric, the GPU series of each case that has one in 2 or more
 * runs, else its e2e series. Both lists are ordered by variant, axes, GPU (the store's order,
 * byte-wise), so one merge pass pairs them. Returns the count written to out (ng + ne slots). */
static int choose(const struct vb_history *g, int ng, const struct vb_history *e, int ne,
                  struct series *out)
{
    int i = 0, j = 0, n = 0;
    while (i < ng || j < ne) {
        int c = i == ng ? 1 : j == ne ? -1 : strcmp(g[i].variant, e[j].variant);
        if (!c) c = strcmp(g[i].axes, e[j].axes);
        if (!c) c = strcmp(g[i].gpu, e[j].gpu);
        if (c <= 0 && g[i].n >= 2) {
            out[n++] = (struct series){&g[i], "gpu", 0};
        } else if (c >= 0) {
            out[n++] = (struct series){&e[j], "e2e", 1};
        }
        if (c <= 0) i++;
        if (c >= 0) j++;
    }
    return n;
}

/* why_moved prints, after a GPU series' change point at run i of s (ratio: after / before),
 * the counters that moved between the last run before it and run i (moved.h). 0, or -1 with
 * err. */
static int why_moved(struct vb_store *st, const struct series *s, int i, double ratio,
                     struct vb_err *err)
{
    char text[640];
    if (i < 1 || !strcmp(s->metric, "e2e")) return 0;
    if (vb_moved_line(st, s->h->pts[i - 1].case_id, st, s->h->pts[i].case_id, ratio,
                      VB_MOVED_THRESHOLD, text, sizeof text, err))
        return -1;
    if (!text[0]) return 0;
    printf("\n          counters that moved (run %lld -> %lld): ",
           (long long)s->h->pts[i - 1].run_id, (long long)s->h->pts[i].run_id);
    vb_put_term(stdout, text);
    return 0;
}

/* print_series prints one series: a header, then a line a run with its change point marks. The
 * stored strings are shown for the terminal (escape.h): ESC or a newline is shown, not sent. */
static int print_series(struct vb_store *st, const struct series *s, const int *cp, int ncp,
                        const double *x, struct vb_err *err)
{
    const struct vb_history *h = s->h;
    int i, k = 0, seg = 0;
    char ms[24];
    vb_put_term(stdout, h->variant);
    printf(" ");
    vb_put_term(stdout, h->axes);
    printf(" on ");
    vb_put_term(stdout, h->gpu[0] ? h->gpu : "no GPU");
    printf(": %s median%s, %d runs\n", s->metric, s->fallback ? " (no GPU time)" : "", h->n);
    snprintf(ms, sizeof ms, "%s ms", s->metric);
    printf("  %6s  %-19s  %-12s  %10s\n", "run", "start (UTC)", "commit", ms);
    for (i = 0; i < h->n; i++) {
        const struct vb_history_point *p = &h->pts[i];
        char start[20], commit[13], start_shown[4 * sizeof start], commit_shown[4 * sizeof commit];
        snprintf(start, sizeof start, "%.10s %.8s", p->start_utc,
                 strlen(p->start_utc) > 11 ? p->start_utc + 11 : "");
        snprintf(commit, sizeof commit, "%.12s", p->git_commit[0] ? p->git_commit : "-");
        printf("  %6lld  %-19s  %-12s  %10s", (long long)p->run_id,
               vb_term_str(start, start_shown, sizeof start_shown),
               vb_term_str(commit, commit_shown, sizeof commit_shown),
               vb_fmt_ms(p->value_ns, ms, sizeof ms));
        if (k < ncp && cp[k] == i) {
            double before, after;
            char mb[24], ma[24];
            vb_cp_step(x, h->n, cp, ncp, k, &before, &after);
            printf("  <- change point: %.2fx %s than runs %lld-%lld (median %s -> %s ms)",
                   after > before ? after / before : before / after,
                   after > before ? "slower" : "faster", (long long)h->pts[seg].run_id,
                   (long long)h->pts[i - 1].run_id, vb_fmt_ms(before, mb, sizeof mb),
                   vb_fmt_ms(after, ma, sizeof ma));
            if (why_moved(st, s, i, after / before, err)) return -1;
            seg = i;
            k++;
        }
        printf("\n");
    }
    printf("\n");
    return 0;
}

/* warn prints the warning a successful vb_store_history left in err (stored medians of its
 * column that are no time, left out as missing: one line for them all), shown for the terminal;
 * then clears err. */
static void warn(struct vb_err *err)
{
    if (err->msg[0]) {
        fprintf(stderr, "varbench history: warning: ");
        vb_put_term(stderr, err->msg);
        fprintf(stderr, "\n");
    }
    vb_err_clear(err);
}

/* cmp_id orders run ids for counting the distinct runs. */
static int cmp_id(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int vb_cmd_history(int argc, char **argv)
{
    const char *db = VB_DEFAULT_DB, *filter = NULL;
    struct vb_history *g = NULL, *e = NULL;
    struct vb_cp_opts o = VB_CP_OPTS_DEFAULT;
    struct vb_store *s = NULL;
    struct series *list = NULL;
    struct vb_err err;
    int64_t *ids = NULL;
    double *x = NULL, pct = -1;
    int *cp = NULL, metric = -1, all = 0, ng = 0, ne = 0, n, i, rc, nseries = 0, nids = 0;
    int changes = 0, analysed = 0, single = 0, code = 0, cap = 1;
    const struct vb_opt opts[] = {
        VB_OPT_DB(&db, "database (default " VB_DEFAULT_DB ")"),
        VB_OPT_STR(0, "filter", "GLOB", &filter,
                   "cases of these variants only, as family/variant globs ('mesh/*', 'mesh')"),
        VB_OPT_CHOICE(0, "metric", "M", &metric, metrics,
                      "the median followed: gpu (GPU time: H2D + kernel + D2H + memset), kernel,\n"
                      "h2d, d2h or e2e (host clock); default: gpu where the case has it in 2 or\n"
                      "more runs, e2e for the others (CPU-only cases)"),
        VB_OPT_NUM(0, "penalty", "K", &o.penalty, 0.1, 1000,
                   "K of the penalty K x sigma^2 x log n per change point (default 10; lower\n"
                   "finds smaller changes and more false ones)"),
        VB_OPT_NUM(0, "min-change", "PCT", &pct, 0, 1000,
                   "smaller changes of a segment's median are none (default 5)"),
        VB_OPT_FLAG(0, "all", &all, "print every series, with a change point or not"),
        VB_OPT_END()};
    if ((rc = vb_opt_parse(&usage, opts, argc, argv, &n))) return rc == 1 ? 0 : rc;
    if (pct >= 0) o.min_change = pct / 100;
    vb_err_clear(&err);
    if (vb_store_open_ro(db, &s, &err)) return vb_report_error("history", &err);
    if (vb_store_history(s, filter, metric >= 0 ? metrics[metric] : "gpu", &g, &ng, &err))
        goto fail;
    warn(&err);
    if (metric < 0 && vb_store_history(s, filter, "e2e", &e, &ne, &err)) goto fail;
    warn(&err);
    list = malloc(sizeof *list * (size_t)(ng + ne + 1));
    if (!list) goto oom;
    if (metric < 0) {
        nseries = choose(g, ng, e, ne, list);
    } else {
        for (i = 0; i < ng; i++)
            list[nseries++] = (struct series){&g[i], metrics[metric], 0};
    }
    if (filter && !nseries) {
        vb_err_set(&err, VB_E_USAGE, "no case of '%s' matches '%s'%s%s%s", db, filter,
                   metric >= 0 ? " with a " : "", metric >= 0 ? metrics[metric] : "",
                   metric >= 0 ? " median" : "");
        vb_err_hint(&err, "'varbench list' lists the variants; 'varbench runs --db %s' the runs",
                    db);
        goto fail;
    }
    for (i = 0; i < nseries; i++)
        cap += list[i].h->n;
    if (!(x = malloc(sizeof *x * (size_t)cap)) || !(cp = malloc(sizeof *cp * (size_t)cap)) ||
        !(ids = malloc(sizeof *ids * (size_t)cap)))
        goto oom;
    for (i = 0; i < nseries; i++) {
        const struct vb_history *h = list[i].h;
        int k, ncp;
        for (k = 0; k < h->n; k++) {
            x[k] = h->pts[k].value_ns;
            ids[nids++] = h->pts[k].run_id;
        }
        if (h->n < 2) { /* one run: no history yet */
            single++;
            continue;
        }
        analysed++;
        if ((ncp = vb_changepoints(x, h->n, &o, cp, cap)) == VB_CP_ENOMEM) goto oom;
        if (ncp < 0) { /* VB_CP_EVALUE: the store leaves such medians out; never "memory" */
            vb_err_set(&err, VB_E_DB, "case '%s' %s: a median is not a positive time", h->variant,
                       h->axes);
            goto fail;
        }
        changes += ncp;
        if ((ncp || all) && print_series(s, &list[i], cp, ncp, x, &err)) goto fail;
    }
    qsort(ids, (size_t)nids, sizeof *ids, cmp_id);
    for (i = 0, n = 0; i < nids; i++)
        n += !i || ids[i] != ids[i - 1];
    printf("history: %d series over %d run%s, %d change point%s (PELT on log medians, penalty "
           "%g*sigma^2*log n, min change %g%%)\n",
           analysed, n, n == 1 ? "" : "s", changes, changes == 1 ? "" : "s", o.penalty,
           o.min_change * 100);
    if (single)
        printf("history: %d series %s one run only: a history needs two runs of a case "
               "('varbench runs --db %s' lists the runs; complete suite runs and traced runs' "
               "ranges count)\n",
               single, single == 1 ? "has" : "have", db);
    if (!nseries)
        printf("history: no complete run of '%s' has an ok case with that median ('varbench runs "
               "--db %s' lists the runs)\n",
               db, db);
    goto out;
oom:
    vb_err_set(&err, VB_E_SYS, "out of memory");
fail:
    code = vb_report_error("history", &err);
out:
    free(ids);
    free(cp);
    free(x);
    free(list);
    vb_store_history_free(g, ng);
    vb_store_history_free(e, ne);
    vb_store_close(s);
    return code;
}
