/* parallel: a parallel for on all cores (see parallel.h). */
#include "varbench.h"

#include <pthread.h>
#include <unistd.h>

struct part {
    size_t lo, hi;
    void (*fn)(size_t, size_t, void *, int);
    void *ctx;
    int slot;
};

static void *run_part(void *arg)
{
    struct part *p = arg;
    p->fn(p->lo, p->hi, p->ctx, p->slot);
    return NULL;
}

int vb_parallel_for(size_t n, void (*fn)(size_t lo, size_t hi, void *ctx, int slot), void *ctx)
{
    struct part parts[VB_PARALLEL_MAX];
    pthread_t th[VB_PARALLEL_MAX];
    int started[VB_PARALLEL_MAX] = {0};
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int k, np = n < (1u << 20) || cores < 2 ? 1
                : cores > VB_PARALLEL_MAX   ? VB_PARALLEL_MAX
                                            : (int)cores;
    for (k = 0; k < np; k++) {
        parts[k].lo = n / (size_t)np * (size_t)k;
        parts[k].hi = k + 1 == np ? n : n / (size_t)np * (size_t)(k + 1);
        parts[k].fn = fn;
        parts[k].ctx = ctx;
        parts[k].slot = k;
    }
    /* part 0 runs here; a part whose thread did not start runs here too */
    for (k = 1; k < np; k++)
        started[k] = pthread_create(&th[k], NULL, run_part, &parts[k]) == 0;
    run_part(&parts[0]);
    for (k = 1; k < np; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        else
            run_part(&parts[k]);
    }
    return np;
}
