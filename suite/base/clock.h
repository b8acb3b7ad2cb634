/*
 * clock: the host clock every host-side time of varbench is read from (a sample's end-to-end
 * time, a round trip, a traced process's costs): CLOCK_MONOTONIC in nanoseconds. Header-only, so
 * that the injection library and the program share it without a source of their own.
 */
#ifndef VB_CLOCK_H
#define VB_CLOCK_H

#include <time.h>

/* vb_mono_ns: CLOCK_MONOTONIC now, in nanoseconds */
static inline double vb_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#endif
