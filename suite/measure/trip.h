/*
 * trip: the round trip, the shortest sample that copies in, computes, copies back and waits:
 * TRIP_BYTES pinned H2D, an empty kernel, TRIP_BYTES D2H and a wait, as stream calls and as one
 * replayed CUDA graph. Measured twice in a run: bare, beside the other ceilings (a tight loop on
 * the host's clock), and as a case of the runner itself once the run's collection is on: the
 * same sample loop, warm-up, L2 flush, NVTX ranges, correlation callbacks and stopping rule every
 * rung's samples go through, so the floor holds what the shortest sample costs under varbench
 * (floor.h). Its CUPTI kernel time is an empty kernel's start-up.
 */
#ifndef VB_TRIP_H
#define VB_TRIP_H

#include "runner.h"
#include "store.h"

/* vb_trip_bare times the round trip 201 times after one warm-up, as stream calls into stream
 * and as a replayed graph into graph, on the current device, each waited for, on the host's
 * clock (their medians; their names left as they are). 0 or -1 with err. */
int vb_trip_bare(struct vb_ceiling *stream, struct vb_ceiling *graph, struct vb_err *err);

/* vb_trip_cases runs the round trip as two cases of the runner on device `device` under cfg's
 * sampling (without its metrics pass): stream and graph get their median end-to-end times,
 * kernel_empty the stream case's median CUPTI kernel time. A case that does not verify (its 8
 * bytes back are not the 8 sent) fails the call. 0 or -1 with err. */
int vb_trip_cases(int device, const struct vb_sampling *cfg, struct vb_ceiling *stream,
                  struct vb_ceiling *graph, struct vb_ceiling *kernel_empty, struct vb_err *err);

#endif
