/*
 * run_gpus: each device's environment and ceilings at the start of `varbench run`, in two
 * steps around the start of the collectors: the environment and every ceiling first (ceilings.h),
 * then, once CUPTI's collection is on, the round trips again as the samples will be timed, the
 * ceilings stored and printed and the devices' floors (floor.h) set from them. Devices
 * first..last (first < 0: none), at most VB_RUN_MAX_DEVICES.
 */
#ifndef VB_RUN_GPUS_H
#define VB_RUN_GPUS_H

#include <stdint.h>

#include "ceilings.h"
#include "env.h"
#include "err.h"
#include "floor.h"
#include "runner.h"
#include "store.h"

#define VB_RUN_MAX_DEVICES 64

/* --energy's idle probe: VB_RUN_IDLE_PROBE_S of the boards at rest, 15 updates of an H200's
 * 100 ms energy counter (their idle draw within 7%) */
#define VB_RUN_IDLE_PROBE_S 1.5

/* vb_run_gpus measures and stores each device's environment and measures its ceilings (peak[d]:
 * its measured SM clock, MHz), and the boards' NVML update periods (ledger.h) beside the
 * ceilings' copies; idle (--energy): after them instead, the boards at rest, VB_RUN_IDLE_PROBE_S,
 * which is their idle draw too. 0 or -1 with err (VB_E_DB for the database, else CUDA's). */
int vb_run_gpus(struct vb_store *st, int64_t run_id, int first, int last, int idle, double *peak,
                struct vb_err *err);

/* vb_run_gpus_traced measures each device's round trips again under the collectors (when they
 * run), as two cases of the runner under cfg's sampling (trip.h), and the DRAM curve, stores its
 * ceilings, hands them to done (the command prints them) and sets floors[d];
 * the current device is first again after. 0 or -1 with err. */
int vb_run_gpus_traced(struct vb_store *st, int64_t run_id, int first, int last,
                       const struct vb_sampling *cfg, struct vb_floor_ceil *floors,
                       void (*done)(const struct vb_gpu_env *g, const struct vb_ceiling *c),
                       struct vb_err *err);

#endif
