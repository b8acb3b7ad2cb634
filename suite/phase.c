/* phase: checked waits and copies inside NVTX phases (see phase.h). */
#include "phase.h"

int vb_phase_wait(cudaError_t launched, cudaStream_t s, struct vb_err *err)
{
    int rc = VB_CUDA(err, launched) || VB_CUDA(err, cudaStreamSynchronize(s));
    vb_nvtx_phase_end();
    return rc ? -1 : 0;
}

int vb_phase_copy(enum vb_phase ph, void *dst, const void *src, size_t bytes,
                  enum cudaMemcpyKind kind, cudaStream_t s, struct vb_err *err)
{
    vb_nvtx_phase_begin(ph);
    return vb_phase_wait(cudaMemcpyAsync(dst, src, bytes, kind, s), s, err);
}
