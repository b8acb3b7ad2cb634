/* env: host and GPU environment (see env.h). */
#include "env.h"

#include <ctype.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "activity.h"
#include "probe.h"

/* read_line copies the first line of file path (trimmed) into buf; 0 or -1. */
static int read_line(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    size_t len;
    if (!f) return -1;
    if (!fgets(buf, (int)n, f)) {
        fclose(f);
        return -1;
    }
    fclose(f);
    len = strlen(buf);
    while (len && isspace((unsigned char)buf[len - 1]))
        buf[--len] = '\0';
    return 0;
}

/* find_field copies the value of "key<sep>value" from file path (first match). */
static int find_field(const char *path, const char *key, char sep, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    char line[512];
    size_t klen = strlen(key);
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        char *v, *e;
        if (strncmp(line, key, klen)) continue;
        v = strchr(line, sep);
        if (!v) continue;
        for (v++; *v == ' ' || *v == '\t' || *v == '"'; v++) {
        }
        e = v + strlen(v);
        while (e > v && (isspace((unsigned char)e[-1]) || e[-1] == '"'))
            *--e = '\0';
        snprintf(buf, n, "%s", v);
        fclose(f);
        return 0;
    }
    fclose(f);
    return -1;
}

void vb_env_host(struct vb_host_env *h)
{
    struct utsname u;
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    memset(h, 0, sizeof *h);
    gethostname(h->hostname, sizeof h->hostname - 1);
    if (uname(&u) == 0)
        snprintf(h->kernel, sizeof h->kernel, "%s %s %s", u.sysname, u.release, u.machine);
    find_field("/etc/os-release", "PRETTY_NAME", '=', h->os, sizeof h->os);
    find_field("/proc/cpuinfo", "model name", ':', h->cpu, sizeof h->cpu);
    h->ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
    h->mem_bytes = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 0;
}

/* measure_clock runs the probe twice (the first run lifts an idle clock) and returns MHz. */
static double measure_clock(struct vb_err *err)
{
    uint64_t *d = NULL, h[2] = {0, 0};
    double mhz = 0;
    int i;
    if (VB_CUDA(err, cudaMalloc((void **)&d, sizeof h))) return 0;
    for (i = 0; i < 2; i++) {
        if (VB_CUDA(err, vb_launch_probe_clock(d, 20000000u, 0)) ||
            VB_CUDA(err, cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost)))
            break;
        if (h[0]) mhz = (double)h[1] / (double)h[0] * 1e3;
    }
    cudaFree(d);
    return mhz;
}

int vb_env_gpu(int dev, struct vb_gpu_env *g, struct vb_err *err)
{
    struct cudaDeviceProp p;
    char path[256], lowbus[32];
    int i;
    vb_env_gpu_clear(g); /* the NVML periods: run_gpus probes them */
    g->id = dev;
    if (VB_CUDA(err, cudaSetDevice(dev)) || VB_CUDA(err, cudaGetDeviceProperties(&p, dev)))
        return -1;
    snprintf(g->name, sizeof g->name, "%s", p.name);
    snprintf(g->uuid, sizeof g->uuid,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             (unsigned char)p.uuid.bytes[0], (unsigned char)p.uuid.bytes[1],
             (unsigned char)p.uuid.bytes[2], (unsigned char)p.uuid.bytes[3],
             (unsigned char)p.uuid.bytes[4], (unsigned char)p.uuid.bytes[5],
             (unsigned char)p.uuid.bytes[6], (unsigned char)p.uuid.bytes[7],
             (unsigned char)p.uuid.bytes[8], (unsigned char)p.uuid.bytes[9],
             (unsigned char)p.uuid.bytes[10], (unsigned char)p.uuid.bytes[11],
             (unsigned char)p.uuid.bytes[12], (unsigned char)p.uuid.bytes[13],
             (unsigned char)p.uuid.bytes[14], (unsigned char)p.uuid.bytes[15]);
    g->cc_major = p.major;
    g->cc_minor = p.minor;
    g->sm_count = p.multiProcessorCount;
    g->total_mem = p.totalGlobalMem;
    g->l2_bytes = (uint64_t)p.l2CacheSize;
    g->mem_bus_width = p.memoryBusWidth;
    if (VB_CUDA(err, cudaDeviceGetAttribute(&g->clock_khz, cudaDevAttrClockRate, dev)) ||
        VB_CUDA(err, cudaDeviceGetAttribute(&g->mem_clock_khz, cudaDevAttrMemoryClockRate, dev)) ||
        VB_CUDA(err, cudaDeviceGetPCIBusId(g->bus, sizeof g->bus, dev)) ||
        VB_CUDA(err, cudaDriverGetVersion(&g->cuda_driver_version)) ||
        VB_CUDA(err, cudaRuntimeGetVersion(&g->cuda_runtime_version)))
        return -1;
    for (i = 0; g->bus[i] && i < (int)sizeof lowbus - 1; i++)
        lowbus[i] = (char)tolower((unsigned char)g->bus[i]);
    lowbus[i] = '\0';
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/current_link_speed", lowbus);
    if (read_line(path, g->pcie_speed, sizeof g->pcie_speed) == 0) {
        double gts = atof(g->pcie_speed);
        g->pcie_gen = gts >= 60   ? 6
                      : gts >= 30 ? 5
                      : gts >= 15 ? 4
                      : gts >= 7  ? 3
                      : gts >= 4  ? 2
                      : gts > 0   ? 1
                                  : 0;
    }
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/current_link_width", lowbus);
    {
        char w[32];
        if (read_line(path, w, sizeof w) == 0) g->pcie_width = atoi(w);
    }
    read_line("/sys/module/nvidia/version", g->driver, sizeof g->driver);
    g->cupti_version = vb_activity_version();
    {
        struct vb_err ignored; /* a failed probe leaves the clock unknown (0), not the run */
        g->sm_clock_mhz = measure_clock(&ignored);
    }
    return 0;
}
