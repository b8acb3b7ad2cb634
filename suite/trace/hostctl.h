/*
 * hostctl: the host's control in a traced process (control.h's arithmetic chain): an unmodified
 * program's step cannot be given a control beside it, so a thread of the injection runs the chain
 * every VB_TRACE_CTL_PERIOD_MS from the process's start to its end, and each instance of a
 * sampled range gets the median of the controls measured inside it (the nearest one where none
 * was), so that compare judges a step's host share against how fast the host was while it ran.
 * Workload: ~200 controls a second of ~20 us each on a core of its own (0.4% of one core); up to
 * VB_TRACE_CTL_MAX kept (an hour and more), then no more.
 */
#ifndef VB_HOSTCTL_H
#define VB_HOSTCTL_H

#include <stdint.h>

#define VB_TRACE_CTL_PERIOD_MS 5
#define VB_TRACE_CTL_MAX       (1 << 20)

/* vb_trace_ctl_start starts the thread in this process (again after a fork: the child's own).
 * 0, or -1 when no thread could be made (the process is traced without the control). */
int vb_trace_ctl_start(void);

/* vb_trace_ctl_stop stops it (waits for its last control). This can't fail. */
void vb_trace_ctl_stop(void);

/* vb_trace_ctl_over: the median of the controls measured inside [start, end] (CLOCK_REALTIME
 * ns, the NVTX records' clock), the nearest one's where none was; NaN without any. */
double vb_trace_ctl_over(uint64_t start, uint64_t end);

#endif
