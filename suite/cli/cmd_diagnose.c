/*
 * diagnose: `varbench diagnose --baseline B.db F.db`, the boards of a fleet database that lie
 * outside a baseline's board-to-board spread (SuperBench's `sb result diagnosis`; the rule is
 * in diagnose.h). Prints a line per board and the flagged boards' cases, as a table or
 * Markdown; exit 0 when no board is flagged, 1 when one is.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "compare.h"
#include "diagnose.h"
#include "escape.h"
#include "opt.h"
#include "fmt.h"

/* The cases listed under a flagged board, furthest first. */
#define SHOWN 5

static const int codes[] = {0, 1, 2, 3, 6, -1};
static const struct vb_usage usage = {
    .cmd = "diagnose",
    .synopsis = "--baseline B.db [options] F.db",
    .about =
        "Holds each board of F.db (a fleet: runs of many nodes merged, each of one or more\n"
        "GPUs; a board is a device of a run) against the boards of B.db, the baseline, as\n"
        "SuperBench's 'sb result diagnosis' holds nodes against baseline values. Per case and\n"
        "GPU model the baseline is the median of the case's time over B's boards of that model\n"
        "and its range their [min, max]; a board of F is flagged on a case when its time lies\n"
        "above that range widened by the margin (slower than every baseline board; a time\n"
        "below it is counted as faster, not flagged): the larger of --threshold and\n"
        "3x the case's noise within a run (the largest IQR/median of its timed samples on up to\n"
        "8 baseline boards). The time is the kernel's when the case's floor is the kernel's,\n"
        "else end to end, and then the margin is at least 100% (host-clock times move that\n"
        "much between runs: compare's rule). Each side reads every complete suite run of its "
        "database, or the one\n"
        "--base-run/--run names; runs not complete are left out and named. Per board: cases\n"
        "checked, cases outside, the case furthest from the baseline median and its deviation;\n"
        "then each flagged board's cases outside, and 'N of M boards flagged'. Boards of a GPU\n"
        "model the baseline lacks are listed as not judged.\n",
    .notes = "Exit 1 when a board is flagged. Exit 2 also for a named run that is not a complete\n"
             "suite run, a side without a complete suite run or without GPU cases, no GPU model\n"
             "in common, or nothing comparable (no case of the fleet's boards in the baseline).\n"
             "A database that is missing or not a varbench database is exit 3.\n",
    .codes = codes,
    .min_args = 1,
    .max_args = 1,
    .expects = "F.db (the fleet's database)",
};

/* fmt_case writes "variant axes" into buf (stored text: control bytes shown escaped). */
static const char *fmt_case(const struct vb_diag_case *c, char *buf, size_t n)
{
    char v[640], a[1040];
    snprintf(buf, n, "%s %s", vb_term_str(c->variant, v, sizeof v),
             vb_term_str(c->axes, a, sizeof a));
    return buf;
}

/* print_head prints what was read and the rule. */
static void print_head(const struct vb_diag_result *res, const char *bpath, const char *fpath,
                       double threshold, int md)
{
    int i, k;
    printf(md ? "### varbench diagnose\n\nfleet `" : "diagnose: fleet '");
    printf("%s%s run%s", fpath, md ? "`" : "'", res->nruns == 1 ? "" : "s");
    for (k = 0; k < res->nruns; k++)
        printf("%s %lld", k ? "," : "", (long long)res->runs[k]);
    printf(" against baseline %s%s%s run%s", md ? "`" : "'", bpath, md ? "`" : "'",
           res->nbase_runs == 1 ? "" : "s");
    for (k = 0; k < res->nbase_runs; k++)
        printf("%s %lld", k ? "," : "", (long long)res->base_runs[k]);
    printf(" (");
    if (md)
        vb_put_md(stdout, res->base_models);
    else
        fputs(res->base_models, stdout);
    printf("); flagged: a case above the baseline boards' [min, max] widened by max(%g%%, 3x "
           "the case's noise; 100%% for end-to-end times)\n",
           threshold * 100);
    for (i = 0; i < 2; i++)
        if (res->left_out[i][0])
            printf("%snot complete, left out of the %s: %s\n", md ? "\n" : "",
                   i ? "fleet" : "baseline", res->left_out[i]);
    printf(md ? "\n| board | model | cases | above | furthest case | deviation | verdict |\n"
                "| --- | --- | ---: | ---: | --- | ---: | --- |\n"
              : "%-44s %-24s %5s %7s  %-44s %9s  %s\n",
           "board", "model", "cases", "above", "furthest case", "deviation", "verdict");
}

/* print_board prints board d's line. */
static void print_board(const struct vb_diag_board *d, int md)
{
    char worst[420] = "-", dev[32] = "-", verdict[320];
    if (!d->judged)
        snprintf(verdict, sizeof verdict, "not judged (model %s not in baseline)", d->b.model);
    else
        snprintf(verdict, sizeof verdict, "%s", d->outside ? "FLAGGED" : "ok");
    if (d->judged && d->faster)
        snprintf(verdict + strlen(verdict), sizeof verdict - strlen(verdict),
                 " (%d faster than the range)", d->faster);
    if (d->checked) {
        fmt_case(&d->worst, worst, sizeof worst);
        vb_cmp_fmt_change(d->worst.dev + 1, 1, dev, sizeof dev);
    }
    if (!md) {
        char label[260], model[260];
        printf("%-44s %-24s %5d %7d  %-44s %9s  %s\n", vb_term_str(d->b.label, label, sizeof label),
               vb_term_str(d->b.model, model, sizeof model), d->checked, d->outside, worst, dev,
               verdict);
        return;
    }
    printf("| ");
    vb_put_md(stdout, d->b.label);
    printf(" | ");
    vb_put_md(stdout, d->b.model);
    printf(" | %d | %d | ", d->checked, d->outside);
    vb_put_md(stdout, worst);
    printf(" | %s | %s", dev, d->outside ? "**" : "");
    vb_put_md(stdout, verdict);
    printf("%s |\n", d->outside ? "**" : "");
}

/* print_outside lists each flagged board's cases outside the baseline range, furthest first. */
static void print_outside(const struct vb_diag_result *res, int md)
{
    int i, k, head = 0;
    for (i = 0; i < res->n; i++) {
        const struct vb_diag_board *d = &res->boards[i];
        if (!d->outside) continue;
        if (!head++)
            printf(md ? "\n**cases above the baseline range**\n\n"
                      : "\ncases above the baseline range:\n");
        printf(md ? "- " : "  ");
        if (md)
            vb_put_md(stdout, d->b.label);
        else
            vb_put_term(stdout, d->b.label);
        printf(": %d of %d cases\n", d->outside, d->checked);
        for (k = 0; k < d->outside && k < SHOWN; k++) {
            const struct vb_diag_case *c = &d->out[k];
            char name[420], v[24], med[24], lo[24], hi[24], ch[32];
            vb_fmt_ms(c->value, v, sizeof v);
            vb_fmt_ms(c->median, med, sizeof med);
            vb_fmt_ms(c->lo, lo, sizeof lo);
            vb_fmt_ms(c->hi, hi, sizeof hi);
            vb_cmp_fmt_change(c->dev + 1, 1, ch, sizeof ch);
            printf(md ? "  - " : "    ");
            if (md)
                vb_put_md(stdout, fmt_case(c, name, sizeof name));
            else
                fputs(fmt_case(c, name, sizeof name), stdout);
            printf(": %s ms, baseline %s ms, range %s-%s ms (margin %.1f%%), %s\n", v, med, lo, hi,
                   c->margin * 100, ch);
        }
        if (d->outside > SHOWN) printf("%s%d more\n", md ? "  - " : "    ", d->outside - SHOWN);
    }
}

int vb_cmd_diagnose(int argc, char **argv)
{
    static const char *const formats[] = {"table", "md", NULL};
    struct vb_diag_opts o;
    struct vb_diag_result res;
    struct vb_store *base = NULL, *fleet = NULL;
    struct vb_err err;
    const char *bpath = NULL;
    double threshold = -1;
    int md = 0, n, rc, i, code;
    vb_diag_opts_default(&o);
    {
        const struct vb_opt opts[] = {
            VB_OPT_STR(0, "baseline", "B.db", &bpath,
                       "the baseline's database: its boards set each case's range (required)"),
            VB_OPT_RUN("base-run", &o.base_run,
                       "the baseline's run (default: every complete suite run of B.db)"),
            VB_OPT_RUN("run", &o.run,
                       "the fleet's run (default: every complete suite run of F.db)"),
            VB_OPT_NUM(0, "threshold", "PCT", &threshold, 0, 999,
                       "least margin around the baseline range, % (default 5)"),
            VB_OPT_CHOICE(0, "format", "table|md", &md, formats,
                          "output: aligned table (default) or Markdown"),
            VB_OPT_END()};
        if ((rc = vb_opt_parse(&usage, opts, argc, argv, &n))) return rc == 1 ? 0 : rc;
    }
    if (!bpath)
        return vb_opt_error(&usage,
                            "--baseline B.db is required: the boards to hold F.db's against");
    if (threshold >= 0) o.threshold = threshold / 100;
    if (vb_store_open_ro(bpath, &base, &err) || vb_store_open_ro(argv[1], &fleet, &err)) {
        vb_store_close(base);
        return vb_report_error("diagnose", &err);
    }
    rc = vb_diagnose(base, fleet, &o, &res, &err);
    vb_store_close(base);
    vb_store_close(fleet);
    if (rc) return vb_report_error("diagnose", &err);
    print_head(&res, bpath, argv[1], o.threshold, md);
    for (i = 0; i < res.n; i++)
        print_board(&res.boards[i], md);
    print_outside(&res, md);
    code = res.flagged ? 1 : 0;
    printf("%s%d of %d boards flagged", md ? "\n**" : "\n", res.flagged, res.judged);
    if (res.n > res.judged)
        printf("; %d not judged: model not in the baseline", res.n - res.judged);
    printf("%s (exit %d)\n", md ? "**" : "", code);
    vb_diag_result_free(&res);
    return code;
}
