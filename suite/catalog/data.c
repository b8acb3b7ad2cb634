/* data: splitmix64 hashing of (seed, index) into uniform doubles (see data.h). */
#include "varbench.h"

#include <stdlib.h>
#include <string.h>

double vb_data_uniform(uint64_t seed, uint64_t i, double lo, double hi)
{
    uint64_t z = seed * 0x9e3779b97f4a7c15ull + i + 0x632be59bd9b4e019ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static void touch_part(size_t lo, size_t hi, void *ctx, int slot)
{
    (void)slot;
    memset((char *)ctx + lo, 0xff, hi - lo);
}

void *vb_host_alloc(size_t bytes, struct vb_err *err)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        vb_err_set(err, VB_E_SYS, "malloc(%zu bytes): out of host memory", bytes);
    else
        vb_parallel_for(bytes, touch_part, p); /* every page touched outside the samples */
    return p;
}

void vb_host_poison(void *p, size_t bytes)
{
    vb_parallel_for(bytes, touch_part, p);
}

struct widen {
    double *out;
    const float *in;
};

static void widen_part(size_t lo, size_t hi, void *ctx, int slot)
{
    struct widen *w = ctx;
    size_t i;
    (void)slot;
    for (i = lo; i < hi; i++)
        w->out[i] = w->in[i];
}

void vb_host_widen(double *out, const float *in, size_t n)
{
    struct widen w = {out, in};
    vb_parallel_for(n, widen_part, &w);
}
