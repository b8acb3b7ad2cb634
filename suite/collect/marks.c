/* marks: the sample each work-making CUDA call was made in, by correlation id (see marks.h). */
#include "marks.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "api_set.h"
#include "callbacks.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct vb_mark *marks;
static size_t nmarks, cap;
static int lost;              /* a mark could not be kept (out of memory) since the start */
static volatile int now = -1; /* the sample running, -1 none */

static void on_call(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    int k = now;
    (void)dom;
    (void)cbid; /* every callback of the subscriber comes here: only entries inside a sample or
                   its control */
    if (k == -1 || cb->callbackSite != CUPTI_API_ENTER) return;
    pthread_mutex_lock(&mu);
    if (nmarks == cap) {
        size_t c = cap ? 2 * cap : 256;
        struct vb_mark *m = realloc(marks, c * sizeof *m);
        if (!m) {
            lost = 1;
            pthread_mutex_unlock(&mu);
            return;
        }
        marks = m;
        cap = c;
    }
    marks[nmarks].corr = cb->correlationId;
    marks[nmarks++].sample = k;
    pthread_mutex_unlock(&mu);
}

struct switch_arg {
    int on;
    struct vb_err *err;
};

static int set_one(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, void *arg)
{
    struct switch_arg *a = arg;
    return vb_cb_enable(VB_CB_MARKS, on_call, dom, cbid, a->on, a->err);
}

int vb_marks_start(struct vb_err *err)
{
    struct switch_arg a = {1, err};
    pthread_mutex_lock(&mu);
    nmarks = 0;
    lost = 0;
    pthread_mutex_unlock(&mu);
    now = -1;
    if (vb_api_each_work_call(set_one, &a)) {
        vb_marks_stop();
        return vb_err_context(err, "marking each sample's CUDA calls");
    }
    return 0;
}

void vb_marks_stop(void)
{
    struct vb_err ignored;
    struct switch_arg a = {0, &ignored};
    now = -1;
    vb_api_each_work_call(set_one, &a);
}

void vb_marks_sample(int sample)
{
    now = sample;
}

static int by_corr(const void *a, const void *b)
{
    uint32_t x = ((const struct vb_mark *)a)->corr, y = ((const struct vb_mark *)b)->corr;
    return x < y ? -1 : x > y;
}

void vb_marks_sort(struct vb_mark *m, size_t n)
{
    if (n > 1) qsort(m, n, sizeof *m, by_corr);
}

int vb_marks_copy(struct vb_mark **out, size_t *n)
{
    int failed;
    pthread_mutex_lock(&mu);
    *n = nmarks;
    *out = nmarks ? malloc(nmarks * sizeof **out) : NULL;
    if (*out) memcpy(*out, marks, nmarks * sizeof **out);
    failed = lost || (nmarks && !*out);
    pthread_mutex_unlock(&mu);
    if (!*out) *n = 0;
    vb_marks_sort(*out, *n); /* calls are marked in the order of their ids: already sorted */
    return failed ? -1 : 0;
}

int vb_marks_find(const struct vb_mark *m, size_t n, uint32_t corr)
{
    const struct vb_mark key = {corr, 0}, *hit;
    if (!m || !n) return -1;
    hit = bsearch(&key, m, n, sizeof *m, by_corr);
    return hit ? hit->sample : -1;
}
