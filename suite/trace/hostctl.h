/*
 * hostctl: the host's controls in a traced process (control.h's arithmetic chain and throughput
 * mix): an unmodified program's step cannot be given a control beside it, so a thread of the
 * injection runs both every VB_TRACE_CTL_PERIOD_MS from the process's start to its end, each time
 * on the core where the thread that started the injection (the program's main thread, as a rule:
 * the one that launches its steps) last ran, so that the mix sees what shares that core's ports
 * (a sibling hardware thread of another tenant's: on an H200 host it moved a PyTorch step 10-25%
 * between processes and within one, while a chain on another core read the same). Each instance
 * of a sampled range gets the median of each control measured inside it (the nearest one where
 * none was), so that compare judges a step's host share against how fast that core was while it
 * ran. Where the thread cannot be followed (no /proc, an affinity refused) the controls run where
 * the scheduler puts them.
 * Workload: ~200 pairs of controls a second, ~35 us a pair with the thread's core read from
 * /proc and two affinity calls (~0.7% of one core, and the program's thread waits that long on
 * its core); up to VB_TRACE_CTL_MAX kept (an hour and more), then no more.
 */
#ifndef VB_HOSTCTL_H
#define VB_HOSTCTL_H

#include <stdint.h>

#define VB_TRACE_CTL_PERIOD_MS 5
#define VB_TRACE_CTL_MAX       (1 << 20)

/* vb_trace_ctl_start starts the thread in this process (again after a fork: the child's own),
 * following the calling thread's core. 0, or -1 when no thread could be made (the process is
 * traced without the controls). */
int vb_trace_ctl_start(void);

/* vb_trace_ctl_stop stops it (waits for its last control). This can't fail. */
void vb_trace_ctl_stop(void);

/* vb_trace_ctl_over: the median of control c (VB_CTL_CPU or VB_CTL_THR) measured inside
 * [start, end] (CLOCK_REALTIME ns, the NVTX records' clock), the nearest one's where none was;
 * NaN without any (or for another control). */
double vb_trace_ctl_over(int c, uint64_t start, uint64_t end);

#endif
