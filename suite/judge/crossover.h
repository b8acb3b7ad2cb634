/*
 * crossover: the size from which the GPU beats the CPU reference end to end (seed 003's
 * question: the GPU loses at small sizes), interpolated on a run's own sweep. Between the last
 * point where the GPU loses and the next one, where it wins, log(gpu / cpu) is taken as linear
 * in log(size); its zero is the crossover. vb_crossover_find is pure (the caller picks the
 * points); vb_crossover_run takes them from a run's cases: per problem, along its first
 * integer axis the run swept (calx model_size, mesh nx, gufunc rows, ufunc n), once per value of
 * its other axes (gufunc's func), the CPU reference's end-to-end median against the best correct
 * GPU rung's at each size (the fastest board's, in a run of several). `run`, `report` and
 * `export` show the same groups. Workload: a run's
 * few hundred cases, scanned per group.
 */
#ifndef VB_CROSSOVER_H
#define VB_CROSSOVER_H

#include <stddef.h>

#include "store.h"

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

/* A group of a run's cases: a problem at one value of its other axes, swept along one axis (a
 * problem not swept: each point its own group, with no axis and no crossover). A problem
 * without a reference case makes groups too, without a crossover. */
struct vb_cross_group {
    const char *family, *problem;      /* point into the cases and problem names given */
    char key[256];                     /* its other axes that tell groups apart ("func=powsum"), or,
                                        * unswept, all of them */
    char axis[32];                     /* the swept axis; "" unswept */
    const struct vb_case_row *largest; /* a case at its largest size: its reference case when
                                        * the run has one there (never NULL) */
    struct vb_crossover cross;         /* where the best GPU rung starts to beat the reference */
    char text[160];                    /* "from model_size ~ 2330 (between 960 and 10000)", "at
                                        * every size, from nx=1000", "at no size up to ..."; "" */
    int graph;                         /* a graph rung (VB_GRAPH) was among its GPU rungs: */
    struct vb_crossover plain;         /* the crossover without such rungs, */
    char plain_text[160];              /* and its text, as text's */
};
#define VB_CROSS_MAX_GROUPS 64

/* A run's groups, with the problem of each of its cases (stored with its variant; for an older
 * database, vb_problem_of) and the group each
 * belongs to: what `run`, `report` and `export` show. */
struct vb_cross_run {
    const char **problem; /* problem[i] of rows[i]; owned */
    int *member;          /* member[i]: the index in g of rows[i]'s group (a GPU rung's too), -1
                           * past VB_CROSS_MAX_GROUPS groups; owned */
    struct vb_cross_group g[VB_CROSS_MAX_GROUPS];
    int ng;
};
/* vb_crossover_run fills cr from rows[0..n) (kept by reference: they must outlive cr), each case
 * grouped once; 0, or -1 out of memory (cr then holds nothing). vb_crossover_run_free frees what
 * it holds. */
int vb_crossover_run(const struct vb_case_row *rows, int n, struct vb_cross_run *cr);
void vb_crossover_run_free(struct vb_cross_run *cr);

/* vb_cross_group_name writes g's name into buf: its family, "/problem" where the family has
 * several, and the other axes of a swept group ("gufunc func=powsum", "ufunc/cos"). */
char *vb_cross_group_name(const struct vb_cross_group *g, char *buf, size_t n);

/* vb_cross_group_wins writes g's crossover into buf: its text, then, where the group had a
 * graph rung, sep and "without its graph rung " and the plain crossover's text ("from model_size
 * ~ 1620 (...), without its graph rung from model_size ~ 1660 (...)"); returns buf. */
char *vb_cross_group_wins(const struct vb_cross_group *g, const char *sep, char *buf, size_t n);

/* vb_crossover_line writes the crossovers of g[0..n) into line (cap bytes), "; "-separated
 * ("calx: the GPU wins from model_size ~ 2330 (between 960 and 10000), without its graph rung
 * from ...; mesh: ..."); "" when no group has one. */
void vb_crossover_line(const struct vb_cross_group *g, int n, char *line, size_t cap);

#endif
