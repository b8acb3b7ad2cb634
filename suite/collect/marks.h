/*
 * marks: which sample each CUDA call that puts work on the GPU was made in, by its CUPTI
 * correlation id, so that the runner ties every kernel, copy and memset record to its sample by
 * identity (attribute.h). By start time alone, a record whose GPU timestamp fell a little
 * outside its sample's host-clock window (the two clocks are synchronised only so far) counted
 * in no sample: once in three whole-catalog H100 runs a copy went missing from a sample's sums.
 * A CUPTI callback at the entry of each launch, copy, memset and graph launch (runtime and
 * driver API, callbacks.h) notes its correlation id with the sample running then.
 * Workload: a few calls per sample, thousands of samples a case; the callback appends under a
 * mutex (uncontended: the variants call CUDA from one thread).
 */
#ifndef VB_MARKS_H
#define VB_MARKS_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* A call's correlation id and the index of the sample it was made in. */
struct vb_mark {
    uint32_t corr;
    int sample;
};

/* vb_marks_start switches the callbacks on and forgets older marks. 0, or -1 with err when
 * CUPTI's subscriber cannot be had (another tool holds it): records then go by their times. */
int vb_marks_start(struct vb_err *err);

/* vb_marks_stop switches the callbacks off (the marks taken stay the caller's). This can't
 * fail. */
void vb_marks_stop(void);

/* vb_marks_sample sets the sample now running (its index in the case's samples), -1 for none:
 * calls made outside a sample are not marked. VB_MARK_CONTROL(k) marks the calls of sample k's
 * control (ctlplan.h): a mark of that value is the control's, not the sample's. */
void vb_marks_sample(int sample);
#define VB_MARK_CONTROL(k)    (-(k)-2)
#define VB_MARK_CONTROL_OF(m) ((m) <= -2 ? -(m)-2 : -1) /* the sample whose control it is */

/* vb_marks_copy gives a copy of every mark made since vb_marks_start (a record may be flushed
 * at a later checkpoint than its call was marked), sorted by correlation id, in *out (the
 * caller frees it), *n of them; 0, or -1 when some marks could not be kept or copied (out of
 * memory): their records then go by their times. */
int vb_marks_copy(struct vb_mark **out, size_t *n);

/* vb_marks_find returns the sample of correlation id corr in marks[0..n) (sorted), a control's
 * mark (VB_MARK_CONTROL), or -1 when none. */
int vb_marks_find(const struct vb_mark *marks, size_t n, uint32_t corr);

/* vb_marks_sort sorts marks[0..n) by correlation id (what vb_marks_find needs). */
void vb_marks_sort(struct vb_mark *marks, size_t n);

#endif
