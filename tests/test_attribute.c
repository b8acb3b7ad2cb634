/* Attribution tests (no GPU): a case's CUPTI records added to their samples by the call that
 * launched them (correlation id), whatever their timestamps say; by time only without a mark.
 * The case the issue found: a copy whose GPU timestamp fell before its sample's host-clock
 * window counted in no sample, and the sample's copy sums missed it. */
#include <stdlib.h>
#include <string.h>

#include "attribute.h"
#include "marks.h"
#include "test.h"
#include "tests.h"

/* three samples at [100,200], [300,400], [500,600]; per sample one H2D of 8 bytes (corr
 * 10 + 10k) and one kernel (corr 11 + 10k). Sample 1's copy starts at 295, before its window;
 * sample 2's kernel starts at 650, after it. */
static int fx_batch(struct vb_case_result *r, struct vb_activity *a)
{
    static const uint64_t copy_at[] = {110, 295, 510}, kernel_at[] = {150, 350, 650};
    int k;
    memset(r, 0, sizeof *r);
    memset(a, 0, sizeof *a);
    r->samples = calloc(3, sizeof *r->samples);
    a->copies = calloc(3, sizeof *a->copies);
    a->kernels = calloc(3, sizeof *a->kernels);
    if (!r->samples || !a->copies || !a->kernels) return -1;
    for (k = 0; k < 3; k++) {
        r->samples[k].kind = VB_SAMPLE_TIMED;
        r->samples[k].start = 100 + 200 * (uint64_t)k;
        r->samples[k].end = r->samples[k].start + 100;
        a->copies[k] = (struct vb_copy_rec){.start = copy_at[k],
                                            .end = copy_at[k] + 4,
                                            .bytes = 8,
                                            .correlation = 10 + 10 * (uint32_t)k,
                                            .copy_kind = 1};
        a->kernels[k].start = kernel_at[k];
        a->kernels[k].end = kernel_at[k] + 20;
        a->kernels[k].correlation = 11 + 10 * (uint32_t)k;
        if (!(a->kernels[k].name = strdup("_Z4workv"))) return -1;
    }
    r->nsamples = r->ntimed = 3;
    a->ncopies = a->cap_copies = a->nkernels = a->cap_kernels = 3;
    return 0;
}

static void fx_free(struct vb_case_result *r)
{
    free(r->samples);
    vb_activity_free(&r->activity);
}

int test_attribute(const char *arg)
{
    /* the calls as the marks saw them, out of order: vb_marks_sort puts them in id order */
    struct vb_mark marks[] = {{21, 1}, {10, 0}, {31, 2}, {11, 0}, {30, 2}, {20, 1}};
    struct vb_case_result r;
    struct vb_activity a;
    struct vb_attribution how;
    int k;
    (void)arg;
    vb_marks_sort(marks, 6);
    ASSERT_INT_EQ(marks[0].corr, 10);
    ASSERT_INT_EQ(vb_marks_find(marks, 6, 21), 1);
    ASSERT_INT_EQ(vb_marks_find(marks, 6, 12), -1);
    ASSERT_INT_EQ(vb_marks_find(NULL, 0, 10), -1);

    /* by time alone: sample 1 misses its copy, sample 2 its kernel */
    ASSERT(fx_batch(&r, &a) == 0);
    vb_attribute(&r, &a, NULL, 0, &how);
    ASSERT_INT_EQ(r.samples[1].h2d_count, 0);
    ASSERT_INT_EQ(r.samples[2].kernel_count, 0);
    ASSERT_INT_EQ(how.by_mark, 0);
    ASSERT_INT_EQ(how.by_time, 4);
    ASSERT_INT_EQ(how.orphans, 2);
    ASSERT_INT_EQ(r.activity.ncopies + r.activity.nkernels, 6); /* stored all the same */
    ASSERT_INT_EQ(a.ncopies, 0);                                /* the batch was moved */
    fx_free(&r);

    /* by their calls: every sample has its copy and its kernel, with their bytes and times */
    ASSERT(fx_batch(&r, &a) == 0);
    vb_attribute(&r, &a, marks, 6, &how);
    for (k = 0; k < 3; k++) {
        ASSERT_INT_EQ(r.samples[k].h2d_count, 1);
        ASSERT_INT_EQ(r.samples[k].h2d_bytes, 8);
        ASSERT_NEAR(r.samples[k].h2d_ns, 4, 0);
        ASSERT_INT_EQ(r.samples[k].kernel_count, 1);
        ASSERT_NEAR(r.samples[k].kernel_ns, 20, 0);
    }
    ASSERT_INT_EQ(how.by_mark, 6);
    ASSERT_INT_EQ(how.orphans, 0);
    fx_free(&r);

    /* a mark wins over the time: a record marked in sample 0 that ran inside sample 2's window
     * (a launch that queued behind others) counts in sample 0 */
    ASSERT(fx_batch(&r, &a) == 0);
    a.kernels[0].start = 550;
    a.kernels[0].end = 560;
    vb_attribute(&r, &a, marks, 6, &how);
    ASSERT_INT_EQ(r.samples[0].kernel_count, 1);
    ASSERT_INT_EQ(r.samples[2].kernel_count, 1);
    fx_free(&r);

    /* a mark naming a sample the case does not have is ignored: the record goes by time */
    {
        struct vb_mark bad[] = {{10, 7}};
        ASSERT(fx_batch(&r, &a) == 0);
        vb_attribute(&r, &a, bad, 1, &how);
        ASSERT_INT_EQ(r.samples[0].h2d_count, 1);
        ASSERT_INT_EQ(how.by_mark, 0);
        fx_free(&r);
    }
    return 0;
}
