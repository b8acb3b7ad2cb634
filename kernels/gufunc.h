/*
 * gufunc kernels' launchers (extern "C", called from variants/gufunc.c): one thread per
 * row, four layouts. func is an enum vb_gufunc_func. Each returns the launch's error.
 */
#ifndef VB_GUFUNC_KERNELS_H
#define VB_GUFUNC_KERNELS_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* In place on buf[rows][cols] (the seed's (n)->(n) workaround): x is buf[r][0] for powsum,
 * buf[r][1] for hermite (the seed's layouts); the whole row is overwritten. */
cudaError_t vb_launch_gufunc_row_sliced(int func, float *buf, long rows, int cols, cudaStream_t s);
/* out[rows][cols] row-major from x[rows] ("()->(n)"): thread r writes its row, stride cols. */
cudaError_t vb_launch_gufunc_scalar_in(int func, const float *x, float *out, long rows, int cols,
                                       cudaStream_t s);
/* out[cols][rows] (transposed) from x[rows]: consecutive threads write consecutive addresses. */
cudaError_t vb_launch_gufunc_column_sliced(int func, const float *x, float *out, long rows,
                                           int cols, cudaStream_t s);
/* out[rows][cols] row-major from x[rows], each block's rows staged in shared memory and written
 * out as one contiguous, coalesced span. cols <= 64. */
cudaError_t vb_launch_gufunc_row_sliced_smem(int func, const float *x, float *out, long rows,
                                             int cols, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
