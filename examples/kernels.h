/* The example's kernels (kernels.cu), launched through C functions on a stream. */
#ifndef EXAMPLE_KERNELS_H
#define EXAMPLE_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = a x[i] + y[i], i < n: float (fp64 0) or double (fp64 1) arrays. Built with
 * -DEXAMPLE_SLOW=1, each thread walks its element through a 32-element stride (an uncoalesced
 * access: the regression the gate must catch). */
cudaError_t ex_launch_triad(int fp64, double a, const void *x, const void *y, void *out, size_t n,
                            cudaStream_t s);
/* out[i] = sqrt(x[i]) + 1, i < n (doubles): the round trip's kernel. */
cudaError_t ex_launch_sqrt1(const double *x, double *out, size_t n, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
