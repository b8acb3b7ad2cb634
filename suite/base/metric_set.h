/*
 * metric_set: the metrics varbench knows by name. The default set of the metrics pass (what
 * explains a memory-bound kernel: store and load efficiency, sectors and requests, DRAM
 * bytes, duration, occupancy, FP64/FP32 pipe use), the nvprof names users know mapped to
 * their Hopper (Nsight Compute) names, and the parser of --metrics lists. Pure data and
 * text: no CUPTI here, so `varbench list --metrics` and the tests work without a GPU.
 */
#ifndef VB_METRIC_SET_H
#define VB_METRIC_SET_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"

#define VB_MAX_METRICS 48
#define VB_METRIC_NAME 128

/* The Hopper names of the two store-efficiency inputs, used to aggregate per case. */
#define VB_METRIC_GST_EFF    "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"
#define VB_METRIC_ST_SECTORS "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"

struct vb_metric_def {
    const char *name;   /* the Hopper / Nsight Compute name */
    const char *nvprof; /* the nvprof name mapped to it, or NULL */
    const char *doc;
    int in_default;    /* part of the default set of the metrics pass */
    int is_pct;        /* a percentage (compared with ncu in points, not relatively) */
    const char *plain; /* what a regression's explanation calls it ("achieved occupancy") */
    /* how the kernel's time follows it (judge/moved.h): +1 in proportion (sectors, bytes,
     * conflicts), -1 in inverse proportion (an efficiency, a hit rate, occupancy), 2 a stall
     * reason's share of the warps' cycles, s (%): as 1 / (100 - s) (the other cycles the same:
     * 5.5% -> 55.4% predicts x2.1, 0% -> 0.04% x1.0004), 0 never a cause (the duration) */
    int slower;
};

/* The known metrics, default set first; vb_metric_ndefs entries. */
extern const struct vb_metric_def vb_metric_defs[];
extern const int vb_metric_ndefs;

/* A list of metric names (Hopper names, resolved), in the order given, without repeats. */
struct vb_metric_set {
    char names[VB_MAX_METRICS][VB_METRIC_NAME];
    int n;
};

/* vb_metric_set_default fills s with the default set. */
void vb_metric_set_default(struct vb_metric_set *s);

/* vb_metric_set_parse resolves a comma-separated list into s: "default" adds the default set,
 * "all" every known metric (nvprof's --metrics all: what `varbench list --metrics` shows),
 * an nvprof name ("gst_efficiency") adds its Hopper name, and any other token that looks like
 * a Nsight Compute metric ("unit__counter.rollup") is taken as is (the profiler checks it
 * against the GPU later). Returns 0, or -1 with err (VB_E_USAGE) naming the bad token. */
int vb_metric_set_parse(const char *list, struct vb_metric_set *s, struct vb_err *err);

/* vb_metric_list_print writes what `varbench list --metrics` shows: every known metric with
 * its nvprof name, whether it is in the default set, and what it means; with names_only, the
 * default set's names one per line (for scripts such as ci/metrics-vs-ncu). */
void vb_metric_list_print(FILE *out, int names_only);

/* vb_metric_set_split divides all into the counters of the memory system behind L1 (dram__*,
 * lts__*: what they count depends on what L2 holds when a kernel starts, so the metrics pass
 * collects them with the cache flushed before every pass) and the rest, keeping the order. */
void vb_metric_set_split(const struct vb_metric_set *all, struct vb_metric_set *cache,
                         struct vb_metric_set *rest);

/* vb_metric_def_find returns the definition of a Hopper name, or NULL. */
const struct vb_metric_def *vb_metric_def_find(const char *name);

#endif
