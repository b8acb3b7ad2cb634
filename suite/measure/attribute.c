/* attribute: a case's CUPTI records added to their samples (see attribute.h). */
#include "attribute.h"

#include <stdlib.h>
#include <string.h>

/* is_flush: a record of the cold cache's kernel (between samples, never part of one). */
static int is_flush(const struct vb_kernel_rec *k)
{
    return k->name && strstr(k->name, "l2_flush");
}

/* The marks of one batch, and the tally of how records were placed. */
struct place {
    const struct vb_mark *marks;
    size_t n;
    struct vb_attribution how;
};

/* sample_of: the sample of a GPU record: its launching call's (correlation id), else the one it
 * started in, else -1; a control's mark (marks.h) is returned as it is */
static int sample_of(struct place *p, const struct vb_case_result *r, uint32_t corr, uint64_t start)
{
    int k = corr ? vb_marks_find(p->marks, p->n, corr) : -1;
    if (VB_MARK_CONTROL_OF(k) >= 0) return k;
    if (k >= 0 && k < r->nsamples) {
        p->how.by_mark++;
        return k;
    }
    if ((k = vb_sample_find(r, start)) >= 0)
        p->how.by_time++;
    else
        p->how.orphans++;
    return k;
}

void vb_attribute(struct vb_case_result *r, struct vb_activity *batch, const struct vb_mark *marks,
                  size_t nmarks, struct vb_attribution *how)
{
    struct vb_activity *a = batch;
    struct place p = {marks, nmarks, {0, 0, 0}};
    size_t i, kept;
    int k;
    for (i = kept = 0; i < a->nkernels; i++) {
        struct vb_kernel_rec *x = &a->kernels[i];
        if (is_flush(x)) goto drop_kernel;
        if ((k = sample_of(&p, r, x->correlation, x->start)) >= 0) {
            r->samples[k].kernel_count++;
            r->samples[k].kernel_ns += (double)(x->end - x->start);
            if (r->samples[k].records_dropped) goto drop_kernel;
        }
        a->kernels[kept++] = *x;
        continue;
    drop_kernel:
        free(x->name);
    }
    a->nkernels = kept;
    for (i = kept = 0; i < a->ncopies; i++) {
        const struct vb_copy_rec *c = &a->copies[i];
        int ctl = VB_MARK_CONTROL_OF(k = sample_of(&p, r, c->correlation, c->start));
        if (ctl >= 0) { /* a control's copy (ctlplan.h): its time, never a record of the case */
            if (ctl < r->nsamples && (c->copy_kind == 1 || c->copy_kind == 2))
                r->samples[ctl].ctl[c->copy_kind == 1 ? VB_CTL_H2D : VB_CTL_D2H] +=
                    (double)(c->end - c->start);
            continue;
        }
        if (k >= 0) {
            struct vb_sample *s = &r->samples[k];
            if (c->copy_kind == 1) { /* CUPTI_ACTIVITY_MEMCPY_KIND_HTOD */
                s->h2d_count++;
                s->h2d_bytes += c->bytes;
                s->h2d_ns += (double)(c->end - c->start);
            } else if (c->copy_kind == 2) { /* CUPTI_ACTIVITY_MEMCPY_KIND_DTOH */
                s->d2h_count++;
                s->d2h_bytes += c->bytes;
                s->d2h_ns += (double)(c->end - c->start);
            }
            if (s->records_dropped) continue;
        }
        a->copies[kept++] = *c;
    }
    a->ncopies = kept;
    for (i = kept = 0; i < a->nmemsets; i++) {
        const struct vb_memset_rec *m = &a->memsets[i];
        if ((k = sample_of(&p, r, m->correlation, m->start)) >= 0) {
            struct vb_sample *s = &r->samples[k];
            s->memset_count++;
            s->memset_bytes += m->bytes;
            s->memset_ns += (double)(m->end - m->start);
            if (s->records_dropped) continue;
        }
        a->memsets[kept++] = *m;
    }
    a->nmemsets = kept;
    for (i = kept = 0; i < a->nranges; i++) { /* NVTX ranges are host time: by their start */
        struct vb_range_rec *x = &a->ranges[i];
        if ((k = vb_sample_find(r, x->start)) >= 0 && r->samples[k].records_dropped) {
            vb_range_free(x);
            continue;
        }
        a->ranges[kept++] = *x;
    }
    a->nranges = kept;
    vb_activity_append(&r->activity, batch);
    if (how) *how = p.how;
}
