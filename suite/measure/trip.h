/*
 * trip: the round trip, the shortest sample that copies in, computes, copies back and waits:
 * TRIP_BYTES pinned H2D, an empty kernel, TRIP_BYTES D2H and a wait, as stream calls and as one
 * replayed CUDA graph; and the mapped round trip, the shortest sample of a zero-copy rung: one
 * thread reads TRIP_BYTES of mapped host memory and writes them back there, and a wait (measured
 * on an H100, copies 20-29 us from 8 to 128 KiB each way, mapped 10-13 us: a copy's hand-off to
 * the kernel and back costs 3-9 us each, which a kernel reading over PCIe does not pay). Measured
 * twice in a run: bare, beside the other ceilings (a tight loop on the host's clock), and as a case
 * of the runner itself once the run's collection is on: the same sample loop, warm-up, L2 flush,
 * NVTX ranges, correlation callbacks and stopping rule every rung's samples go through, so the
 * floor holds what the shortest sample costs under varbench (floor.h). Its CUPTI kernel time is an
 * empty kernel's start-up.
 */
#ifndef VB_TRIP_H
#define VB_TRIP_H

#include "runner.h"
#include "store.h"

/* vb_trip_bare times each round trip 201 times after one warm-up on the current device, each
 * waited for, on the host's clock: as stream calls into c[VB_CEIL_ROUNDTRIP], as a replayed
 * graph into c[VB_CEIL_ROUNDTRIP_GRAPH], mapped into c[VB_CEIL_ROUNDTRIP_MAPPED] (their
 * medians; their names left as they are). 0 or -1 with err. */
int vb_trip_bare(struct vb_ceiling c[VB_CEIL_COUNT], struct vb_err *err);

/* vb_trip_cases runs the round trips as three cases of the runner on device `device` under
 * cfg's sampling (without its metrics pass): c's ROUNDTRIP_TRACED, ROUNDTRIP_GRAPH_TRACED and
 * ROUNDTRIP_MAPPED_TRACED get their median end-to-end times, KERNEL_EMPTY the stream case's
 * median CUPTI kernel time. A case that does not verify (its 8 bytes back are not the 8 sent)
 * fails the call. 0 or -1 with err. */
int vb_trip_cases(int device, const struct vb_sampling *cfg, struct vb_ceiling c[VB_CEIL_COUNT],
                  struct vb_err *err);

#endif
