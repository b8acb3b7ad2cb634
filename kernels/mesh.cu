// mesh kernels (seed 001): host-built mesh, broadcast scalars, device-generated mesh.
#include "mesh.h"
#include "mesh_math.h"

__global__ void mesh_host_mesh_kernel(const double *__restrict__ lat1,
                                      const double *__restrict__ lon1,
                                      const double *__restrict__ lat2,
                                      const double *__restrict__ lon2, double *__restrict__ a,
                                      size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = vb_mesh_a(lat1[i], lon1[i], lat2[i], lon2[i]);
}

__global__ void mesh_broadcast_scalars_kernel(const double *__restrict__ lat1,
                                              const double *__restrict__ lon1, double lat2,
                                              double lon2, double s, double *__restrict__ d,
                                              size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = vb_mesh_d(vb_mesh_a(lat1[i], lon1[i], lat2, lon2), s);
}

// x (the contiguous index) runs along threadIdx.x, so a warp stores 32 consecutive doubles.
__global__ void mesh_device_mesh_kernel(long nx, long ny, long y0, long rows,
                                        double *__restrict__ out)
{
    long x = (long)blockIdx.x * blockDim.x + threadIdx.x;
    long y = y0 + (long)blockIdx.y * blockDim.y + threadIdx.y;
    if (x < nx && y < y0 + rows && y < ny) {
        double lat1 = vb_mesh_coord(VB_MESH_XB, VB_MESH_XE, x, nx);
        double lon1 = vb_mesh_coord(VB_MESH_YB, VB_MESH_YE, y, ny);
        out[y * nx + x] = vb_mesh_d(vb_mesh_a(lat1, lon1, VB_MESH_LAT2, VB_MESH_LON2), VB_MESH_S);
    }
}

static const unsigned threads1d = 256;

extern "C" cudaError_t vb_launch_mesh_host_mesh(const double *lat1, const double *lon1,
                                                const double *lat2, const double *lon2, double *a,
                                                size_t n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    mesh_host_mesh_kernel<<<(unsigned)((n + threads1d - 1) / threads1d), threads1d, 0, stream>>>(
        lat1, lon1, lat2, lon2, a, n);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_mesh_broadcast_scalars(const double *lat1, const double *lon1,
                                                        double lat2, double lon2, double s,
                                                        double *d, size_t n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    mesh_broadcast_scalars_kernel<<<(unsigned)((n + threads1d - 1) / threads1d), threads1d, 0,
                                    stream>>>(lat1, lon1, lat2, lon2, s, d, n);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_mesh_device_mesh(long nx, long ny, long y0, long rows, double *out,
                                                  cudaStream_t stream)
{
    dim3 block(32, 8);
    dim3 grid((unsigned)((nx + block.x - 1) / block.x), (unsigned)((rows + block.y - 1) / block.y));
    if (nx <= 0 || rows <= 0) return cudaSuccess;
    if (grid.y > 65535) return cudaErrorInvalidConfiguration;
    mesh_device_mesh_kernel<<<grid, block, 0, stream>>>(nx, ny, y0, rows, out);
    return cudaGetLastError();
}
