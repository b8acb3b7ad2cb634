/*
 * mesh family (seed 001, "creating arrays on the GPU"): a function evaluated at every
 * point of a lat/lon mesh, and the ladder that removes transfers step by step: a mesh
 * built on the host and copied in full (t38), scalars broadcast instead of full arrays
 * (t39), the mesh generated on the device (t40), then pinned output memory and output
 * copies overlapped with the kernel in row chunks. Output: d[ny][nx] in double.
 * Workload: nx = ny up to 32768 (8.6 GB per array); every case fits one device.
 */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "varbench.h"
#include "mesh.h"
#include "mesh_math.h"

#define CHUNKS 8 /* row chunks (and streams) of mesh/device-mesh-overlap */

enum kind { HOST_MESH, BROADCAST, DEVICE, PINNED, OVERLAP, GRAPH, CPU };

struct mesh {
    enum kind kind;
    long nx, ny;
    size_t n;
    double *h_lat1, *h_lon1, *h_lat2, *h_lon2, *h_a; /* host mesh and t38's intermediate */
    double *h_out;                                   /* the answer: pageable or pinned */
    double *d_lat1, *d_lon1, *d_lat2, *d_lon2, *d_out;
    cudaStream_t streams[CHUNKS];
    int nstreams;
    cudaGraphExec_t graph; /* GRAPH: device-mesh-pinned's kernel and D2H as one launch */
};

static size_t out_len(const struct vb_point *p)
{
    return (size_t)p->v[0] * (size_t)p->v[1];
}

/* reference: the CPU answer in double, one point at a time (also the cpu-reference variant). */
static int reference(const struct vb_point *p, double *out, struct vb_err *err)
{
    long nx = p->v[0], ny = p->v[1], x, y;
    for (y = 0; y < ny; y++) {
        double lon1 = vb_mesh_coord(VB_MESH_YB, VB_MESH_YE, y, ny);
        for (x = 0; x < nx; x++) {
            double lat1 = vb_mesh_coord(VB_MESH_XB, VB_MESH_XE, x, nx);
            out[y * nx + x] =
                vb_mesh_d(vb_mesh_a(lat1, lon1, VB_MESH_LAT2, VB_MESH_LON2), VB_MESH_S);
        }
    }
    return 0;
}

static void teardown(void *state)
{
    struct mesh *m = state;
    int i;
    if (!m) return;
    free(m->h_lat1);
    free(m->h_lon1);
    free(m->h_lat2);
    free(m->h_lon2);
    free(m->h_a);
    if (m->kind == PINNED || m->kind == OVERLAP || m->kind == GRAPH)
        vb_pinned_free(m->h_out);
    else
        free(m->h_out);
    cudaFree(m->d_lat1);
    cudaFree(m->d_lon1);
    cudaFree(m->d_lat2);
    cudaFree(m->d_lon2);
    cudaFree(m->d_out);
    if (m->graph) cudaGraphExecDestroy(m->graph);
    for (i = 0; i < m->nstreams; i++)
        cudaStreamDestroy(m->streams[i]);
    free(m);
}

static int host_alloc(double **p, size_t n, struct vb_err *err)
{
    *p = malloc(n * sizeof **p);
    if (!*p) return vb_err_set(err, VB_E_SYS, "malloc(%zu bytes): out of host memory", n * 8);
    memset(*p, 0xff, n * sizeof **p); /* touch every page now, not inside a timed sample */
    return 0;
}

/* issue_chunks queues chunk k's kernel and its pinned D2H on stream k (device-mesh-overlap),
 * unwaited. 0 or -1 with err. */
static int issue_chunks(struct mesh *m, struct vb_err *err)
{
    long per = (m->ny + CHUNKS - 1) / CHUNKS, y0;
    int k, rc = 0;
    for (k = 0, y0 = 0; k < CHUNKS && y0 < m->ny && !rc; k++, y0 += per) {
        long rows = y0 + per <= m->ny ? per : m->ny - y0;
        size_t off = (size_t)y0 * (size_t)m->nx, cnt = (size_t)rows * (size_t)m->nx;
        rc = VB_CUDA(err,
                     vb_launch_mesh_device_mesh(m->nx, m->ny, y0, rows, m->d_out, m->streams[k])) ||
             VB_CUDA(err, cudaMemcpyAsync(m->h_out + off, m->d_out + off, cnt * sizeof(double),
                                          cudaMemcpyDeviceToHost, m->streams[k]));
    }
    return rc ? -1 : 0;
}

/* issue_pinned queues device-mesh-pinned's sample on stream 0, unwaited: the kernel, then the
 * answer's one D2H. 0 or -1 with err. */
static int issue_pinned(void *state, struct vb_err *err)
{
    const struct mesh *m = state;
    cudaStream_t s0 = m->streams[0];
    return VB_CUDA(err, vb_launch_mesh_device_mesh(m->nx, m->ny, 0, m->ny, m->d_out, s0)) ||
                   VB_CUDA(err, cudaMemcpyAsync(m->h_out, m->d_out, m->n * sizeof(double),
                                                cudaMemcpyDeviceToHost, s0))
               ? -1
               : 0;
}

static int setup(int tag, const struct vb_point *p, void **state, struct vb_err *err)
{
    enum kind kind = (enum kind)tag;
    struct mesh *m = calloc(1, sizeof *m);
    size_t bytes;
    int i;
    if (!m) return vb_err_set(err, VB_E_SYS, "out of memory");
    m->kind = kind;
    m->nx = p->v[0];
    m->ny = p->v[1];
    m->n = out_len(p);
    bytes = m->n * sizeof(double);
    *state = m;
    if (kind == PINNED || kind == OVERLAP || kind == GRAPH) {
        if (vb_pinned_alloc((void **)&m->h_out, bytes, err)) goto fail;
        memset(m->h_out, 0xff, bytes);
    } else if (host_alloc(&m->h_out, m->n, err)) {
        goto fail;
    }
    if (kind == HOST_MESH || kind == BROADCAST) {
        if (host_alloc(&m->h_lat1, m->n, err) || host_alloc(&m->h_lon1, m->n, err) ||
            VB_CUDA(err, cudaMalloc((void **)&m->d_lat1, bytes)) ||
            VB_CUDA(err, cudaMalloc((void **)&m->d_lon1, bytes)))
            goto fail;
    }
    if (kind == HOST_MESH) {
        if (host_alloc(&m->h_lat2, m->n, err) || host_alloc(&m->h_lon2, m->n, err) ||
            host_alloc(&m->h_a, m->n, err) ||
            VB_CUDA(err, cudaMalloc((void **)&m->d_lat2, bytes)) ||
            VB_CUDA(err, cudaMalloc((void **)&m->d_lon2, bytes)))
            goto fail;
    }
    if (kind != CPU) {
        if (VB_CUDA(err, cudaMalloc((void **)&m->d_out, bytes))) goto fail;
        for (i = 0; i < (kind == OVERLAP ? CHUNKS : 1); i++, m->nstreams++)
            if (VB_CUDA(err, cudaStreamCreateWithFlags(&m->streams[i], cudaStreamNonBlocking)))
                goto fail;
    }
    /* the graph holds device-mesh-pinned's sample, the kernel and the answer's one pinned D2H
     * (chunks would add a copy's start-up each: at 1000 x 1000 the overlap rung's 8 copies take
     * 16 us more than the one of 8 MB) */
    if (kind == GRAPH && vb_graph_rung(m->streams[0], issue_pinned, m, &m->graph, err)) goto fail;
    return 0;
fail:
    teardown(m);
    *state = NULL;
    return -1;
}

static int poison(void *state, struct vb_err *err)
{
    struct mesh *m = state;
    size_t bytes = m->n * sizeof(double);
    vb_host_poison(m->h_out, bytes); /* all-ones: a NaN in double */
    if (m->h_a) vb_host_poison(m->h_a, bytes);
    if (m->d_out &&
        (VB_CUDA(err, cudaMemset(m->d_out, 0xff, bytes)) || VB_CUDA(err, cudaDeviceSynchronize())))
        return -1;
    return 0;
}

static void fetch(void *state, double *out)
{
    struct mesh *m = state;
    memcpy(out, m->h_out, m->n * sizeof(double));
}

/* build_host_mesh fills the host arrays as numpy's meshgrid of the seed does. */
static void build_host_mesh(struct mesh *m, int full)
{
    long x, y;
    vb_nvtx_phase_begin(VB_PHASE_HOST_BUILD);
    for (y = 0; y < m->ny; y++) {
        double lon1 = vb_mesh_coord(VB_MESH_YB, VB_MESH_YE, y, m->ny);
        for (x = 0; x < m->nx; x++) {
            size_t i = (size_t)y * (size_t)m->nx + (size_t)x;
            m->h_lat1[i] = vb_mesh_coord(VB_MESH_XB, VB_MESH_XE, x, m->nx);
            m->h_lon1[i] = lon1;
            if (full) {
                m->h_lat2[i] = VB_MESH_LAT2;
                m->h_lon2[i] = VB_MESH_LON2;
            }
        }
    }
    vb_nvtx_phase_end();
}

/* h2d queues one array's copy to the device on stream s (the caller waits). */
static int h2d(double *dst, const double *src, size_t n, cudaStream_t s, struct vb_err *err)
{
    return VB_CUDA(err, cudaMemcpyAsync(dst, src, n * sizeof(double), cudaMemcpyHostToDevice, s));
}

/* d2h_out copies the device answer into host and waits, in the D2H phase. */
static int d2h_out(struct mesh *m, double *host, struct vb_err *err)
{
    return vb_phase_copy(VB_PHASE_D2H, host, m->d_out, m->n * sizeof(double),
                         cudaMemcpyDeviceToHost, m->streams[0], err);
}

static int run_host_mesh(void *state, struct vb_err *err)
{
    struct mesh *m = state;
    cudaStream_t s = m->streams[0];
    size_t i;
    int rc;
    build_host_mesh(m, 1);
    vb_nvtx_phase_begin(VB_PHASE_H2D);
    rc = h2d(m->d_lat1, m->h_lat1, m->n, s, err) || h2d(m->d_lon1, m->h_lon1, m->n, s, err) ||
         h2d(m->d_lat2, m->h_lat2, m->n, s, err) || h2d(m->d_lon2, m->h_lon2, m->n, s, err);
    if (vb_phase_wait(cudaSuccess, s, err) || rc) return -1;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    if (vb_phase_wait(
            vb_launch_mesh_host_mesh(m->d_lat1, m->d_lon1, m->d_lat2, m->d_lon2, m->d_out, m->n, s),
            s, err) ||
        d2h_out(m, m->h_a, err))
        return -1;
    vb_nvtx_phase_begin(VB_PHASE_HOST_POST);
    for (i = 0; i < m->n; i++)
        m->h_out[i] = vb_mesh_d(m->h_a[i], VB_MESH_S);
    vb_nvtx_phase_end();
    return 0;
}

static int run_broadcast(void *state, struct vb_err *err)
{
    struct mesh *m = state;
    cudaStream_t s = m->streams[0];
    int rc;
    build_host_mesh(m, 0);
    vb_nvtx_phase_begin(VB_PHASE_H2D);
    rc = h2d(m->d_lat1, m->h_lat1, m->n, s, err) || h2d(m->d_lon1, m->h_lon1, m->n, s, err);
    if (vb_phase_wait(cudaSuccess, s, err) || rc) return -1;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    if (vb_phase_wait(vb_launch_mesh_broadcast_scalars(m->d_lat1, m->d_lon1, VB_MESH_LAT2,
                                                       VB_MESH_LON2, VB_MESH_S, m->d_out, m->n, s),
                      s, err))
        return -1;
    return d2h_out(m, m->h_out, err);
}

/* run_device serves device-mesh (pageable output) and device-mesh-pinned (pinned output). */
static int run_device(void *state, struct vb_err *err)
{
    struct mesh *m = state;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    if (vb_phase_wait(vb_launch_mesh_device_mesh(m->nx, m->ny, 0, m->ny, m->d_out, m->streams[0]),
                      m->streams[0], err))
        return -1;
    return d2h_out(m, m->h_out, err);
}

/* run_overlap: chunk k's kernel and pinned D2H go to stream k, so chunk k's copy overlaps
 * chunk k+1's kernel; the copies themselves serialise on the one D2H copy engine. */
static int run_overlap(void *state, struct vb_err *err)
{
    struct mesh *m = state;
    int k, rc;
    vb_nvtx_phase_begin(VB_PHASE_OVERLAP);
    rc = issue_chunks(m, err);
    for (k = 0; k < CHUNKS; k++)
        if (VB_CUDA(err, cudaStreamSynchronize(m->streams[k]))) rc = -1;
    vb_nvtx_phase_end();
    return rc ? -1 : 0;
}

/* run_graph: device-mesh-pinned's sample replayed from the graph setup captured: one launch and
 * one wait instead of two calls and two waits */
static int run_graph(void *state, struct vb_err *err)
{
    struct mesh *m = state;
    return vb_phase_replay(m->graph, issue_pinned, m, m->streams[0], err);
}

static int run_cpu(void *state, struct vb_err *err)
{
    struct mesh *m = state;
    struct vb_point p = {{m->nx, m->ny}};
    int rc;
    vb_nvtx_phase_begin(VB_PHASE_CPU);
    rc = reference(&p, m->h_out, err);
    vb_nvtx_phase_end();
    return rc;
}

/* Traffic per sample, as the seed's nvprof tables count it: 8-byte doubles, one copy per array. */
static void traffic_arrays(const struct vb_point *p, int h2d_arrays, int d2h_copies,
                           struct vb_traffic *t)
{
    uint64_t bytes = (uint64_t)out_len(p) * sizeof(double);
    t->h2d_bytes = bytes * (uint64_t)h2d_arrays;
    t->h2d_count = h2d_arrays;
    t->d2h_bytes = bytes;
    t->d2h_count = d2h_copies;
}
static void traffic_host_mesh(const struct vb_point *p, struct vb_traffic *t)
{
    traffic_arrays(p, 4, 1, t);
}
static void traffic_broadcast(const struct vb_point *p, struct vb_traffic *t)
{
    traffic_arrays(p, 2, 1, t);
}
static void traffic_device(const struct vb_point *p, struct vb_traffic *t)
{
    traffic_arrays(p, 0, 1, t);
}
static void traffic_overlap(const struct vb_point *p, struct vb_traffic *t)
{
    long per = (p->v[1] + CHUNKS - 1) / CHUNKS;
    traffic_arrays(p, 0, (int)((p->v[1] + per - 1) / per), t);
}

static const struct vb_axis axes[] = {
    {"nx",
     "mesh columns (lat1 points, the contiguous index)",
     {1000, 4000},
     2,
     2,
     32768,
     NULL,
     NULL},
    {"ny", "mesh rows (lon1 points); follows nx unless given", {1000}, 1, 2, 32768, NULL, "nx"},
};

/* the answer written once (the mesh itself can be made on the device, so nothing need be read) */
static uint64_t kernel_bytes(const struct vb_point *p)
{
    return (uint64_t)out_len(p) * sizeof(double);
}

static const struct vb_problem mesh_fn = {
    .name = "mesh",
    .summary = "d = atan2(a, 1 - a) at every lat/lon mesh point against (30, 101), in double",
    .axes = axes,
    .naxes = 2,
    .out_len = out_len,
    .reference = reference,
    .kernel_bytes = kernel_bytes,
    .atol = 1e-15,
    .rtol = 1e-12,
};

static const struct vb_variant_ops ops = {
    .setup = setup,
    .poison = poison,
    .fetch = fetch,
    .teardown = teardown,
};

static const struct vb_variant variants[] = {
    {.name = "cpu-reference",
     .summary = "the function at every mesh point on one CPU core, in double (the oracle)",
     .flags = VB_REFERENCE,
     .tag = CPU,
     .run = run_cpu,
     .problem = &mesh_fn},
    {.name = "host-mesh",
     .summary = "t38: mesh built on the host, 4 full arrays H2D, kernel computes a, atan2 on host",
     .flags = VB_GPU,
     .tag = HOST_MESH,
     .run = run_host_mesh,
     .traffic = traffic_host_mesh,
     .problem = &mesh_fn},
    {.name = "broadcast-scalars",
     .summary = "t39: host mesh, lat1/lon1 H2D, lat2/lon2/s as scalars, atan2 fused",
     .flags = VB_GPU,
     .tag = BROADCAST,
     .run = run_broadcast,
     .traffic = traffic_broadcast,
     .problem = &mesh_fn},
    {.name = "device-mesh",
     .summary = "t40: mesh generated on the device by a 2D grid, no H2D, D2H to pageable",
     .flags = VB_GPU,
     .tag = DEVICE,
     .run = run_device,
     .traffic = traffic_device,
     .problem = &mesh_fn},
    {.name = "device-mesh-pinned",
     .summary = "device mesh, D2H into page-locked host memory",
     .flags = VB_GPU,
     .tag = PINNED,
     .run = run_device,
     .traffic = traffic_device,
     .problem = &mesh_fn},
    {.name = "device-mesh-overlap",
     .summary = "device mesh in 8 row chunks on 8 streams, pinned D2H overlaps kernels",
     .flags = VB_GPU,
     .tag = OVERLAP,
     .run = run_overlap,
     .traffic = traffic_overlap,
     .problem = &mesh_fn},
    {.name = "device-mesh-graph",
     .summary = "device-mesh-pinned's kernel and D2H captured once as a CUDA graph, each sample "
                "one launch and one wait",
     .flags = VB_GPU | VB_GRAPH,
     .tag = GRAPH,
     .run = run_graph,
     .traffic = traffic_device,
     .problem = &mesh_fn},
};

const struct vb_family vb_family_mesh = {
    .name = "mesh",
    .summary = "distance-like function over a lat/lon mesh: host mesh vs device mesh (FP64)",
    .seed = "001_3fd93b66030e3e8a.txt",
    .ops = &ops,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
};
