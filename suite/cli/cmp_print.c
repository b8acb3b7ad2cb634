/*
 * cmp_print: see cmp_print.h.
 */
#include "cmp_print.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "fmt.h"
#include "summary.h"

/* fmt_phase names what the row was judged on: "D2H", or "e2e (CPU-only)". */
static void fmt_phase(const struct vb_cmp_row *r, char *buf, size_t n)
{
    if (!r->phase[0])
        snprintf(buf, n, "-");
    else if (r->basis[0])
        snprintf(buf, n, "%s (%s)", vb_cmp_phase_label(r->phase), r->basis);
    else
        snprintf(buf, n, "%s", vb_cmp_phase_label(r->phase));
}

/* Table cells of a row, formatted once for the three outputs. */
struct cells {
    char phase[64], mb[24], mc[24], ch[24], lim[24], p[24], n[32], e2e[24], text[160];
};

/* Names from the databases as the aligned table shows them (escape.h's vb_term_str: ESC or a
 * newline in a stored name is shown, never sent to the terminal), a 4x escape of each. */
struct shown {
    char variant[4 * 160 + 1], axes[4 * 256 + 1], phase[4 * 64 + 1], text[4 * 160 + 1];
};

/* show fills sh from a row's variant and axes and its cells' phase and text. */
static void show(const char *variant, const char *axes, const struct cells *c, struct shown *sh)
{
    vb_term_str(variant, sh->variant, sizeof sh->variant);
    vb_term_str(axes, sh->axes, sizeof sh->axes);
    vb_term_str(c ? c->phase : "", sh->phase, sizeof sh->phase);
    vb_term_str(c ? c->text : "", sh->text, sizeof sh->text);
}

/* fmt_limit writes a limit as a percentage with one decimal, or "-" when there is none (a phase
 * without samples on a side): never "nan%". Returns buf. */
static char *fmt_limit(double limit, char *buf, size_t n)
{
    return vb_fmt_num(limit * 100, "%.1f%%", buf, n);
}

static void cells_of(const struct vb_cmp_row *r, struct cells *c)
{
    fmt_phase(r, c->phase, sizeof c->phase);
    vb_fmt_ms(r->med_base, c->mb, sizeof c->mb);
    vb_fmt_ms(r->med_cand, c->mc, sizeof c->mc);
    vb_cmp_fmt_change(r->ratio, 1, c->ch, sizeof c->ch);
    fmt_limit(r->limit, c->lim, sizeof c->lim);
    if (isfinite(r->p))
        snprintf(c->p, sizeof c->p, "%.2g", r->p);
    else
        snprintf(c->p, sizeof c->p, "-");
    if (r->phase[0])
        snprintf(c->n, sizeof c->n, "%d/%d", r->n_base, r->n_cand);
    else
        snprintf(c->n, sizeof c->n, "-");
    vb_cmp_fmt_change(r->e2e_ratio, 1, c->e2e, sizeof c->e2e);
    vb_cmp_row_text(r, c->text, sizeof c->text);
}

/* print_moved lists, a line a case, the counters that moved in the cases that moved (moved.h) */
static void print_moved(const struct vb_cmp_result *res)
{
    int i, head = 0;
    for (i = 0; i < res->nrows; i++) {
        const struct vb_cmp_row *r = &res->rows[i];
        if (!r->moved[0]) continue;
        if (!head++) printf("\ncounters that moved (the cause first):\n");
        printf("  ");
        vb_put_term(stdout, r->variant);
        printf(" ");
        vb_put_term(stdout, r->axes);
        printf(": ");
        vb_put_term(stdout, r->moved);
        printf("\n");
    }
}

/* print_phases lists every judged phase of the cases that changed or are noisy, when more
 * than one phase was judged: what the deciding phase was chosen from; and whether the case's
 * GPU code changed, where both runs say. */
static void print_phases(const struct vb_cmp_result *res, int md)
{
    int i, k, head = 0;
    for (i = 0; i < res->nrows; i++) {
        const struct vb_cmp_row *r = &res->rows[i];
        if (r->nphases < 2 || r->verdict == VB_VERDICT_SAME) continue;
        if (!head++) printf(md ? "\n**phases of the cases that moved**\n\n" : "\nphases:\n");
        if (md) {
            printf("- ");
            vb_put_md(stdout, r->variant);
            printf(" ");
            vb_put_md(stdout, r->axes);
            printf(":");
        } else {
            printf("  ");
            vb_put_term(stdout, r->variant);
            printf(" ");
            vb_put_term(stdout, r->axes);
            printf(":");
        }
        for (k = 0; k < r->nphases; k++) {
            const struct vb_cmp_phase *ph = &r->phases[k];
            char ch[24], lim[24];
            vb_cmp_fmt_change(ph->ratio, 1, ch, sizeof ch);
            printf("%s %s %s %s (limit %s)", k ? "," : "", vb_cmp_phase_label(ph->name),
                   vb_verdict_name(ph->verdict), ch, fmt_limit(ph->limit, lim, sizeof lim));
        }
        if (r->code_same >= 0)
            printf("; GPU code %s",
                   r->code_same ? "unchanged (the same SASS, launched the same way)"
                                : "changed (SASS, launch configuration or launches a sample)");
        printf("\n");
    }
}

void vb_cmp_print_rows(const struct vb_cmp_result *res, int md, const char *ncol)
{
    int i, first = 1;
    if (md)
        printf("| variant | axes | phase | base ms | candidate ms | change | limit | p | %s | "
               "e2e change | verdict | counters that moved |\n"
               "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n",
               ncol);
    else
        printf("%-30s %-28s %-22s %10s %10s %8s %7s %8s %9s %9s  %s\n", "variant", "axes", "phase",
               "base ms", "cand ms", "change", "limit", "p", ncol, "e2e chg", "verdict");
    for (i = 0; i < res->nrows; i++) {
        const struct vb_cmp_row *r = &res->rows[i];
        int bold = r->verdict == VB_VERDICT_SLOWER || r->verdict == VB_VERDICT_BROKEN;
        struct cells c;
        cells_of(r, &c);
        if (md) {
            printf("| ");
            vb_put_md(stdout, r->variant);
            printf(" | ");
            vb_put_md(stdout, r->axes);
            printf(" | ");
            vb_put_md(stdout, c.phase);
            printf(" | %s | %s | %s | %s | %s | %s | %s | %s", c.mb, c.mc, c.ch, c.lim, c.p, c.n,
                   c.e2e, bold ? "**" : "");
            vb_put_md(stdout, c.text);
            printf("%s | ", bold ? "**" : "");
            vb_put_md(stdout, r->moved);
            printf(" |\n");
        } else {
            struct shown sh;
            show(r->variant, r->axes, &c, &sh);
            printf("%-30s %-28s %-22s %10s %10s %8s %7s %8s %9s %9s  %s\n", sh.variant, sh.axes,
                   sh.phase, c.mb, c.mc, c.ch, c.lim, c.p, c.n, c.e2e, sh.text);
        }
    }
    print_phases(res, md);
    if (!md) print_moved(res);
    printf("%s", md ? "\n**" : "\n");
    for (i = 0; i < VB_VERDICT_COUNT; i++) {
        if (!res->count[i]) continue;
        printf("%s%d %s", first ? "" : ", ", res->count[i], vb_verdict_name((enum vb_verdict)i));
        first = 0;
    }
    printf("%s%s\n", first ? "no cases" : "", md ? "**" : "");
    if (!res->compared) {
        printf("%s", md ? "\n" : "");
        if (md)
            vb_put_md(stdout, res->why);
        else
            vb_put_term(stdout, res->why);
        printf("\n");
    }
}

int vb_cmp_write_junit(const char *path, const struct vb_cmp_result *res, const char *suite)
{
    FILE *f = fopen(path, "w");
    int i, failures = res->count[VB_VERDICT_SLOWER] + res->count[VB_VERDICT_BROKEN];
    int skipped =
        res->nrows - failures - res->count[VB_VERDICT_SAME] - res->count[VB_VERDICT_FASTER];
    if (!f) return -1;
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
            "<testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n",
            suite, res->nrows, failures, skipped);
    for (i = 0; i < res->nrows; i++) {
        const struct vb_cmp_row *r = &res->rows[i];
        struct cells c;
        char msg[2048];
        cells_of(r, &c);
        snprintf(msg, sizeof msg,
                 "%s; %s: base %s ms, candidate %s ms, limit %s, p %s, samples %s%s%s", c.text,
                 c.phase, c.mb, c.mc, c.lim, c.p, c.n, r->moved[0] ? "; counters that moved: " : "",
                 r->moved);
        fprintf(f, "  <testcase classname=\"");
        vb_put_xml(f, r->variant);
        fprintf(f, "\" name=\"");
        vb_put_xml(f, r->axes);
        fprintf(f, "\" time=\"%.6f\">", isfinite(r->med_cand) ? r->med_cand / 1e9 : 0.0);
        if (r->verdict == VB_VERDICT_SLOWER || r->verdict == VB_VERDICT_BROKEN) {
            fprintf(f, "<failure message=\"");
            vb_put_xml(f, msg);
            fprintf(f, "\"/>");
        } else if (r->verdict != VB_VERDICT_SAME && r->verdict != VB_VERDICT_FASTER) {
            fprintf(f, "<skipped message=\"");
            vb_put_xml(f, msg);
            fprintf(f, "\"/>");
        }
        fprintf(f, "</testcase>\n");
    }
    fprintf(f, "</testsuite>\n</testsuites>\n");
    return fclose(f);
}

void vb_cmp_print_code(FILE *f, const struct vb_code_diff *d, int md)
{
    char name[160];
    int i;
    const char *lead = md ? "\n**GPU code**: " : "GPU code: ";
    switch (d->state) {
    case VB_CODE_NONE:
        return;
    case VB_CODE_UNRECORDED:
        fprintf(f,
                "%snot recorded in %s (a run before varbench hashed its kernels' SASS, or a "
                "trace without --metrics, which leaves CUPTI's subscriber to the program): "
                "unknown\n",
                lead,
                !d->base_recorded && !d->cand_recorded ? "either run"
                : !d->base_recorded                    ? "the base run"
                                                       : "the candidate run");
        return;
    case VB_CODE_UNKNOWN:
        fprintf(f, "%sunknown: no kernel both runs launched has one hash on both sides", lead);
        break;
    case VB_CODE_SAME:
        fprintf(f, "%sunchanged: each of the %d kernel%s both runs launched has the same SASS",
                lead, d->kernels, d->kernels == 1 ? "" : "s");
        break;
    case VB_CODE_CHANGED:
        fprintf(f, "%s%d of %d kernels changed:", lead, d->changed, d->kernels);
        for (i = 0; i < d->changed && i < VB_CODE_NAMES; i++)
            fprintf(f, "%s %s (SASS %016" PRIx64 " -> %016" PRIx64 ")", i ? "," : "",
                    vb_summary_kernel_name(d->name[i], name, sizeof name), d->from[i], d->to[i]);
        if (d->changed > VB_CODE_NAMES) fprintf(f, ", and %d more", d->changed - VB_CODE_NAMES);
        break;
    }
    if (d->unknown) fprintf(f, "; %d without a hash on a side", d->unknown);
    if (d->only_base || d->only_cand)
        fprintf(f, "; launched by one run only: %d by the base, %d by the candidate", d->only_base,
                d->only_cand);
    fputc('\n', f);
}

int vb_cmp_code(struct vb_store *base, int64_t rb, struct vb_store *cand, int64_t rc, int md,
                struct vb_err *err)
{
    struct vb_run_kernel *b = NULL, *c = NULL;
    struct vb_code_diff d;
    int nb = 0, nc = 0, brec = 0, crec = 0;
    if (vb_store_run_code(base, rb, &b, &nb, &brec, err) ||
        vb_store_run_code(cand, rc, &c, &nc, &crec, err)) {
        free(b);
        return -1;
    }
    vb_code_diff(b, nb, brec, c, nc, crec, &d);
    vb_cmp_print_code(stdout, &d, md);
    free(b);
    free(c);
    return 0;
}
