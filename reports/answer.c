/*
 * answer: the report's first section, what a reader came for, one table per suite run (a
 * merged database: one per GPU model): per problem, and value of its other axes, at its largest
 * size, the fastest correct GPU rung, its time over its floor, its speed-up over the CPU
 * reference and over the seed's own rung (the ladder's first GPU rung that is not wrong on
 * purpose: the catalog lists rungs in ladder order), and from which size the GPU wins
 * (crossover.h). The details
 * follow it, family by family, as before.
 */
#include "registry.h"
#include "report_int.h"

/* usable: correct, timed and not throttled */
static int usable(const struct vb_case_row *r)
{
    return has_time(r) && !r->throttled;
}

/* at_point: at g's largest point, the fastest correct GPU rung (*best), the seed's rung sv
 * (*seed: its fastest board; a failed one when no board is correct) and the CPU reference
 * (*ref); NULLs for those the run does not hold there */
static void at_point(const struct run_data *rd, const struct vb_cross_group *g,
                     const struct vb_variant *sv, const struct vb_case_row **best,
                     const struct vb_case_row **seed, const struct vb_case_row **ref)
{
    int i;
    *best = *seed = *ref = NULL;
    for (i = 0; i < rd->n; i++) {
        const struct vb_case_row *r = &rd->cases[i];
        if (strcmp(rd->problem[i], g->problem) || strcmp(r->axes, g->largest->axes)) continue;
        if (r->is_reference) {
            if (!*ref || usable(r)) *ref = r;
            continue;
        }
        if (!r->needs_gpu) continue;
        if (sv && !strcmp(r->name, sv->name) &&
            (!*seed ||
             (usable(r) && (!usable(*seed) || r->e2e_median_ns < (*seed)->e2e_median_ns))))
            *seed = r;
        if (usable(r) && (!*best || r->e2e_median_ns < (*best)->e2e_median_ns)) *best = r;
    }
}

/* one_run writes run rd's table; returns its rows */
static int one_run(struct ctx *c, const struct run_data *rd)
{
    static const char *const head[] = {"problem",
                                       "at",
                                       "fastest GPU rung",
                                       "e2e (ms)",
                                       "energy a result (J)",
                                       "over floor",
                                       "over CPU reference",
                                       "over the seed's rung",
                                       "the GPU wins"};
    const struct vb_cross_group *g = rd->cross->g;
    char name[320], floor[48], cpu[32], seed[160], t[32], wins[360], joules[32];
    double j, ju;
    int i, rows = 0, n = rd->cross->ng;
    for (i = 0; i < n; i++) {
        const struct vb_case_row *best, *first, *ref;
        const struct vb_variant *sv = vb_seed_rung(g[i].family, g[i].problem);
        const char *cells[9];
        at_point(rd, &g[i], sv, &best, &first, &ref);
        if (!best) continue;
        if (!rows++) vb_page_table(&c->page, 9, head, "lllrrrrll");
        vb_cross_group_name(&g[i], name, sizeof name);
        if (isfinite(best->floor_ratio) && best->floor_ratio > 0)
            snprintf(floor, sizeof floor, "%.2fx (%s, %s)", best->floor_ratio, best->floor_bound,
                     best->floor_of);
        else
            snprintf(floor, sizeof floor, "-");
        if (ref && has_time(ref))
            snprintf(cpu, sizeof cpu, "%.3gx", ref->e2e_median_ns / best->e2e_median_ns);
        else
            snprintf(cpu, sizeof cpu, "-");
        if (first && first->e2e_median_ns == best->e2e_median_ns &&
            !strcmp(first->name, best->name))
            snprintf(seed, sizeof seed, "it is the seed's");
        else if (!first && sv)
            snprintf(seed, sizeof seed, "- (%s not in this run)", sv->name);
        else if (!first) /* a family of a user's program, or one this varbench does not know */
            snprintf(seed, sizeof seed, "- (no seed)");
        else if (!usable(first))
            snprintf(seed, sizeof seed, "- (%s %s)", first->name,
                     first->throttled ? "throttled" : first->status);
        else
            snprintf(seed, sizeof seed, "%.3gx (%s %.3g ms)",
                     first->e2e_median_ns / best->e2e_median_ns, first->name,
                     ms(first->e2e_median_ns));
        snprintf(t, sizeof t, "%.3g", ms(best->e2e_median_ns));
        j = vb_case_joules(best);
        ju = vb_case_joules_unc(best);
        if (isfinite(j) && isfinite(ju))
            snprintf(joules, sizeof joules, "%.3g +- %.2g", j, ju);
        else
            snprintf(joules, sizeof joules, isfinite(j) ? "%.3g" : "-", j);
        cells[0] = name;
        cells[1] = best->axes;
        cells[2] = best->name;
        cells[3] = t;
        cells[4] = joules;
        cells[5] = floor;
        cells[6] = cpu;
        cells[7] = seed;
        cells[8] = g[i].text[0] ? vb_cross_group_wins(&g[i], "; ", wins, sizeof wins) : "-";
        vb_page_row(&c->page, 0, cells);
    }
    if (rows) vb_page_table_end(&c->page);
    return rows;
}

/* cpu_only writes what a run without a GPU did: its CPU references' times, point by point;
 * returns its rows */
static int cpu_only(struct ctx *c, const struct run_data *rd)
{
    static const char *const head[] = {"problem",  "at",      "CPU reference",
                                       "e2e (ms)", "samples", "verified"};
    char name[320], t[32], n[16], err[300];
    const char *cells[6];
    int i, rows = 0, skipped = 0;
    for (i = 0; i < rd->n; i++)
        skipped += gpu_skipped(&rd->cases[i]);
    vb_page_para(&c->page, NULL,
                 "No GPU in this run: its %d GPU cases were recorded as skipped, not failed. "
                 "What ran, the CPU references, end to end at each point:",
                 skipped);
    for (i = 0; i < rd->n; i++) {
        const struct vb_case_row *r = &rd->cases[i];
        if (!r->is_reference) continue;
        if (!rows++) vb_page_table(&c->page, 6, head, "lllrrl");
        snprintf(name, sizeof name, "%s/%s", r->family, rd->problem[i]);
        snprintf(t, sizeof t, has_time(r) ? "%.3g" : "-", ms(r->e2e_median_ns));
        snprintf(n, sizeof n, "%d", r->samples);
        if (strcmp(r->status, "ok"))
            snprintf(err, sizeof err, "%s%s%.*s", r->status, r->reason[0] ? ": " : "",
                     head_len(r->reason), r->reason);
        else if (!has_time(r))
            snprintf(err, sizeof err, "ok, untimed%s%s", r->stop_reason[0] ? ": " : "",
                     r->stop_reason);
        else
            snprintf(err, sizeof err, "ok (the oracle)");
        cells[0] = name;
        cells[1] = r->axes;
        cells[2] = r->name;
        cells[3] = t;
        cells[4] = n;
        cells[5] = err;
        vb_page_row(&c->page, 0, cells);
    }
    if (rows) vb_page_table_end(&c->page);
    return rows;
}

void vb_section_answer(struct ctx *c, const struct run_data *rd, int nr)
{
    int k, shown = 0, tables = 0;
    for (k = 0; k < nr; k++) {
        if (!strcmp(rd[k].run.kind, "trace")) continue;
        if (!shown++) vb_page_section(&c->page, "answer", "The answer");
        vb_page_heading(&c->page, "run %lld: %s", (long long)rd[k].run.id,
                        rd[k].run.gpu[0] ? rd[k].run.gpu : "no GPU");
        if (!rd[k].run.gpu[0])
            cpu_only(c, &rd[k]);
        else if (one_run(c, &rd[k]))
            tables++;
        else
            vb_page_para(&c->page, NULL, "No GPU rung ran correctly in this run.");
    }
    if (tables) /* what the answer tables hold, under them */
        vb_page_para(
            &c->page, NULL,
            "Per problem at its largest size: the fastest correct GPU rung end to end, its "
            "time over its floor (the bound and the time it holds), its speed-up over the "
            "CPU reference and over the seed's own rung (the ladder's first GPU rung meant to "
            "be correct), and from which size the best GPU rung beats the CPU reference "
            "end to "
            "end, interpolated log-log on the run's sweep. The details follow, family by "
            "family.");
}
