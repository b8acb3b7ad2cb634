/*
 * stamp: the clock of CUPTI's records, for the three places that read or map it: the activity
 * collector (activity.c), varbench's NVTX recorder (nvtx_record.c) and the CUPTI sharer in the
 * program's LD_PRELOAD (cupti_mux.c, which links nothing of varbench: hence a header only).
 * CUPTI stamps with CLOCK_REALTIME ns until a CUPTI client of the program registers a timestamp
 * callback (Kineto: raw TSC ticks); from then on CPU-side records, and GPU-side records CUPTI
 * converts after the registration, carry the callback's clock.
 */
#ifndef VB_STAMP_H
#define VB_STAMP_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* vb_realtime_ns reads CLOCK_REALTIME in ns, CUPTI's default clock. This can't fail. */
static inline uint64_t vb_realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A linear map from a timestamp callback's clock to CLOCK_REALTIME: both read together now, and
 * the realtime ns per tick. */
struct vb_stamp_map {
    uint64_t clock1, real1;
    double rate;
};

/* vb_stamp_to_realtime returns t in CLOCK_REALTIME ns: mapped when it is a stamp of the
 * callback's clock (nearer its reading than realtime's), as it is otherwise (a stamp taken
 * before the callback was registered, or 0 for none). */
static inline uint64_t vb_stamp_to_realtime(const struct vb_stamp_map *m, uint64_t t)
{
    int64_t dc = (int64_t)(t - m->clock1), dr = (int64_t)(t - m->real1);
    if (!t || llabs((long long)dc) >= llabs((long long)dr)) return t;
    return m->real1 + (uint64_t)(int64_t)((double)dc * m->rate);
}

#endif
