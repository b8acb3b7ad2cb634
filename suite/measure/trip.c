/* trip: the round trip, bare and as a case of the runner (see trip.h). */
#include "trip.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "varbench.h"
#include "phase.h"
#include "probe.h"
#include "stats.h"

#define TRIP_BYTES 8 /* one double each way: what the case verifies */
#define TRIPS      201
#define TRIP_VALUE 42.0

/* A round trip's buffers: TRIP_BYTES on the device and 2 x TRIP_BYTES pinned (in, then out), or
 * (mapped) 2 x TRIP_BYTES of mapped host memory alone, which the kernel reads and writes; host is
 * the pinned or mapped pair; the graph a case replays (NULL for the others). */
struct trip {
    void *dev;
    double *pin, *map, *map_dev, *host;
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

/* issue_mapped queues the mapped round trip: one thread copies map[0] to map[1] over PCIe */
static int issue_mapped(void *state, struct vb_err *err)
{
    struct trip *t = state;
    return VB_CUDA(err, vb_launch_probe_mapped(t->map_dev, t->map_dev + 1, t->s)) ? -1 : 0;
}

static void trip_free(struct trip *t)
{
    if (!t) return;
    if (t->exec) cudaGraphExecDestroy(t->exec);
    if (t->pin) cudaFreeHost(t->pin);
    vb_mapped_free(t->map);
    if (t->dev) cudaFree(t->dev);
    if (t->s) cudaStreamDestroy(t->s);
}

/* trip_alloc makes t's stream and buffers (mapped: the mapped pair alone), host[0] the value
 * sent. 0 or -1 with err. */
static int trip_alloc(struct trip *t, int mapped, struct vb_err *err)
{
    void *map = NULL, *map_dev = NULL;
    memset(t, 0, sizeof *t);
    if (VB_CUDA(err, cudaStreamCreateWithFlags(&t->s, cudaStreamNonBlocking)) ||
        (mapped ? vb_mapped_alloc(&map, &map_dev, 2 * TRIP_BYTES, err)
                : VB_CUDA(err, cudaMalloc(&t->dev, TRIP_BYTES)) ||
                      VB_CUDA(err, cudaMallocHost((void **)&t->pin, 2 * TRIP_BYTES)))) {
        trip_free(t);
        return -1;
    }
    t->map = map;
    t->map_dev = map_dev;
    t->host = mapped ? t->map : t->pin;
    t->host[0] = TRIP_VALUE;
    t->host[1] = NAN;
    return 0;
}

/* time_trip times TRIPS round trips (issue's calls, or graph g), each waited for, on the host's
 * clock; c gets the median. 0 or -1 with err. */
static int time_trip(struct trip *t, cudaGraphExec_t g, vb_issue_fn issue, struct vb_ceiling *c,
                     struct vb_err *err)
{
    double ns[TRIPS], t0;
    int i;
    for (i = -1; i < TRIPS; i++) {
        t0 = vb_mono_ns();
        if ((g ? VB_CUDA(err, cudaGraphLaunch(g, t->s)) : issue(t, err)) ||
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

int vb_trip_bare(struct vb_ceiling c[VB_CEIL_COUNT], struct vb_err *err)
{
    struct trip t, m;
    int rc;
    if (trip_alloc(&t, 0, err)) return -1;
    if (trip_alloc(&m, 1, err)) {
        trip_free(&t);
        return -1;
    }
    rc = time_trip(&t, NULL, issue_trip, &c[VB_CEIL_ROUNDTRIP], err) ||
                 vb_graph_capture(t.s, issue_trip, &t, &t.exec, err) ||
                 time_trip(&t, t.exec, NULL, &c[VB_CEIL_ROUNDTRIP_GRAPH], err) ||
                 time_trip(&m, NULL, issue_mapped, &c[VB_CEIL_ROUNDTRIP_MAPPED], err)
             ? -1
             : 0;
    if (!rc && m.host[1] != TRIP_VALUE) /* what a kernel writes to mapped memory, read back */
        rc = vb_err_set(err, VB_E_CUDA, "the mapped round trip read back %g, not the %g sent",
                        m.host[1], TRIP_VALUE);
    trip_free(&t);
    trip_free(&m);
    return rc;
}

/* ---- The round trip as a case: a family of three rungs the runner runs like any other ------ */

enum { STREAM, GRAPH, MAPPED };

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
    if (trip_alloc(t, tag == MAPPED, err)) { /* it freed what it made */
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
    t->host[1] = NAN;
    return 0;
}

static void fetch(void *state, double *out)
{
    const struct trip *t = state;
    out[0] = t->host[1];
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

static int run_mapped(void *state, struct vb_err *err)
{
    struct trip *t = state;
    return vb_phase_issue(VB_PHASE_KERNEL, issue_mapped, t, t->s, err);
}

static void traffic(const struct vb_point *p, struct vb_traffic *t)
{
    (void)p;
    memset(t, 0, sizeof *t);
    t->h2d_bytes = t->d2h_bytes = TRIP_BYTES;
    t->h2d_count = t->d2h_count = 1;
}

static void traffic_mapped(const struct vb_point *p, struct vb_traffic *t)
{
    (void)p;
    memset(t, 0, sizeof *t);
    t->mapped_in_bytes = t->mapped_out_bytes = TRIP_BYTES;
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
                                           .problem = &trip_problem},
                                          {.name = "mapped",
                                           .summary =
                                               "a kernel reads 8 B of mapped host memory and "
                                               "writes 8 B back, one wait, no copy",
                                           .flags = VB_GPU,
                                           .tag = MAPPED,
                                           .run = run_mapped,
                                           .traffic = traffic_mapped,
                                           .problem = &trip_problem}};
static const struct vb_family trip_family = {.name = "roundtrip",
                                             .summary = "the floor's round trip",
                                             .ops = &ops,
                                             .variants = rungs,
                                             .nvariants = 3};

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

int vb_trip_cases(int device, const struct vb_sampling *cfg, struct vb_ceiling c[VB_CEIL_COUNT],
                  struct vb_err *err)
{
    struct vb_sampling plain = *cfg; /* no metrics pass: the trip is timed, not profiled */
    plain.rounds = NULL; /* nor paced by varbench ab: a ceiling of each side's own device */
    plain.profiler = plain.profiler_cache = NULL;
    plain.no_metrics = VB_METRICS_OFF;
    plain.no_metrics_reason = NULL;
    return trip_case(STREAM, device, &plain, &c[VB_CEIL_ROUNDTRIP_TRACED], &c[VB_CEIL_KERNEL_EMPTY],
                     err) ||
                   trip_case(GRAPH, device, &plain, &c[VB_CEIL_ROUNDTRIP_GRAPH_TRACED], NULL,
                             err) ||
                   trip_case(MAPPED, device, &plain, &c[VB_CEIL_ROUNDTRIP_MAPPED_TRACED], NULL, err)
               ? -1
               : 0;
}
