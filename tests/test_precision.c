/* The timed samples' stopping rule (runner.h's vb_runner_precision): a copy of pageable host
 * memory, which compare judges at a 100% limit, is precise at 5%; the same copy pinned, judged
 * at 25%, at 1.25%; a kernel at 0.5%; the gpu time at its copies' shares of theirs; no phase
 * closer than 25 ns, a twentieth of the change compare never calls material. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "runner.h"
#include "test.h"
#include "tests.h"

/* fill: 40 timed samples, kernel 100 us +-0.2%, h2d 300 us and d2h 100 us spread +-4%, the gpu
 * time their sum; one H2D and one D2H record of host memory of kind mem (1 pageable, 2 pinned) */
static int fill(struct vb_case_result *r, int mem)
{
    int i;
    memset(r, 0, sizeof *r);
    if (!(r->samples = calloc(40, sizeof *r->samples)) ||
        !(r->activity.copies = calloc(2, sizeof *r->activity.copies)))
        return -1;
    r->nsamples = r->ntimed = 40;
    r->have_records = 1;
    for (i = 0; i < 40; i++) {
        struct vb_sample *s = &r->samples[i];
        double u = (i % 9 - 4) / 4.0; /* -1 .. 1 */
        s->kind = VB_SAMPLE_TIMED;
        s->kernel_ns = 100e3 * (1 + 0.002 * u);
        s->h2d_ns = 300e3 * (1 + 0.04 * u);
        s->d2h_ns = 100e3 * (1 - 0.04 * u);
        s->gpu_ns = s->kernel_ns + s->h2d_ns + s->d2h_ns;
        s->e2e_ns = s->gpu_ns + 20e3;
    }
    r->activity.ncopies = 2;
    r->activity.copies[0].copy_kind = VB_COPY_HTOD;
    r->activity.copies[0].src_kind = (uint8_t)mem;
    r->activity.copies[1].copy_kind = VB_COPY_DTOH;
    r->activity.copies[1].dst_kind = (uint8_t)mem;
    return 0;
}

int test_precision_pageable(const char *arg)
{
    struct vb_case_result r;
    struct vb_sampling cfg;
    const char *worst;
    double ci, q;
    int n;
    (void)arg;
    vb_sampling_default(&cfg);
    /* the runner's pageable precision is compare's threshold (such a copy is judged against its
     * control, at the threshold and 3x its own spread: it spreads 5-40%) */
    {
        struct vb_cmp_opts o;
        vb_cmp_opts_default(&o);
        ASSERT(fabs(cfg.precision_pageable - o.threshold) < 1e-12);
        ASSERT(fabs(cfg.precision_copy * 4 - o.threshold) < 1e-12);
    }
    /* pageable: the copies' CIs (about 1-2%) are within 5%, the kernel's within 0.5% */
    ASSERT(fill(&r, VB_MEM_PAGEABLE) == 0);
    q = vb_runner_precision(&r, &cfg, &worst, &ci, &n);
    ASSERT_INT_EQ(n, 40);
    ASSERT(q <= 1 && q > 0);
    ASSERT(ci > 0.005 && ci < 0.05);
    free(r.samples);
    free(r.activity.copies);
    /* pinned: the same copies (CIs of 1-2%) are not precise at 1.25%; the worst is a copy */
    ASSERT(fabs(cfg.floor_ns * 20 - VB_CMP_FLOOR_NS) < 1e-12);
    ASSERT(fill(&r, 2) == 0);
    q = vb_runner_precision(&r, &cfg, &worst, &ci, &n);
    ASSERT(q > 1);
    ASSERT(!strcmp(worst, "h2d") || !strcmp(worst, "d2h"));
    ASSERT(fabs(q * cfg.precision_copy - ci) < 1e-12);
    /* at half their spread (CIs of 0.5-1%) they are: pinned copies at 1.25%, not 0.5% */
    for (n = 0; n < 40; n++) {
        struct vb_sample *s = &r.samples[n];
        double u = (n % 9 - 4) / 4.0;
        s->h2d_ns = 300e3 * (1 + 0.02 * u);
        s->d2h_ns = 100e3 * (1 - 0.02 * u);
        s->gpu_ns = s->kernel_ns + s->h2d_ns + s->d2h_ns;
    }
    q = vb_runner_precision(&r, &cfg, &worst, &ci, &n);
    ASSERT(q <= 1);
    cfg.precision_copy = cfg.precision; /* held to the kernels' 0.5%, a copy is not */
    q = vb_runner_precision(&r, &cfg, &worst, &ci, &n);
    ASSERT(q > 1);
    ASSERT(!strcmp(worst, "h2d") || !strcmp(worst, "d2h"));
    /* a 2 us phase is precise at 25 ns (1.25%) whatever the precision asked for */
    cfg.precision = cfg.precision_copy = 0.001;
    for (n = 0; n < 40; n++) {
        struct vb_sample *s = &r.samples[n];
        double u = (n % 9 - 4) / 4.0;
        s->kernel_ns = 1e3 * (1 + 0.001 * u);
        s->h2d_ns = 2e3 * (1 + 0.01 * u);
        s->d2h_ns = 1e3 * (1 - 0.01 * u);
        s->gpu_ns = s->kernel_ns + s->h2d_ns + s->d2h_ns;
    }
    q = vb_runner_precision(&r, &cfg, &worst, &ci, &n);
    ASSERT(q <= 1);
    cfg.floor_ns = 0; /* without the floor: not at 0.1% */
    q = vb_runner_precision(&r, &cfg, &worst, &ci, &n);
    ASSERT(q > 1);
    vb_sampling_default(&cfg);
    /* a noisy kernel is still held to 0.5% beside pageable copies */
    r.activity.copies[0].src_kind = r.activity.copies[1].dst_kind = VB_MEM_PAGEABLE;
    for (n = 0; n < 40; n++) {
        struct vb_sample *s = &r.samples[n];
        s->kernel_ns = 100e3 * (1 + 0.04 * ((n % 7) - 3) / 3.0);
        s->gpu_ns = s->kernel_ns + s->h2d_ns + s->d2h_ns;
    }
    q = vb_runner_precision(&r, &cfg, &worst, &ci, &n);
    ASSERT(q > 1);
    ASSERT_STR_EQ(worst, "kernel");
    free(r.samples);
    free(r.activity.copies);
    return 0;
}
