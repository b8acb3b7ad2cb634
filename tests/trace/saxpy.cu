/*
 * trace_prog_c: an unmodified CUDA C program for varbench trace's tests, with work known in
 * advance: y = a y + x on N floats (a = 0.5, x = 1, y from 0), REPS times per launch, ITERS
 * launches, after one memset. Per run:
 *   copies   2 HtoD of N*4 bytes (x, y), 1 DtoH of N*4 bytes (y)
 *   memsets  1 of N*4 bytes
 *   kernels  ITERS launches of saxpy (REPS > 1 makes a long, compute-bound program for the
 *            overhead check)
 *   NVTX     ranges "setup", "compute", "check" (one each); cudaProfilerStart and
 *            cudaProfilerStop around the launches (for --profile-from-start off)
 * It then sleeps SLEEP seconds (to be interrupted by a test), checks the answer, prints it and
 * the compute phase's wall time (launches to the synchronisation), and exits 0
 * (right), 1 (wrong), 2 (a CUDA error), 3 (no CUDA device: the message says "no CUDA device").
 *
 * usage: trace_prog_c [N [ITERS [REPS [SLEEP]]]]   (defaults 1000000 10 1 0)
 *
 * Built twice: trace_prog_c_alt (TRACE_PROG_ALT) rounds the multiply and the add apart instead
 * of fusing them, the same answers (a = 0.5: exact either way) from other SASS in one kernel,
 * for the test that two traces name the kernel whose code changed.
 */
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <math.h>
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__global__ void saxpy(int n, int reps, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = y[i], xi = x[i];
        for (int r = 0; r < reps; r++)
#ifdef TRACE_PROG_ALT
            v = __fadd_rn(__fmul_rn(a, v), xi);
#else
            v = fmaf(a, v, xi);
#endif
        y[i] = v;
    }
}

static int check(cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return 0;
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorStubLibrary) {
        fprintf(stderr, "trace_prog_c: no CUDA device (%s: %s)\n", what, cudaGetErrorString(e));
        exit(3);
    }
    fprintf(stderr, "trace_prog_c: %s: %s\n", what, cudaGetErrorString(e));
    exit(2);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    int iters = argc > 2 ? atoi(argv[2]) : 10, reps = argc > 3 ? atoi(argv[3]) : 1;
    int pause_s = argc > 4 ? atoi(argv[4]) : 0, ndev = 0;
    size_t bytes = sizeof(float) * (size_t)n;
    float *x, *y, *dx, *dy, a = 0.5f, want = 0.0f;
    long i, k, bad = 0;
    struct timespec t0, t1;
    if (n < 1 || iters < 0 || reps < 1) {
        fprintf(stderr, "usage: trace_prog_c [N [ITERS [REPS [SLEEP]]]]\n");
        return 2;
    }
    check(cudaGetDeviceCount(&ndev), "cudaGetDeviceCount");
    nvtxRangePushA("setup");
    x = (float *)malloc(bytes);
    y = (float *)malloc(bytes);
    if (!x || !y) return 2;
    for (i = 0; i < n; i++)
        x[i] = 1.0f, y[i] = 0.0f;
    check(cudaMalloc((void **)&dx, bytes), "cudaMalloc");
    check(cudaMalloc((void **)&dy, bytes), "cudaMalloc");
    check(cudaMemset(dy, 0, bytes), "cudaMemset");
    check(cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice), "cudaMemcpy HtoD");
    check(cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice), "cudaMemcpy HtoD");
    nvtxRangePop();
    nvtxRangePushA("compute");
    check(cudaProfilerStart(), "cudaProfilerStart");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (i = 0; i < iters; i++) {
        saxpy<<<(unsigned)((n + 255) / 256), 256>>>((int)n, reps, a, dx, dy);
        check(cudaGetLastError(), "saxpy launch");
    }
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    check(cudaProfilerStop(), "cudaProfilerStop");
    nvtxRangePop();
    nvtxRangePushA("check");
    check(cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy DtoH");
    /* the same float recurrence on the host (it reaches its fixed point 2 after ~25 steps) */
    for (k = 0; k < (long)iters * reps && want != 2.0f; k++)
        want = fmaf(a, want, 1.0f);
    for (i = 0; i < n; i++)
        bad += y[i] != want;
    nvtxRangePop();
    if (pause_s > 0) {
        printf("trace_prog_c: sleeping %d s\n", pause_s);
        fflush(stdout);
        sleep((unsigned)pause_s);
    }
    cudaFree(dx);
    cudaFree(dy);
    free(x);
    free(y);
    printf("trace_prog_c: %ld floats, %d launches x %d: %s\n", n, iters, reps,
           bad ? "WRONG" : "ok");
    printf("trace_prog_c: compute %.6f s\n",
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    return bad ? 1 : 0;
}
