/*
 * mesh kernels' launchers (extern "C", called from variants/mesh.c). Each returns the
 * launch's cudaError_t (cudaGetLastError after the launch); all work on `stream`.
 */
#ifndef VB_MESH_KERNELS_H
#define VB_MESH_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* a[i] = vb_mesh_a(lat1[i], lon1[i], lat2[i], lon2[i]) for i < n (seed t38). */
cudaError_t vb_launch_mesh_host_mesh(const double *lat1, const double *lon1, const double *lat2,
                                     const double *lon2, double *a, size_t n, cudaStream_t stream);

/* d[i] = vb_mesh_d(vb_mesh_a(lat1[i], lon1[i], lat2, lon2), s): scalars broadcast (seed t39). */
cudaError_t vb_launch_mesh_broadcast_scalars(const double *lat1, const double *lon1, double lat2,
                                             double lon2, double s, double *d, size_t n,
                                             cudaStream_t stream);

/* Rows [y0, y0 + rows) of the [ny][nx] mesh generated on the device and evaluated into
 * out[y * nx + x] (seed t40; the grid is sized from the mesh, not fixed at 32 x 32 blocks). */
cudaError_t vb_launch_mesh_device_mesh(long nx, long ny, long y0, long rows, double *out,
                                       cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
