/*
 * trace_cupti_client: a CUDA C program that is its own CUPTI client, as a program with a
 * profiler inside is (PyTorch's, a tool of its own): it subscribes to CUPTI, registers its own
 * activity buffers and counts the kernel records it receives for its launches. WHEN says when
 * its client starts: "before" CUDA initialises (the injection then finds it there) or "after"
 * (it arrives while the injection already traces). It runs correctly when its answer is right
 * and its own client saw every kernel it launched.
 *
 * usage: trace_cupti_client WHEN [LAUNCHES]   (WHEN before|after; LAUNCHES default 50)
 * Prints "trace_cupti_client: WHEN: L launches, K kernel records, subscribe rc R: ok|WRONG"
 * and exits 0 (ok), 1 (its client lost records or the answer is wrong), 2 (a CUDA or CUPTI
 * error), 3 (no CUDA device).
 */
#include <cuda_runtime.h>
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF (1u << 20)

static int kernels; /* kernel records this client received */

static void CUPTIAPI requested(uint8_t **buf, size_t *size, size_t *max)
{
    *buf = (uint8_t *)aligned_alloc(8, BUF);
    *size = *buf ? BUF : 0;
    *max = 0;
}

static void CUPTIAPI completed(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size,
                               size_t valid)
{
    CUpti_Activity *rec = NULL;
    (void)ctx;
    (void)stream;
    (void)size;
    while (valid && cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS)
        if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) kernels++;
    free(buf);
}

static void CUPTIAPI on_api(void *u, CUpti_CallbackDomain d, CUpti_CallbackId id, const void *p)
{
    (void)u;
    (void)d;
    (void)id;
    (void)p;
}

__global__ void inc(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}

/* start_client subscribes and takes the activity buffers; returns the subscribe result */
static int start_client(void)
{
    CUpti_SubscriberHandle h;
    CUptiResult rc = cuptiSubscribe(&h, (CUpti_CallbackFunc)on_api, NULL);
    if (cuptiActivityRegisterCallbacks(requested, completed) != CUPTI_SUCCESS ||
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) {
        fprintf(stderr, "trace_cupti_client: CUPTI activity API failed\n");
        exit(2);
    }
    return (int)rc;
}

int main(int argc, char **argv)
{
    const char *when = argc > 1 ? argv[1] : "";
    int launches = argc > 2 ? atoi(argv[2]) : 50, n = 1 << 20, sub = -1, i, bad = 0;
    float *d, *h;
    cudaError_t e;
    if (strcmp(when, "before") && strcmp(when, "after")) {
        fprintf(stderr, "usage: trace_cupti_client before|after [LAUNCHES]\n");
        return 2;
    }
    if (!strcmp(when, "before")) sub = start_client();
    if ((e = cudaFree(0)) != cudaSuccess) {
        fprintf(stderr, "trace_cupti_client: no CUDA device (%s)\n", cudaGetErrorString(e));
        return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ? 3 : 2;
    }
    if (!strcmp(when, "after")) sub = start_client();
    h = (float *)malloc(sizeof *h * n);
    if (!h || cudaMalloc(&d, sizeof *d * n) != cudaSuccess ||
        cudaMemset(d, 0, sizeof *d * n) != cudaSuccess)
        return 2;
    for (i = 0; i < launches; i++)
        inc<<<(n + 255) / 256, 256>>>(d, n);
    if (cudaMemcpy(h, d, sizeof *h * n, cudaMemcpyDeviceToHost) != cudaSuccess) return 2;
    cuptiActivityFlushAll(1);
    for (i = 0; i < n; i++)
        if (h[i] != (float)launches) bad = 1;
    printf("trace_cupti_client: %s: %d launches, %d kernel records, subscribe rc %d: %s\n", when,
           launches, kernels, sub, !bad && kernels == launches ? "ok" : "WRONG");
    return !bad && kernels == launches ? 0 : 1;
}
