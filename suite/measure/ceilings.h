/*
 * ceilings: the device's own physical limits, measured once per run so that every
 * variant can be shown as a fraction of them: pinned and pageable H2D and D2H copy
 * bandwidth, D2D copy bandwidth (counting bytes read plus bytes written, as nvbench), the same
 * copy done by a streaming kernel (dram: float4 loads and stores, two a thread; SMs stream
 * faster than cudaMemcpy's D2D on an H100, so a floor built on D2D alone would be beaten), and
 * the time of one empty kernel launched back to back (launch: median_ns, no bytes, gbps 0), and
 * the shortest round trip a sample can make, on the host's clock: 8 pinned bytes H2D, one empty
 * kernel, 8 bytes D2H and a cudaStreamSynchronize, issued as stream calls (roundtrip) and as one
 * replayed CUDA graph (roundtrip_graph) (median_ns, no bytes, gbps 0). A case that copies its
 * data and waits for it can take no less than the shorter of the two, however few its bytes.
 * The same two measured again once varbench's CUPTI collection is on (the _traced pair, as the
 * samples are timed: CUPTI's activity records cost a round trip a few microseconds of host time,
 * and a floor held against a traced sample must pay them too); 0 until then. kernel_empty: the
 * median CUPTI duration of the round trips' empty kernels (the start-up and drain every kernel
 * has, which no byte overlaps), also 0 until then. mapped: a copy kernel (8-byte words, one a
 * thread) copying 64 MiB from mapped host memory to mapped host memory, its rate in bytes each way
 * (they cross PCIe both ways at once): what a zero-copy kernel can reach, as dram is what a
 * resident one can. The mapped round trips (roundtrip_mapped, _traced; trip.h): one thread reads 8
 * B of mapped host memory and writes them back there, and a wait.
 */
#ifndef VB_CEILINGS_H
#define VB_CEILINGS_H

#include <stdint.h>

#include "err.h"
#include "store.h" /* the ceilings' names and struct vb_ceiling: what the store keeps */

/* vb_ceilings_measure measures all ceilings on the current device with copies of `bytes`
 * each (clamped to a quarter of free memory), reps timed repetitions after one warm-up.
 * Returns 0 or -1 with err. */
int vb_ceilings_measure(uint64_t bytes, int reps, struct vb_ceiling out[VB_CEIL_COUNT],
                        struct vb_err *err);

/* The DRAM curve (store.h's curves): the streaming kernel's copy of 1, 4, 16 and 64 MiB (ceilings
 * dram_1mib .. dram_64mib), each after the L2 flush every sample gets (coldcache.h),
 * VB_DRAM_CURVE_REPS times. A kernel that small does not reach the 256 MiB rate (its ramp and
 * its tail are a larger part of it), so a small kernel's floor is this kernel's CUPTI time at its
 * own bytes. */
#define VB_DRAM_CURVE_REPS 7

/* vb_ceilings_dram_issue runs the curve's copies on the current device, smallest first,
 * VB_DRAM_CURVE_REPS of each, in order; their times are CUPTI's (the caller's collection takes
 * them: probe_stream_copy kernels in start order). 0 or -1 with err. */
int vb_ceilings_dram_issue(struct vb_err *err);

#endif
