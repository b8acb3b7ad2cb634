/*
 * timing: see timing.h.
 */
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vb_timing_init(struct vb_timing *t)
{
    const char *v = getenv("VARBENCH_TIMING");
    memset(t, 0, sizeof *t);
    t->on = v && v[0] && strcmp(v, "0");
}

void vb_timing_case(struct vb_timing *t, const struct vb_case_result *r, double store_ns)
{
    double total = store_ns;
    int i;
    if (!t->on || r->status == VB_STATUS_SKIPPED) return;
    fprintf(stderr, "timing: %s/%s %s:", r->family->name, r->variant->name, r->axes);
    for (i = 0; i < VB_STAGE_COUNT; i++) {
        fprintf(stderr, " %s %.1f", vb_case_stage_names[i], r->stage_ns[i] / 1e6);
        if (i == VB_STAGE_METRICS && r->metrics_passes > 0)
            fprintf(stderr, " (configure %.1f, passes %.1f, decode %.1f)",
                    r->metrics_part_ns[VB_PROF_CONFIGURE] / 1e6,
                    r->metrics_part_ns[VB_PROF_PASSES] / 1e6,
                    r->metrics_part_ns[VB_PROF_DECODE] / 1e6);
        fprintf(stderr, ",");
        t->stage_ns[i] += r->stage_ns[i];
        total += r->stage_ns[i];
    }
    fprintf(stderr, " store %.1f; %.1f ms (%d samples)\n", store_ns / 1e6, total / 1e6,
            r->nsamples);
    t->store_ns += store_ns;
    t->case_ns += total;
    t->cases++;
}

void vb_timing_run(const struct vb_timing *t, double env_ns, double sweep_ns, double again_ns)
{
    int i;
    if (!t->on) return;
    fprintf(stderr, "timing: %d cases' stages:", t->cases);
    for (i = 0; i < VB_STAGE_COUNT; i++)
        fprintf(stderr, " %s %.2f s,", vb_case_stage_names[i], t->stage_ns[i] / 1e9);
    fprintf(stderr, " store %.2f s\n", t->store_ns / 1e9);
    fprintf(stderr,
            "timing: the run: environment and ceilings %.2f s, cases %.2f s (between them: "
            "%.2f s), the second metrics sweep %.2f s\n",
            env_ns / 1e9, sweep_ns / 1e9, (sweep_ns - t->case_ns) / 1e9, again_ns / 1e9);
}

void vb_timing_families(const struct vb_tally *t)
{
    double total = 0;
    int i;
    printf("time per family:");
    for (i = 0; vb_families[i] && i < 64; i++)
        if (t->family_s[i] > 0) {
            printf(" %s %.1f s,", vb_families[i]->name, t->family_s[i]);
            total += t->family_s[i];
        }
    printf(" all cases %.1f s\n", total);
}
