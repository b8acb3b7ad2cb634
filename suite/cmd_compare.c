/*
 * compare: `varbench compare BASE.db CAND.db`, the regression verdict for CI (and, with
 * --across-devices, a hardware comparison). Prints a table, or Markdown for a pull-request
 * comment, and optionally a JUnit XML file.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare.h"
#include "escape.h"
#include "table.h"

static const char usage[] =
    "usage: varbench compare [options] BASE.db CAND.db\n"
    "\n"
    "Matches the cases of the candidate run with the base run (variant and axes) and judges\n"
    "each on its raw samples of the metric: the ratio of medians, and a Mann-Whitney U test.\n"
    "The default metric is the summed kernel time of a sample (CUPTI: the GPU's own work,\n"
    "reproducible run to run); --metric e2e judges end-to-end time, which includes host work\n"
    "and pageable copies that move between runs of the same binary. A case is\n"
    "slower or faster only when the change is over the threshold AND significant at alpha;\n"
    "a large but insignificant change, or too few samples, is noisy. A case that verified in\n"
    "the base and is wrong or failed in the candidate is broken.\n"
    "\n"
    "  --threshold PCT     relative change that matters (default 5)\n"
    "  --alpha A           significance of the rank test (default 0.001)\n"
    "  --min-samples N     fewer timed samples on a side: noisy (default 5)\n"
    "  --metric kernel|e2e summed kernel time per sample (default) or end-to-end time; CPU-only\n"
    "                      cases are compared under e2e only\n"
    "  --base-run ID       run of BASE.db (default: its newest complete run)\n"
    "  --cand-run ID       run of CAND.db (default: its newest complete run)\n"
    "  --format table|md   output: aligned table (default) or Markdown (pull-request comment)\n"
    "  --junit FILE        also write a JUnit XML report (slower/broken cases fail)\n"
    "  --across-devices    allow different GPU models: a hardware comparison (exit 0)\n"
    "  -h, --help          this text\n"
    "\n"
    "exit codes: 0 no regression, 1 regression (a case slower or broken), 3 inconclusive (a case\n"
    "noisy), 2 usage or input error (bad flag, unreadable database, different GPU models)\n";

enum { O_THR = 256, O_ALPHA, O_MINS, O_METRIC, O_BRUN, O_CRUN, O_FORMAT, O_JUNIT, O_ACROSS };

static int bad(const char *what, const char *arg)
{
    fprintf(stderr, "varbench compare: %s '%s'\n(see 'varbench compare --help')\n", what, arg);
    return 2;
}

static void fmt_change(const struct vb_cmp_row *r, char *buf, size_t n)
{
    if (!isfinite(r->ratio)) snprintf(buf, n, "-");
    else snprintf(buf, n, "%+.1f%%", (r->ratio - 1) * 100);
}

static void print_table(const struct vb_cmp_result *res, const struct vb_cmp_opts *o, int md)
{
    int i;
    const char *title = o->across_devices ? "hardware comparison" : "regression check";
    if (md) {
        printf("### varbench %s\n\nbase run %lld (", title, (long long)res->run_base);
        vb_put_md(stdout, res->gpu_base[0] ? res->gpu_base : "no GPU");
        printf(") vs candidate run %lld (", (long long)res->run_cand);
        vb_put_md(stdout, res->gpu_cand[0] ? res->gpu_cand : "no GPU");
        printf("); metric %s, threshold %g%%, alpha %g\n\n", o->metric, o->threshold * 100, o->alpha);
        printf("| variant | axes | base ms | candidate ms | change | p | samples | verdict | e2e change |\n"
               "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |\n");
    } else {
        printf("%s: base run %lld (%s) vs candidate run %lld (%s); metric %s, threshold %g%%, "
               "alpha %g\n", title, (long long)res->run_base,
               res->gpu_base[0] ? res->gpu_base : "no GPU", (long long)res->run_cand,
               res->gpu_cand[0] ? res->gpu_cand : "no GPU", o->metric, o->threshold * 100, o->alpha);
        printf("%-30s %-36s %10s %10s %8s %9s %11s %-13s %s\n", "variant", "axes", "base ms",
               "cand ms", "change", "p", "samples", "verdict", "e2e change (info)");
    }
    for (i = 0; i < res->nrows; i++) {
        const struct vb_cmp_row *r = &res->rows[i];
        char mb[24], mc[24], ch[24], p[24], n[32], e2e[24];
        const char *v = vb_verdict_name(r->verdict);
        vb_fmt_ms(r->med_base, mb, sizeof mb);
        vb_fmt_ms(r->med_cand, mc, sizeof mc);
        fmt_change(r, ch, sizeof ch);
        if (isfinite(r->p)) snprintf(p, sizeof p, "%.2g", r->p);
        else snprintf(p, sizeof p, "-");
        snprintf(n, sizeof n, "%d/%d", r->n_base, r->n_cand);
        if (isfinite(r->e2e_ratio)) snprintf(e2e, sizeof e2e, "%+.1f%%", (r->e2e_ratio - 1) * 100);
        else snprintf(e2e, sizeof e2e, "-");
        if (md) {
            printf("| ");
            vb_put_md(stdout, r->variant);
            printf(" | ");
            vb_put_md(stdout, r->axes);
            printf(" | %s | %s | %s | %s | %s | %s%s%s | %s |\n", mb, mc, ch, p, n,
                   r->verdict == VB_VERDICT_SLOWER || r->verdict == VB_VERDICT_BROKEN ? "**" : "", v,
                   r->verdict == VB_VERDICT_SLOWER || r->verdict == VB_VERDICT_BROKEN ? "**" : "", e2e);
        } else {
            printf("%-30s %-36s %10s %10s %8s %9s %11s %-13s %s", r->variant, r->axes, mb, mc, ch, p,
                   n, v, e2e);
            if (r->verdict == VB_VERDICT_BROKEN || r->verdict == VB_VERDICT_NOT_COMPARED)
                printf(" (%s -> %s)", r->status_base, r->status_cand);
            printf("\n");
        }
    }
    printf("%s", md ? "\n**" : "");
    for (i = 0; i < VB_VERDICT_COUNT; i++)
        printf("%s%d %s", i ? ", " : "", res->count[i], vb_verdict_name((enum vb_verdict)i));
    printf("%s\n", md ? "**" : "");
}

static int write_junit(const char *path, const struct vb_cmp_result *res)
{
    FILE *f = fopen(path, "w");
    int i, failures = res->count[VB_VERDICT_SLOWER] + res->count[VB_VERDICT_BROKEN];
    int skipped = res->nrows - failures - res->count[VB_VERDICT_SAME] - res->count[VB_VERDICT_FASTER];
    if (!f) return -1;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
               "<testsuite name=\"varbench compare\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n",
            res->nrows, failures, skipped);
    for (i = 0; i < res->nrows; i++) {
        const struct vb_cmp_row *r = &res->rows[i];
        char ch[24];
        fmt_change(r, ch, sizeof ch);
        fprintf(f, "  <testcase classname=\"");
        vb_put_xml(f, r->variant);
        fprintf(f, "\" name=\"");
        vb_put_xml(f, r->axes);
        fprintf(f, "\" time=\"%.6f\">", isfinite(r->med_cand) ? r->med_cand / 1e9 : 0.0);
        if (r->verdict == VB_VERDICT_SLOWER || r->verdict == VB_VERDICT_BROKEN)
            fprintf(f, "<failure message=\"%s %s (p %.2g; %s -&gt; %s)\"/>",
                    vb_verdict_name(r->verdict), ch, r->p, r->status_base, r->status_cand);
        else if (r->verdict != VB_VERDICT_SAME && r->verdict != VB_VERDICT_FASTER)
            fprintf(f, "<skipped message=\"%s %s\"/>", vb_verdict_name(r->verdict), ch);
        fprintf(f, "</testcase>\n");
    }
    fprintf(f, "</testsuite>\n</testsuites>\n");
    return fclose(f);
}

int vb_cmd_compare(int argc, char **argv)
{
    static const struct option lo[] = {
        {"threshold", required_argument, NULL, O_THR}, {"alpha", required_argument, NULL, O_ALPHA},
        {"min-samples", required_argument, NULL, O_MINS},
        {"metric", required_argument, NULL, O_METRIC},
        {"base-run", required_argument, NULL, O_BRUN}, {"cand-run", required_argument, NULL, O_CRUN},
        {"format", required_argument, NULL, O_FORMAT}, {"junit", required_argument, NULL, O_JUNIT},
        {"across-devices", no_argument, NULL, O_ACROSS}, {"help", no_argument, NULL, 'h'},
        {0, 0, 0, 0}};
    struct vb_cmp_opts o;
    struct vb_cmp_result res;
    struct vb_store *base = NULL, *cand = NULL;
    struct vb_err err;
    const char *junit = NULL;
    long long run_b = 0, run_c = 0;
    int c, md = 0, code;
    char *end;
    vb_cmp_opts_default(&o);
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
        switch (c) {
        case O_THR:
            o.threshold = strtod(optarg, &end) / 100;
            if (*end || !(o.threshold >= 0 && o.threshold < 10)) return bad("bad --threshold", optarg);
            break;
        case O_ALPHA:
            o.alpha = strtod(optarg, &end);
            if (*end || !(o.alpha > 0 && o.alpha < 1)) return bad("bad --alpha", optarg);
            break;
        case O_MINS:
            o.min_samples = (int)strtol(optarg, &end, 10);
            if (*end || o.min_samples < 1) return bad("bad --min-samples", optarg);
            break;
        case O_METRIC:
            if (strcmp(optarg, "e2e") && strcmp(optarg, "kernel")) return bad("bad --metric", optarg);
            o.metric = optarg;
            break;
        case O_BRUN:
        case O_CRUN:
            *(c == O_BRUN ? &run_b : &run_c) = strtoll(optarg, &end, 10);
            if (*end || (c == O_BRUN ? run_b : run_c) < 1) return bad("bad run id", optarg);
            break;
        case O_FORMAT:
            if (strcmp(optarg, "table") && strcmp(optarg, "md")) return bad("bad --format", optarg);
            md = !strcmp(optarg, "md");
            break;
        case O_JUNIT:
            junit = optarg;
            break;
        case O_ACROSS:
            o.across_devices = 1;
            break;
        case 'h':
            fputs(usage, stdout);
            return 0;
        case ':':
            return bad("option needs a value:", argv[optind - 1]);
        default:
            return bad("unknown option", argv[optind - 1]);
        }
    }
    if (argc - optind != 2) {
        fprintf(stderr, "varbench compare: expected BASE.db and CAND.db\n%s", usage);
        return 2;
    }
    if (vb_store_open_ro(argv[optind], &base, &err) || vb_store_open_ro(argv[optind + 1], &cand, &err)) {
        vb_store_close(base);
        err.code = VB_E_USAGE; /* an input error: compare's code 2 */
        return vb_report_error("compare", &err);
    }
    if (vb_compare_runs(base, run_b, cand, run_c, &o, &res, &err)) {
        vb_store_close(base);
        vb_store_close(cand);
        if (err.code != VB_E_SYS) err.code = VB_E_USAGE;
        return vb_report_error("compare", &err);
    }
    print_table(&res, &o, md);
    code = o.across_devices ? 0 : vb_cmp_exit(&res);
    printf("%sverdict: %s (exit %d)\n", md ? "\n" : "",
           o.across_devices ? "hardware comparison" : code == 1 ? "REGRESSION" : code == 3 ? "INCONCLUSIVE" : "no regression",
           code);
    if (junit && write_junit(junit, &res)) {
        fprintf(stderr, "varbench compare: cannot write the JUnit file '%s' (exit 2; the verdict "
                        "above stands)\n", junit);
        code = 2;
    }
    vb_cmp_result_free(&res);
    vb_store_close(base);
    vb_store_close(cand);
    return code;
}
