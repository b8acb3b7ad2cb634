/*
 * control: what the host and the board can do at the moment a sample is taken. Before each timed
 * sample of a case the runner measures the controls its phases need (runner.h) and stores them
 * with the sample (samples.ctl_*_ns); compare and ab judge a phase that the host moves (a copy,
 * a CPU reference, the host's share of the end-to-end time) by its ratio to its control, so that
 * a slower host is never taken for slower code and a slower phase on a steady host is never
 * excused: no limit rests on another run's noise. The list is declared here once; the two host
 * workloads live here too (the copies are measure/'s: they need the GPU).
 * Workload: a control before each timed sample, thousands a case: each must be short (tens to a
 * few hundred microseconds) and touch little of the caches the sample runs in.
 */
#ifndef VB_CONTROL_H
#define VB_CONTROL_H

/* X(id, column, what it is): the controls a sample can have, in ns (NaN: not measured). A new one
 * goes at the end: ab's protocol line sends them in this order, and a build before it sends fewer.
 */
#define VB_CONTROLS(X)                                                                             \
    X(CPU, "ctl_cpu_ns", "a fixed chain of host arithmetic")                                       \
    X(MEM, "ctl_mem_ns", "a fixed random walk over 64 MiB of host memory")                         \
    X(H2D, "ctl_h2d_ns", "an H2D copy of the sample's size and host memory kind")                  \
    X(D2H, "ctl_d2h_ns", "a D2H copy of the sample's size and host memory kind")                   \
    X(THR, "ctl_thr_ns", "a fixed mix of independent host arithmetic chains")

enum vb_control {
#define X(id, col, what) VB_CTL_##id,
    VB_CONTROLS(X)
#undef X
        VB_CTL_COUNT
};

/* vb_control_column: the samples column of control c ("ctl_cpu_ns"); what: its description. */
const char *vb_control_column(enum vb_control c);
const char *vb_control_what(enum vb_control c);

/* vb_control_cpu_ns runs the host's arithmetic control (a dependent chain of 2^14 integer
 * multiply-adds on the calling thread: ~15-25 us on a server core, no memory traffic) and returns
 * its wall time. It moves with the core's clock and with whatever else shares the core. This
 * can't fail. */
double vb_control_cpu_ns(void);

/* vb_control_thr_ns runs the host's throughput control (8 independent chains of integer
 * multiply-adds beside 8 of float FMAs, 512 steps each: ~10-25 us, no memory traffic, the core's
 * execution ports kept busy) and returns its wall time. The chain above waits on each step's
 * latency and leaves the ports idle, so it does not see what shares the core's ports: a sibling
 * hardware thread (another tenant's, on a virtual machine whose host runs two threads a core).
 * That moved a CPU loop of FMAs 20-25% between processes on an H200 host while the chain read
 * the same 22 us and this control moved with the loop (the work/control ratio 0.245-0.252 over
 * 15 processes). This can't fail. */
double vb_control_thr_ns(void);

/* vb_control_mem_ns runs the host's memory control (2048 dependent loads at pseudo-random
 * addresses of a 64 MiB buffer, made at the first call (~10 ms): one cache line a load, so it
 * evicts ~128 KiB of the caches; 0.1-0.3 ms) and returns its wall time. It moves with the last
 * level cache's and the memory's latency under the other cores' traffic (a memory-bound
 * neighbour thrashes the cache it walks). NaN when the buffer cannot be had. */
double vb_control_mem_ns(void);

/* vb_control_release frees the memory control's buffer. */
void vb_control_release(void);

#endif
