/*
 * compare: `varbench compare BASE.db CAND.db`, the regression verdict for CI (and, with
 * --across-devices, a hardware comparison). Prints a table, or Markdown for a pull-request
 * comment, and optionally a JUnit XML file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boards.h"
#include "cmp_print.h"
#include "cmd.h"
#include "compare.h"
#include "escape.h"
#include "opt.h"
#include "fmt.h"

static const int codes[] = {0, 1, 2, 3, 6, 7, -1};
static const struct vb_usage usage = {
    .cmd = "compare",
    .synopsis = "[options] BASE.db CAND.db",
    .about =
        "Matches the cases of the candidate run with the base run (variant and axes) and judges\n"
        "each phase on its timed samples. Per phase: the ratio of medians; its noise, the\n"
        "larger IQR/median of the two sides; its limit, the larger of the threshold and 3x the\n"
        "noise (a traced range's instances: the threshold). A phase is slower or faster only when\n"
        "its change exceeds its limit and 0.5 us (timer and launch jitter) AND there is\n"
        "evidence: a Mann-Whitney U test significant at alpha (min-samples or more a side) or\n"
        "sample ranges that do not overlap (3 or more a side); otherwise a change over the limit\n"
        "is noisy. A phase the host moves (a copy, a CPU reference, an end-to-end time) is judged\n"
        "as measured and again against the controls measured before each of its samples (a copy\n"
        "of its size and host memory kind; the host's arithmetic chain, throughput mix and memory\n"
        "walk): slower only when every series is, the same when any is (the row names the control\n"
        "that explained it). Identical samples are the same. Under --metric gpu (the default) a\n"
        "GPU case is judged on its GPU time (CUPTI: H2D + kernel + D2H + memset) and on each of\n"
        "those phases whose base median is 5% or more of the base's GPU time; the case takes its\n"
        "worst phase (broken > slower > noisy > faster > same) and names it: 'slower (D2H\n"
        "+266%)'. A case throttled in either run (SM clock under 75% of peak) is noisy. CPU-only\n"
        "cases, and cases without CUPTI records for the metric, are judged on e2e (host clock).\n"
        "A case that verified in the base and is wrong or failed in the candidate is broken.\n",
    .notes =
        "--baseline-runs N pools the base side: a case's base samples are those of the base\n"
        "run and of the N-1 complete suite runs before it in BASE.db (by start time) on the\n"
        "same GPU model, concatenated (a case of a pooled run joins when it is ok and not\n"
        "throttled), so the base database's run-to-run noise counts as noise: a single lucky\n"
        "base run no longer makes a false alarm. With --base-run ID: ID and the N-1 runs before\n"
        "it. Fewer such runs: those there are, said on stderr. Default 1: the base run alone.\n"
        "Boards: a run of 'run --device all' holds each GPU case once per device (board). A side\n"
        "is judged on one device: --base-device N / --cand-device N (--device N: both) keep that\n"
        "device's GPU cases and every CPU-only case, so a multi-GPU run can be held against a\n"
        "one-GPU run board by board. A side with cases on several devices and no such option is\n"
        "refused (exit 2: its cases would match whichever device came first), except under\n"
        "--across-devices, where it is judged on its lowest device (said under the header) and,\n"
        "after the verdicts, each side with two or more boards of one GPU model gets its board\n"
        "table: per case ok on two or more boards, the boards, min, median and max of its time\n"
        "(kernel when its floor is the kernel's, else end to end), max/min and the slowest\n"
        "board, then the board slowest most often.\n"
        "Exit 2 also when a run is not complete or the GPU models differ (without\n"
        "--across-devices); a JUnit file that cannot be written is exit 6 (the verdict printed\n"
        "stands).\n",
    .codes = codes,
    .min_args = 2,
    .max_args = 2,
    .expects = "BASE.db and CAND.db",
};

/* fmt_base names the base side: "base run 9", or with a pooled baseline "base runs 9, 8, 7
 * pooled" (at most 4 ids, then "..., 1 (10 runs)"). */
static void fmt_base(const struct vb_cmp_result *res, char *buf, size_t n)
{
    size_t used;
    int k;
    if (res->npool <= 1) {
        snprintf(buf, n, "base run %lld", (long long)res->run_base);
        return;
    }
    used = (size_t)snprintf(buf, n, "base runs");
    for (k = 0; k < res->npool && used < n; k++) {
        if (k == 3 && res->npool > 4) {
            used += (size_t)snprintf(buf + used, n - used, ", ..., %lld (%d runs)",
                                     (long long)res->pool[res->npool - 1], res->npool);
            break;
        }
        used += (size_t)snprintf(buf + used, n - used, "%s %lld", k ? "," : "",
                                 (long long)res->pool[k]);
    }
    if (used < n) snprintf(buf + used, n - used, " pooled");
}

/* dev_of names the device a side was judged on, " device 1", where its run has several or one
 * was asked for; else "". */
static const char *dev_of(int dev, int ndev, int asked, char *buf, size_t n)
{
    if (dev >= 0 && (ndev > 1 || asked >= 0))
        snprintf(buf, n, " device %d", dev);
    else
        buf[0] = '\0';
    return buf;
}

/* print_notes prints the sentences saying which device a side of several was judged on. */
static void print_notes(const struct vb_cmp_result *res, int md)
{
    int i;
    for (i = 0; i < 2; i++) {
        if (!res->dev_note[i][0]) continue;
        if (md)
            vb_put_md(stdout, res->dev_note[i]);
        else
            vb_put_term(stdout, res->dev_note[i]);
        printf(md ? "\n\n" : "\n");
    }
}

static void print_table(const struct vb_cmp_result *res, const struct vb_cmp_opts *o, int md)
{
    const char *title = o->across_devices ? "hardware comparison" : "regression check";
    char based[160], db[32], dc[32];
    fmt_base(res, based, sizeof based);
    dev_of(res->dev_base, res->ndev_base, o->base_device, db, sizeof db);
    dev_of(res->dev_cand, res->ndev_cand, o->cand_device, dc, sizeof dc);
    if (md) {
        printf("### varbench %s\n\n%s%s (", title, based, db);
        vb_put_md(stdout, res->gpu_base[0] ? res->gpu_base : "no GPU");
        printf(") vs candidate run %lld%s (", (long long)res->run_cand, dc);
        vb_put_md(stdout, res->gpu_cand[0] ? res->gpu_cand : "no GPU");
        printf("); metric %s, threshold %g%% (or 3x the phase's noise), alpha %g\n\n", o->metric,
               o->threshold * 100, o->alpha);
    } else {
        printf("%s: %s%s (", title, based, db);
        vb_put_term(stdout, res->gpu_base[0] ? res->gpu_base : "no GPU");
        printf(") vs candidate run %lld%s (", (long long)res->run_cand, dc);
        vb_put_term(stdout, res->gpu_cand[0] ? res->gpu_cand : "no GPU");
        printf("); metric %s, threshold %g%% (or 3x the phase's noise), alpha %g\n", o->metric,
               o->threshold * 100, o->alpha);
    }
    print_notes(res, md);
    vb_cmp_print_rows(res, md, "samples");
}

/* print_model prints the board table of model m of one side ("base run 3"). */
static void print_model(const struct vb_boards_model *m, const char *side, int md)
{
    int i;
    if (md) {
        printf("\n**boards of ");
        vb_put_md(stdout, m->model);
        printf(" in the %s: %d**\n\n", side, m->nboards);
    } else {
        printf("\nboards of ");
        vb_put_term(stdout, m->model);
        printf(" in the %s: %d\n", side, m->nboards);
    }
    if (!m->ncases) {
        printf("no case is ok and timed on two or more of them\n");
        return;
    }
    if (md)
        printf("| variant | axes | boards | min ms | median ms | max ms | max / min | slowest "
               "board |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
    else
        printf("%-30s %-28s %6s %10s %10s %10s %9s  %s\n", "variant", "axes", "boards", "min ms",
               "median ms", "max ms", "max/min", "slowest board");
    for (i = 0; i < m->ncases; i++) {
        const struct vb_boards_case *c = &m->cases[i];
        char lo[24], mid[24], hi[24];
        vb_fmt_ms(c->min, lo, sizeof lo);
        vb_fmt_ms(c->median, mid, sizeof mid);
        vb_fmt_ms(c->max, hi, sizeof hi);
        if (md) {
            printf("| ");
            vb_put_md(stdout, c->variant);
            printf(" | ");
            vb_put_md(stdout, c->axes);
            printf(" | %d | %s | %s | %s | %.3f | ", c->nboards, lo, mid, hi, c->max / c->min);
            vb_put_md(stdout, m->boards[c->slowest].label);
            printf(" |\n");
        } else {
            char variant[4 * sizeof c->variant + 1], axes[4 * sizeof c->axes + 1];
            printf("%-30s %-28s %6d %10s %10s %10s %9.3f  ",
                   vb_term_str(c->variant, variant, sizeof variant),
                   vb_term_str(c->axes, axes, sizeof axes), c->nboards, lo, mid, hi,
                   c->max / c->min);
            vb_put_term(stdout, m->boards[c->slowest].label);
            printf("\n");
        }
    }
    printf("%sslowest most often: ", md ? "\n" : "");
    if (md)
        vb_put_md(stdout, m->boards[m->most].label);
    else
        vb_put_term(stdout, m->boards[m->most].label);
    printf(", in %d of %d cases\n", m->boards[m->most].slowest, m->ncases);
}

/* print_boards prints the board table of each GPU model with two or more boards in run `run`
 * of s (side: "base run 3"). 0, or -1 with err. */
static int print_boards(struct vb_store *s, int64_t run, const char *side, int md,
                        struct vb_err *err)
{
    struct vb_boards_src src;
    struct vb_boards b;
    int k;
    if (vb_boards_read(s, &run, 1, &src, err)) return -1;
    if (vb_boards_compute(src.runs, src.n, 2, &b, err)) {
        vb_boards_src_free(&src);
        return -1;
    }
    for (k = 0; k < b.nmodels; k++)
        if (b.models[k].nboards >= 2) print_model(&b.models[k], side, md);
    vb_boards_free(&b);
    vb_boards_src_free(&src);
    return 0;
}

/* warn_dropped says once, on stderr, that stored samples were left out as missing (compare.h's
 * dropped: negative or infinite): the first case and column, and how many cases more. */
static void warn_dropped(const struct vb_cmp_result *res)
{
    const struct vb_cmp_row *first = NULL;
    int i, more = 0;
    for (i = 0; i < res->nrows; i++) {
        if (!res->rows[i].dropped) continue;
        more += first != NULL;
        if (!first) first = &res->rows[i];
    }
    if (!first) return;
    fprintf(stderr, "varbench compare: warning: case '");
    vb_put_term(stderr, first->variant);
    fprintf(stderr, "'%s", first->axes[0] ? " " : "");
    vb_put_term(stderr, first->axes);
    fprintf(stderr,
            ": %d stored sample%s of %s %s not a duration (negative or infinite): left out as "
            "missing",
            first->dropped, first->dropped == 1 ? "" : "s", first->dropped_col,
            first->dropped == 1 ? "is" : "are");
    if (more)
        fprintf(stderr, "; %d more case%s %s such samples", more, more == 1 ? "" : "s",
                more == 1 ? "has" : "have");
    fprintf(stderr, "\n");
}

int vb_cmd_compare(int argc, char **argv)
{
    static const char *const formats[] = {"table", "md", NULL};
    struct vb_cmp_opts o;
    struct vb_cmp_result res;
    struct vb_store *base = NULL, *cand = NULL;
    struct vb_err err;
    const char *junit = NULL, *metric = NULL;
    int64_t run_b = 0, run_c = 0;
    double threshold = -1;
    int md = 0, code, n, rc, device = -1;
    vb_cmp_opts_default(&o);
    {
        const struct vb_opt opts[] = {
            VB_OPT_NUM(0, "threshold", "PCT", &threshold, 0, 999,
                       "relative change that matters (default 5)"),
            VB_OPT_NUM(0, "alpha", "A", &o.alpha, 1e-12, 0.5,
                       "significance of the rank test (default 0.001)"),
            VB_OPT_INT(0, "min-samples", "N", &o.min_samples, 1, 1e6,
                       "samples a side for the rank test; fewer: ranges only (default 5)"),
            VB_OPT_STR(0, "filter", "GLOB", &o.filter,
                       "the cases of these variants only, as family/variant globs ('mesh/*',\n"
                       "'mesh', 'trace/train.py'), on both sides and in a pooled baseline"),
            VB_OPT_STR(0, "metric", "M", &metric,
                       "gpu (default: GPU time and every phase of 5% or more of it), or one\n"
                       "phase alone: kernel, h2d, d2h, memset, e2e (end-to-end, host clock)"),
            VB_OPT_RUN("base-run", &run_b, "run of BASE.db (default: its newest complete run)"),
            VB_OPT_RUN("cand-run", &run_c, "run of CAND.db (default: its newest complete run)"),
            VB_OPT_CHOICE(0, "format", "table|md", &md, formats,
                          "output: aligned table (default) or Markdown (pull-request comment)"),
            VB_OPT_STR(0, "junit", "FILE", &junit,
                       "also write a JUnit XML report (slower/broken cases fail)"),
            VB_OPT_INT(0, "baseline-runs", "N", &o.baseline_runs, 1, VB_CMP_MAX_POOL,
                       "pool the base side over the base run and the N-1 complete runs\n"
                       "before it on its GPU model (default 1: the base run alone)"),
            VB_OPT_FLAG(0, "across-devices", &o.across_devices,
                        "allow different GPU models: a hardware comparison (exit 0, or 7\n"
                        "when nothing was compared), with the board tables"),
            VB_OPT_INT(0, "base-device", "N", &o.base_device, 0, 255,
                       "judge the base run's GPU cases on CUDA device N (see Boards)"),
            VB_OPT_INT(0, "cand-device", "N", &o.cand_device, 0, 255,
                       "judge the candidate run's GPU cases on CUDA device N"),
            VB_OPT_INT(0, "device", "N", &device, 0, 255, "both: --base-device N --cand-device N"),
            VB_OPT_END()};
        if ((rc = vb_opt_parse(&usage, opts, argc, argv, &n))) return rc == 1 ? 0 : rc;
    }
    if (threshold >= 0) o.threshold = threshold / 100;
    if (device >= 0 && (o.base_device >= 0 || o.cand_device >= 0))
        return vb_opt_error(&usage,
                            "--device %d names both sides' device: give it alone, or "
                            "--base-device and --cand-device",
                            device);
    if (device >= 0) o.base_device = o.cand_device = device;
    if (metric) {
        if (!vb_cmp_metric_ok(metric))
            return vb_opt_error(&usage, "bad --metric '%s': gpu, kernel, h2d, d2h, memset or e2e",
                                metric);
        o.metric = metric;
    }
    if (vb_store_open_ro(argv[1], &base, &err) || vb_store_open_ro(argv[2], &cand, &err)) {
        vb_store_close(base);
        return vb_report_error("compare", &err);
    }
    if (vb_compare_runs(base, run_b, cand, run_c, &o, &res, &err)) {
        vb_store_close(base);
        vb_store_close(cand);
        return vb_report_error("compare", &err);
    }
    if (res.npool < o.baseline_runs) {
        char gpu[4 * sizeof res.gpu_base + 1];
        fprintf(stderr,
                "varbench compare: --baseline-runs %d: '%s' has %d complete run%s on %s up to "
                "run %lld; the baseline pools %s\n",
                o.baseline_runs, argv[1], res.npool, res.npool == 1 ? "" : "s",
                vb_term_str(res.gpu_base[0] ? res.gpu_base : "no GPU", gpu, sizeof gpu),
                (long long)res.run_base, res.npool == 1 ? "that one" : "those");
    }
    warn_dropped(&res);
    print_table(&res, &o, md);
    if (o.across_devices) {
        char side[64];
        int same = !strcmp(argv[1], argv[2]) && res.run_base == res.run_cand;
        snprintf(side, sizeof side, "%s run %lld", same ? "base and candidate" : "base",
                 (long long)res.run_base);
        if (print_boards(base, res.run_base, side, md, &err)) goto db_fail;
        snprintf(side, sizeof side, "candidate run %lld", (long long)res.run_cand);
        if (!same && print_boards(cand, res.run_cand, side, md, &err)) goto db_fail;
    }
    if (!o.across_devices && vb_cmp_code(base, res.run_base, cand, res.run_cand, md, &err))
        goto db_fail;
    /* a hardware comparison has no regression to find, but one of nothing is no answer */
    code = !res.compared      ? vb_code_exit(VB_E_INCONCLUSIVE)
           : o.across_devices ? 0
                              : vb_cmp_exit(&res);
    printf("%sverdict: %s (exit %d)\n", md ? "\n" : "",
           code == vb_code_exit(VB_E_INCONCLUSIVE) ? "INCONCLUSIVE"
           : o.across_devices                      ? "hardware comparison"
           : code == 1                             ? "REGRESSION"
                                                   : "no regression",
           code);
    if (junit && vb_cmp_write_junit(junit, &res, "varbench compare")) {
        fprintf(stderr,
                "varbench compare: cannot write the JUnit file '%s' (exit %d; the verdict "
                "above stands)\n",
                junit, vb_code_exit(VB_E_SYS));
        code = vb_code_exit(VB_E_SYS);
    }
    vb_cmp_result_free(&res);
    vb_store_close(base);
    vb_store_close(cand);
    return code;
db_fail:
    vb_cmp_result_free(&res);
    vb_store_close(base);
    vb_store_close(cand);
    return vb_report_error("compare", &err);
}
