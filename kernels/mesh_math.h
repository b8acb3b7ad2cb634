/*
 * mesh_math: the function of the mesh family (seed 001), written once for the CPU
 * reference and every kernel. For each mesh point (lat1, lon1) against the fixed point
 * (lat2, lon2) = (30, 101) with s = 1:
 *   a = sin^2(0.008726645 (lat2 - lat1)) + cos(0.01745329 lat1) cos(0.01745329 lat2)
 *       sin^2(0.008726645 (lon2 - lon1)),   d = atan2(a, 1 - a) s.
 * The mesh is lat1 over linspace(29, 31, nx) (fastest index) and lon1 over
 * linspace(99, 101, ny), row-major [ny][nx], as numpy's meshgrid in the seed.
 */
#ifndef VB_MESH_MATH_H
#define VB_MESH_MATH_H

#include <math.h>

#include "vb_hd.h"

#define VB_MESH_LAT2 30.0
#define VB_MESH_LON2 101.0
#define VB_MESH_S    1.0
#define VB_MESH_XB   29.0
#define VB_MESH_XE   31.0
#define VB_MESH_YB   99.0
#define VB_MESH_YE   101.0

/* vb_mesh_coord: point i of linspace(b, e, n), computed as the seed's t40 kernel does. */
VB_HD static inline double vb_mesh_coord(double b, double e, long i, long n)
{
    return n > 1 ? ((e - b) * (double)i) / (double)(n - 1) + b : b;
}

VB_HD static inline double vb_mesh_a(double lat1, double lon1, double lat2, double lon2)
{
    double s1 = sin(0.008726645 * (lat2 - lat1));
    double s2 = sin(0.008726645 * (lon2 - lon1));
    return s1 * s1 + cos(0.01745329 * lat1) * cos(0.01745329 * lat2) * (s2 * s2);
}

VB_HD static inline double vb_mesh_d(double a, double s)
{
    return atan2(a, 1.0 - a) * s;
}

#endif
