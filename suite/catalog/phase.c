/* phase: checked waits and copies inside NVTX phases (see phase.h). */
#include "phase.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

int vb_phase_wait_at(cudaError_t launched, cudaStream_t s, struct vb_err *err, const char *call,
                     const char *file, int line)
{
    int rc =
        vb_err_cuda(err, (int)launched, call, file, line) || VB_CUDA(err, cudaStreamSynchronize(s));
    vb_nvtx_phase_end();
    return rc ? -1 : 0;
}

int vb_phase_copy(enum vb_phase ph, void *dst, const void *src, size_t bytes,
                  enum cudaMemcpyKind kind, cudaStream_t s, struct vb_err *err)
{
    vb_nvtx_phase_begin(ph);
    return vb_phase_wait(cudaMemcpyAsync(dst, src, bytes, kind, s), s, err);
}

int vb_phase_issue(enum vb_phase ph, vb_issue_fn issue, void *state, cudaStream_t s,
                   struct vb_err *err)
{
    vb_nvtx_phase_begin(ph);
    if (issue(state, err)) {
        vb_nvtx_phase_end(); /* err says which call failed */
        return -1;
    }
    return vb_phase_wait(cudaSuccess, s, err);
}

static _Thread_local int unroll, unrolled; /* vb_phase_unroll_graphs: the calling thread's */

int vb_phase_unroll_graphs(int on)
{
    int n = unrolled;
    unroll = on;
    unrolled = 0;
    return n;
}

int vb_phase_replay(cudaGraphExec_t exec, vb_issue_fn issue, void *state, cudaStream_t s,
                    struct vb_err *err)
{
    if (exec && unroll) {
        unrolled++;
        return vb_phase_issue(VB_PHASE_GRAPH, issue, state, s, err);
    }
    if (!exec) return vb_phase_issue(VB_PHASE_ONE_WAIT, issue, state, s, err);
    vb_nvtx_phase_begin(VB_PHASE_GRAPH);
    return vb_phase_wait(cudaGraphLaunch(exec, s), s, err);
}

#define MAX_SETUP 8

static struct {
    enum vb_phase ph;
    double ms;
} setup_done[MAX_SETUP];
static int nsetup;
static enum vb_phase setup_ph;
static struct timespec setup_t0;

void vb_phase_setup_begin(enum vb_phase ph)
{
    setup_ph = ph;
    vb_nvtx_phase_begin(ph);
    clock_gettime(CLOCK_MONOTONIC, &setup_t0);
}

void vb_phase_setup_end(void)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    vb_nvtx_phase_end();
    if (nsetup == MAX_SETUP) return; /* a case with more keeps its first ones */
    setup_done[nsetup].ph = setup_ph;
    setup_done[nsetup++].ms =
        (double)(t1.tv_sec - setup_t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - setup_t0.tv_nsec) / 1e6;
}

int vb_phase_setup_take(char *buf, size_t n)
{
    size_t used = 0;
    int i, k = nsetup;
    if (buf && n) buf[0] = '\0';
    for (i = 0; buf && i < nsetup && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s %.3f ms", i ? ", " : "",
                                 vb_phase_name(setup_done[i].ph), setup_done[i].ms);
    nsetup = 0;
    return k;
}
