/*
 * crossover: the size from which the GPU beats the CPU reference end to end (seed 003's
 * question: the GPU loses at small sizes), interpolated on a run's own sweep. Between the last
 * point where the GPU loses and the next one, where it wins, log(gpu / cpu) is taken as linear
 * in log(size); its zero is the crossover. Pure: the caller picks the points (the best GPU rung
 * at each size, the reference's time there).
 */
#ifndef VB_CROSSOVER_H
#define VB_CROSSOVER_H

/* One size of the sweep: the CPU reference's and the GPU's end-to-end medians there. */
struct vb_cross_point {
    double size, cpu_ns, gpu_ns;
};

enum vb_cross_kind {
    VB_CROSS_UNKNOWN, /* no point with both times */
    VB_CROSS_AT,      /* the GPU loses below `at` and wins above it, within [lo, hi] */
    VB_CROSS_ALWAYS,  /* the GPU wins at every point, from lo (the smallest) */
    VB_CROSS_NEVER,   /* the GPU wins at no point past the last it lost, up to hi (the largest) */
};

struct vb_crossover {
    enum vb_cross_kind kind;
    double at;     /* VB_CROSS_AT: the interpolated size */
    double lo, hi; /* the sweep's points that bracket it (AT), or its ends */
};

/* vb_crossover_find fills out from pts[0..n), sorted by size ascending; a point without a
 * positive, finite size and times is left out. A GPU that ties the CPU loses (it must beat
 * it). A GPU that wins, loses again and wins again crosses at the last change. */
void vb_crossover_find(const struct vb_cross_point *pts, int n, struct vb_crossover *out);

#endif
