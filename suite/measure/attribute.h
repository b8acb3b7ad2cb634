/*
 * attribute: the CUPTI records of a case's samples added to the samples they belong to (each
 * sample's H2D, D2H, kernel and memset counts, bytes and times are the sums of its records).
 * A record belongs to the sample its launching call was made in (marks.h, by correlation id);
 * a record without such a mark (no subscriber for the marks: under ncu) to the sample it
 * started in, by time; one in neither counts in no sample. Pure data: no CUDA, no CUPTI.
 * Workload: thousands of samples, a handful of records each, per checkpoint of a case.
 */
#ifndef VB_ATTRIBUTE_H
#define VB_ATTRIBUTE_H

#include <stddef.h>

#include "marks.h"
#include "result.h"

/* What vb_attribute placed, by how. */
struct vb_attribution {
    size_t by_mark, by_time, orphans; /* GPU records: by correlation id, by start, in none */
};

/* vb_attribute adds each record of batch to its sample in r (see above), then moves into
 * r->activity the records worth storing: not the cold cache's flush kernels, not those of
 * timed samples past --keep-records (their sums are in the sample). marks[0..nmarks) is sorted
 * by correlation id (vb_marks_copy); it may be empty. batch is emptied; *how (may be NULL)
 * counts the GPU records placed each way. This can't fail. */
void vb_attribute(struct vb_case_result *r, struct vb_activity *batch, const struct vb_mark *marks,
                  size_t nmarks, struct vb_attribution *how);

#endif
