/* graph: capture and instantiate (see graph.h). */
#include "graph.h"

int vb_graph_begin(cudaStream_t s, struct vb_err *err)
{
    return VB_CUDA(err, cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal)) ? -1 : 0;
}

int vb_graph_end(cudaStream_t s, int issued, cudaGraphExec_t *exec, struct vb_err *err)
{
    cudaGraph_t g = NULL;
    cudaError_t rc = cudaStreamEndCapture(s, &g); /* also after a failed call: s leaves capture */
    *exec = NULL;
    if (issued || VB_CUDA(err, rc) || VB_CUDA(err, cudaGraphInstantiate(exec, g, 0))) {
        *exec = NULL;
        if (g) cudaGraphDestroy(g);
        return -1;
    }
    cudaGraphDestroy(g); /* the instance keeps what it needs */
    return 0;
}
