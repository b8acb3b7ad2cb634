/* vb_hd: VB_HD marks functions compiled for both the CPU reference (C11) and the kernels
 * (CUDA), the seed 002 point "compile the same function for CPU and GPU". */
#ifndef VB_HD_H
#define VB_HD_H
#ifdef __CUDACC__
#define VB_HD __host__ __device__
#else
#define VB_HD
#endif
#endif
