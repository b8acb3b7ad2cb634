/*
 * tools: what `varbench trace` must know of the world around the program before and after it
 * runs: another CUDA tool already in charge (Nsight Compute, Nsight Systems,
 * compute-sanitizer, cuda-gdb: CUDA takes one injection, CUPTI one client), and, when no
 * process was traced, whether CUDA can start here at all. Reads /proc and the environment;
 * vb_cuda_probe loads the driver, so varbench calls it only after the program has ended.
 */
#ifndef VB_TOOLS_H
#define VB_TOOLS_H

#include <stddef.h>

/* vb_tool_detect names the CUDA tool varbench runs under, if any: CUDA_INJECTION64_PATH set to
 * a library other than own_lib (told apart by its path), a variable such a tool sets for its
 * targets (Nsight Compute's NV_COMPUTE_PROFILER_PERFWORKS_DIR), or one of the tools among
 * varbench's ancestor processes. Returns 1 with the tool's name ("Nsight Compute (ncu)") in name
 * and the evidence ("CUDA_INJECTION64_PATH=...", "ancestor process 1234 'ncu'") in how; 0 when
 * none. */
int vb_tool_detect(const char *own_lib, char *name, size_t n, char *how, size_t hn);

/* vb_tool_name names the tool an injection library belongs to, by its path; "another CUDA
 * tool" when unknown. */
const char *vb_tool_name(const char *injection_path);

/* vb_cuda_probe tells whether CUDA can start in this process's environment: loads libcuda.so.1
 * and calls cuInit(0) (with no injection). With in_process, asks the driver a traced program
 * has already loaded (never loading one; cuInit repeats its first answer). Returns 0 when it
 * can (or, in_process, when no driver is loaded), or -1 with why ("no CUDA driver
 * (libcuda.so.1: cannot open ...)", "cuInit: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is
 * detected)"). */
int vb_cuda_probe(int in_process, char *why, size_t n);

#endif
