/* control: the controls' names and the two host workloads (see control.h). */
#include "control.h"

#include <math.h>
#include <stdint.h>
#include <sys/mman.h>

#include "clock.h"

#define CPU_STEPS 16384
#define THR_STEPS 512
#define THR_LANES 8
#define MEM_BYTES ((size_t)64 << 20)
#define MEM_LOADS 2048

static const char *const columns[] = {
#define X(id, col, what) col,
    VB_CONTROLS(X)
#undef X
};
static const char *const whats[] = {
#define X(id, col, what) what,
    VB_CONTROLS(X)
#undef X
};

const char *vb_control_column(enum vb_control c)
{
    return (unsigned)c < VB_CTL_COUNT ? columns[c] : "?";
}

const char *vb_control_what(enum vb_control c)
{
    return (unsigned)c < VB_CTL_COUNT ? whats[c] : "?";
}

/* what the workloads compute, kept so that the compiler keeps them */
static volatile uint64_t sink;

double vb_control_cpu_ns(void)
{
    uint64_t x = sink | 1;
    double t0 = vb_mono_ns();
    int i;
    for (i = 0; i < CPU_STEPS; i++) /* each step waits on the last: the core's latency */
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    sink = x;
    return vb_mono_ns() - t0;
}

double vb_control_thr_ns(void)
{
    uint64_t a[THR_LANES], s = 0;
    float f[THR_LANES], g = 0;
    double t0;
    int i, k;
    for (k = 0; k < THR_LANES; k++) {
        a[k] = sink + (uint64_t)k;
        f[k] = (float)k * 0.125f;
    }
    t0 = vb_mono_ns();
    for (i = 0; i < THR_STEPS; i++) /* the lanes' steps independent: the core's throughput */
        for (k = 0; k < THR_LANES; k++) {
            a[k] = a[k] * 6364136223846793005ull + 1442695040888963407ull;
            f[k] = fmaf(f[k], 0.999f, 0.001f);
        }
    for (k = 0; k < THR_LANES; k++) {
        s += a[k];
        g += f[k];
    }
    sink = s + (uint64_t)(g > 1e30f);
    return vb_mono_ns() - t0;
}

static unsigned char *buf; /* MEM_BYTES, every page touched; NULL until the first call */
static int buf_failed;

double vb_control_mem_ns(void)
{
    uint64_t at = sink, lines = MEM_BYTES / 64;
    double t0;
    int i;
    if (!buf && !buf_failed) {
        /* its pages made at once (MAP_POPULATE: real zeroed pages, never the shared zero page),
         * small ones in every run: whether huge ones were had would change the walk's time */
        void *p = mmap(NULL, MEM_BYTES, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            buf_failed = 1;
            return NAN;
        }
        madvise(p, MEM_BYTES, MADV_NOHUGEPAGE);
        buf = p;
    }
    if (!buf) return NAN;
    t0 = vb_mono_ns();
    for (i = 0; i < MEM_LOADS; i++) /* the next line depends on the byte loaded: no overlap */
        at = at * 2862933555777941757ull + 3037000493ull + buf[((at >> 32) & (lines - 1)) * 64];
    sink = at;
    return vb_mono_ns() - t0;
}

void vb_control_release(void)
{
    if (buf) munmap(buf, MEM_BYTES);
    buf = NULL;
    buf_failed = 0;
}
