/*
 * env: the environment a run is measured in, host and GPU, as stored with every run
 * (DESIGN.md's list: name, UUID, CC, SMs, memory, clocks, PCIe link, driver, CUDA runtime,
 * CUPTI version). Without NVML: the PCIe link and the driver version come from sysfs, the
 * SM clock from the probe kernel.
 */
#ifndef VB_ENV_H
#define VB_ENV_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "err.h"

struct vb_host_env {
    char hostname[256], os[256], kernel[256], cpu[256];
    int ncpu;
    uint64_t mem_bytes;
};

struct vb_gpu_env {
    int id;
    char name[256], uuid[64], bus[32];
    int cc_major, cc_minor, sm_count;
    uint64_t total_mem, l2_bytes;
    int clock_khz, mem_clock_khz, mem_bus_width; /* device attributes (peak) */
    double sm_clock_mhz;                         /* measured by the probe kernel; 0 if failed */
    char pcie_speed[64];      /* sysfs current_link_speed, e.g. "32.0 GT/s PCIe" */
    int pcie_gen, pcie_width; /* 0 when sysfs has no answer */
    char driver[64];          /* /sys/module/nvidia/version */
    int cuda_driver_version, cuda_runtime_version;
    uint32_t cupti_version;
    /* NVML's update periods, measured at the run's start (ledger.h's vb_ledger_periods; NaN
     * unknown): the energy counter's (ms) and step (mJ), the power reading's (ms) */
    double energy_period_ms, energy_step_mj, power_period_ms;
    /* --energy: the board's idle draw over the probe (W) and its uncertainty; NaN unknown */
    double idle_w, idle_unc_w;
};

/* vb_env_gpu_clear empties g: zeros, the NVML periods unknown (NaN). */
static inline void vb_env_gpu_clear(struct vb_gpu_env *g)
{
    memset(g, 0, sizeof *g);
    g->energy_period_ms = g->energy_step_mj = g->power_period_ms = g->idle_w = g->idle_unc_w = NAN;
}

/* vb_env_host fills h; fields it cannot read are empty or 0. Never fails. */
void vb_env_host(struct vb_host_env *h);

/* vb_env_gpu fills g for device dev (made current). Returns 0 or -1 with err. */
int vb_env_gpu(int dev, struct vb_gpu_env *g, struct vb_err *err);

#endif
