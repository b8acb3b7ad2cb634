/* trip: the round trip, bare and as a case of the runner (see trip.h). */
#include "trip.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "graph.h"
#include "phase.h"
#include "probe.h"
#include "stats.h"

#define TRIP_BYTES 8 /* one double each way: what the case verifies */
#define TRIPS      201
#define TRIP_VALUE 42.0

/* A round trip's buffers: TRIP_BYTES on the device, 2 x TRIP_BYTES pinned (in, then out); the
 * graph a case replays (NULL for the stream case). */
struct trip {
    void *dev;
    double *pin;
    cudaStream_t s;
    cudaGraphExec_t exec;
};

/* issue_trip queues one round trip on t's stream: pin[0] -> dev, an empty kernel, dev ->
 * pin[1] (graph.h's vb_issue_fn). 0 or -1 with err. */
static int issue_trip(void *state, struct vb_err *err)
{
    struct trip *t = state;
    return VB_CUDA(err,
                   cudaMemcpyAsync(t->dev, t->pin, TRIP_BYTES, cudaMemcpyHostToDevice, t->s)) ||
                   VB_CUDA(err, vb_launch_probe_empty(t->s)) ||
                   VB_CUDA(err, cudaMemcpyAsync(t->pin + 1, t->dev, TRIP_BYTES,
                                                cudaMemcpyDeviceToHost, t->s))
               ? -1
               : 0;
}

static void trip_free(struct trip *t)
{
    if (!t) return;
    if (t->exec) cudaGraphExecDestroy(t->exec);
    if (t->pin) cudaFreeHost(t->pin);
    if (t->dev) cudaFree(t->dev);
    if (t->s) cudaStreamDestroy(t->s);
}

/* trip_alloc makes t's stream and buffers, pin[0] the value sent. 0 or -1 with err. */
static int trip_alloc(struct trip *t, struct vb_err *err)
{
    memset(t, 0, sizeof *t);
    if (VB_CUDA(err, cudaStreamCreateWithFlags(&t->s, cudaStreamNonBlocking)) ||
        VB_CUDA(err, cudaMalloc(&t->dev, TRIP_BYTES)) ||
        VB_CUDA(err, cudaMallocHost((void **)&t->pin, 2 * TRIP_BYTES))) {
        trip_free(t);
        return -1;
    }
    t->pin[0] = TRIP_VALUE;
    t->pin[1] = NAN;
    return 0;
}

/* time_trip times TRIPS round trips (as stream calls, or as graph g), each waited for, on the
 * host's clock; c gets the median. 0 or -1 with err. */
static int time_trip(struct trip *t, cudaGraphExec_t g, struct vb_ceiling *c, struct vb_err *err)
{
    double ns[TRIPS], t0;
    int i;
    for (i = -1; i < TRIPS; i++) {
        t0 = vb_mono_ns();
        if ((g ? VB_CUDA(err, cudaGraphLaunch(g, t->s)) : issue_trip(t, err)) ||
            VB_CUDA(err, cudaStreamSynchronize(t->s)))
            return -1;
        if (i >= 0) ns[i] = vb_mono_ns() - t0;
    }
    c->bytes = 0; /* a time, not a bandwidth */
    c->reps = TRIPS;
    c->median_ns = vb_stats_median(ns, TRIPS);
    c->gbps = 0;
    return 0;
}

int vb_trip_bare(struct vb_ceiling *stream, struct vb_ceiling *graph, struct vb_err *err)
{
    struct trip t;
    int rc;
    if (trip_alloc(&t, err)) return -1;
    rc = time_trip(&t, NULL, stream, err) || vb_graph_capture(t.s, issue_trip, &t, &t.exec, err) ||
                 time_trip(&t, t.exec, graph, err)
             ? -1
             : 0;
    trip_free(&t);
    return rc;
}

/* ---- The round trip as a case: a family of two rungs the runner runs like any other -------- */

enum { STREAM, GRAPH };

static void teardown(void *state)
{
    trip_free(state);
    free(state);
}

static int setup(int tag, const struct vb_point *p, void **state, struct vb_err *err)
{
    struct trip *t = malloc(sizeof *t);
    (void)p;
    *state = t;
    if (!t) return vb_err_set(err, VB_E_SYS, "out of memory");
    if (trip_alloc(t, err)) { /* it freed what it made */
        free(t);
        *state = NULL;
        return -1;
    }
    if (tag == GRAPH && vb_graph_capture(t->s, issue_trip, t, &t->exec, err)) {
        teardown(t);
        *state = NULL;
        return -1;
    }
    return 0;
}

static int poison(void *state, struct vb_err *err)
{
    struct trip *t = state;
    (void)err;
    t->pin[1] = NAN;
    return 0;
}

static void fetch(void *state, double *out)
{
    const struct trip *t = state;
    out[0] = t->pin[1];
}

static int run_stream(void *state, struct vb_err *err)
{
    struct trip *t = state;
    return vb_phase_issue(VB_PHASE_ONE_WAIT, issue_trip, t, t->s, err);
}

static int run_graph(void *state, struct vb_err *err)
{
    struct trip *t = state;
    return vb_phase_replay(t->exec, issue_trip, t, t->s, err);
}

static void traffic(const struct vb_point *p, struct vb_traffic *t)
{
    (void)p;
    memset(t, 0, sizeof *t);
    t->h2d_bytes = t->d2h_bytes = TRIP_BYTES;
    t->h2d_count = t->d2h_count = 1;
}

static size_t out_len(const struct vb_point *p)
{
    (void)p;
    return 1;
}

static int reference(const struct vb_point *p, double *out, struct vb_err *err)
{
    (void)p;
    (void)err;
    out[0] = TRIP_VALUE;
    return 0;
}

static const struct vb_problem trip_problem = {
    .name = "roundtrip", .out_len = out_len, .reference = reference};
static const struct vb_variant_ops ops = {
    .setup = setup, .poison = poison, .fetch = fetch, .teardown = teardown};
static const struct vb_variant rungs[] = {{.name = "stream",
                                           .summary = "8 B in, an empty kernel, 8 B out, one wait",
                                           .flags = VB_GPU,
                                           .tag = STREAM,
                                           .run = run_stream,
                                           .traffic = traffic,
                                           .problem = &trip_problem},
                                          {.name = "graph",
                                           .summary = "the same as one replayed CUDA graph",
                                           .flags = VB_GPU | VB_GRAPH,
                                           .tag = GRAPH,
                                           .run = run_graph,
                                           .traffic = traffic,
                                           .problem = &trip_problem}};
static const struct vb_family trip_family = {.name = "roundtrip",
                                             .summary = "the floor's round trip",
                                             .ops = &ops,
                                             .variants = rungs,
                                             .nvariants = 2};

/* trip_case runs rung k as a case and sets c to its median e2e time (kernel: its kernel time,
 * when not NULL); interrupted, it leaves them unmeasured. 0 or -1 with err. */
static int trip_case(int k, int device, const struct vb_sampling *cfg, struct vb_ceiling *c,
                     struct vb_ceiling *kernel, struct vb_err *err)
{
    struct vb_point p;
    struct vb_case_result r;
    double ref = TRIP_VALUE;
    int rc = 0;
    memset(&p, 0, sizeof p);
    vb_runner_case(&trip_family, &rungs[k], &p, device, NULL, &ref, NULL, cfg, &r);
    if (r.status == VB_STATUS_INTERRUPTED) /* unmeasured; the run ends as interrupted */
        rc = 0;
    else if (r.status != VB_STATUS_OK)
        rc = vb_err_set(err, VB_E_CUDA, "the round trip as a case (%s): %s: %s", rungs[k].name,
                        vb_status_name(r.status), r.reason);
    else {
        c->bytes = 0;
        c->reps = r.ntimed;
        c->median_ns = r.e2e_ms.median * 1e6;
        c->gbps = 0;
        if (kernel && r.have_records) { /* its values; its name stays its own */
            kernel->bytes = 0;
            kernel->reps = r.ntimed;
            kernel->median_ns = r.kernel_ms.median * 1e6;
            kernel->gbps = 0;
        }
    }
    vb_case_result_free(&r);
    return rc;
}

int vb_trip_cases(int device, const struct vb_sampling *cfg, struct vb_ceiling *stream,
                  struct vb_ceiling *graph, struct vb_ceiling *kernel_empty, struct vb_err *err)
{
    struct vb_sampling plain = *cfg; /* no metrics pass: the trip is timed, not profiled */
    plain.profiler = plain.profiler_cache = NULL;
    plain.no_metrics = VB_METRICS_OFF;
    plain.no_metrics_reason = NULL;
    return trip_case(STREAM, device, &plain, stream, kernel_empty, err) ||
                   trip_case(GRAPH, device, &plain, graph, NULL, err)
               ? -1
               : 0;
}
