/*
 * cupti_mux: CUPTI shared by varbench trace and a CUPTI client inside the traced program
 * (torch.profiler's Kineto, a tool of the program's own). CUPTI takes one set of activity
 * buffer callbacks per process: a client that registers its own takes every record from then on,
 * the buffers CUPTI held for the one before included, and a client that calls cuptiFinalize
 * ends tracing for everyone. libvarbench_preload.so (LD_PRELOAD, set by varbench trace) defines
 * the calls by which a client takes CUPTI over; a call from the program reaches it instead of
 * libcupti through the program's PLT, so each of the two clients sees CUPTI as if it were alone:
 *   - its own buffer callbacks, kinds, and per-function API switches; CUPTI runs the union;
 *   - the records of the kinds it enabled, from its enable to its disable, in buffers its own
 *     callback handed out (Kineto drops a buffer it did not allocate, XLA frees it);
 *   - its cuptiFinalize ends its own use only.
 * While one client alone has callbacks, they are CUPTI's own (no copy); once both have, the
 * preload's callbacks take the buffers and copy each record to the clients that want it.
 * A client that calls CUPTI through pointers from dlsym (XLA's stub, used by jax.profiler) or
 * links CUPTI statically is not seen: it takes CUPTI over as before, and the injection then finds
 * its buffers missing (activity.h's vb_activity_buffers) and says so.
 *
 * The preload is in every process of the program, CUDA or not: it loads nothing and does
 * nothing until a CUPTI call of the program or of the injection reaches it.
 * Workload: the calls it defines are made a few times per profiling session; the copying runs
 * on CUPTI's buffer-completion thread, one memcpy a record.
 */
#ifndef VB_CUPTI_MUX_H
#define VB_CUPTI_MUX_H

#include <stdint.h>

/* What the program's CUPTI client did, as the injection reads it at the process's end through
 * the preload's one other export, varbench_cupti_mux_read. */
struct vb_mux_stats {
    int seen;              /* the program called CUPTI through the preload */
    int shared;            /* both had callbacks at once: records were copied to both */
    int subscribed;        /* the program holds (or held) CUPTI's subscriber */
    int finalized;         /* times it called cuptiFinalize (each ended its own use only) */
    char client[160];      /* the library the program's calls came from ("libtorch_cpu.so") */
    unsigned long records; /* records handed to the program's client */
    unsigned long kernels, copies, memsets, apis;
    unsigned long lost;      /* records it wanted but whose buffer it did not give */
    uint64_t (*clock)(void); /* the program's timestamp callback, or NULL */
    uint64_t clock0, real0;  /* clock() and CLOCK_REALTIME read together at its registration */
};

#define VB_MUX_READ "varbench_cupti_mux_read"

/* The preload's varbench_cupti_mux_read(struct vb_mux_stats *out, size_t size) fills out (size:
 * sizeof *out, so that an injection and a preload of different builds do not misread) and
 * returns 0, or -1 when the sizes differ. */
typedef int (*vb_mux_read_fn)(struct vb_mux_stats *out, unsigned long size);

#endif
