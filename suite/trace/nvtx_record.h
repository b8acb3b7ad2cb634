/*
 * nvtx_record: the NVTX events of a traced process, recorded by varbench itself. NVTX loads the
 * library NVTX_INJECTION64_PATH names at a process's first NVTX call and hands it the call
 * table of its NVTX instance (each copy of the NVTX3 headers is one: PyTorch's, CuPy's, XLA's,
 * the NVTX v2 library libnvToolsExt); varbench trace points that at libvarbench_inject.so, whose
 * InitializeInjectionNvtx2 fills the table with the functions below. They stamp each event with
 * CLOCK_REALTIME (CUPTI's clock) and keep it in memory until the process ends.
 *
 * Why not CUPTI's own NVTX route (NVTX_INJECTION64_PATH=libcupti.so): it needs the one CUPTI
 * instance the process traces with, and a program that ships its own libcupti (PyTorch, JAX and
 * CuPy wheels do) gets a second one, loaded by path, that records nothing; NVTX called before
 * CUDA starts made that second CUPTI the process's only one. This route needs no CUPTI at all:
 * ranges pushed before CUDA starts, in a process whose CUPTI another client holds, or in a
 * process that never starts CUDA are recorded the same way.
 *
 * What is recorded: push/pop ranges (nesting per thread and domain), start/end ranges (which may
 * end on another thread), marks; in the default domain or named ones (nvtxDomainCreate), with
 * ASCII, wide or registered messages, category and color. Payloads, resource naming and the NVTX
 * extensions (payload schemas, counters, memory) are not recorded.
 * Workload: frameworks push a range per operator (torch.autograd.profiler.emit_nvtx: hundreds per
 * training step, from several threads), so an event is a clock read, an uncontended per-thread
 * lock and a copy of its text into a per-thread arena, about 100 ns.
 */
#ifndef VB_NVTX_RECORD_H
#define VB_NVTX_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "activity.h"

/* vb_nvtx_record_attach fills the call table of the NVTX instance whose nvtxGetExportTable is
 * get_table (the argument of InitializeInjectionNvtx2). Returns 1 (NVTX's success) or 0 when the
 * table cannot be had; NVTX then turns that instance's calls into no-ops. */
int vb_nvtx_record_attach(const void *(*get_table)(uint32_t id));

/* vb_nvtx_record_take moves every event recorded so far into a's ranges (as VB_NVTX_* types,
 * with their process and threads); a range still open keeps end 0. Events recorded later are
 * kept for a later take. Records that do not fit in memory are counted in a->dropped. */
void vb_nvtx_record_take(struct vb_activity *a);

/* vb_nvtx_record_count returns how many events are held now. */
size_t vb_nvtx_record_count(void);

#endif
