/* graph: capture and instantiate (see graph.h). */
#include "varbench.h"

int vb_graph_capture(cudaStream_t s, vb_issue_fn issue, void *state, cudaGraphExec_t *exec,
                     struct vb_err *err)
{
    cudaGraph_t g = NULL;
    cudaError_t rc;
    int issued;
    *exec = NULL;
    if (VB_CUDA(err, cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal))) return -1;
    issued = issue(state, err);
    rc = cudaStreamEndCapture(s, &g); /* also after a failed call: s leaves capture */
    if (issued || VB_CUDA(err, rc) || VB_CUDA(err, cudaGraphInstantiate(exec, g, 0))) {
        *exec = NULL;
        if (g) cudaGraphDestroy(g);
        return -1;
    }
    cudaGraphDestroy(g); /* the instance keeps what it needs */
    return 0;
}

int vb_graph_rung(cudaStream_t s, vb_issue_fn issue, void *state, cudaGraphExec_t *exec,
                  struct vb_err *err)
{
    if (!vb_graph_capture(s, issue, state, exec, err)) return 0;
    if (!vb_pinned_pageable()) return -1;
    vb_err_clear(err); /* the test switch's pageable arrays: the rung issues on its stream */
    (void)cudaGetLastError();
    return 0;
}
