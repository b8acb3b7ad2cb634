#define _POSIX_C_SOURCE 200809L
/* fakenvml: a libnvidia-ml.so.1 of the calls ledger.c makes, for test_ledger without a GPU: one
 * board at PCI 0000:19:00.0 drawing 300 W (its energy counter moves with the clock, in mJ), SM
 * 1980 MHz, memory 2619 MHz, 55 C, the software power cap engaged, a 700 W limit (default 700
 * W), and another process (pid 4242, 1 GiB) on it. VB_FAKE_NVML_TENANT_MS=T: that process leaves
 * T ms after the first reading; VB_FAKE_NVML_HOT_MS=T: the board is at 75 C for the first T ms;
 * VB_FAKE_NVML_NO_INSTANT: no instantaneous power field (its 1 s mean reads 250 W);
 * VB_FAKE_NVML_ENERGY_MS=P: the energy counter moves every P ms (default 10);
 * VB_FAKE_NVML_POWER_MS=P: the instantaneous reading alternates 300/301 W every P ms. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct proc {
    unsigned int pid;
    unsigned long long used_memory;
    unsigned int gpu_instance, compute_instance;
};

static int board;
static double origin = -1;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* since_ms: ms since the first reading; within: whether env's T ms have not yet passed (unset:
 * forever) */
static double since_ms(void)
{
    if (origin < 0) origin = now_ms();
    return now_ms() - origin;
}

static int within(const char *env)
{
    const char *v = getenv(env);
    double t = since_ms();
    return !v || t < atof(v);
}

int nvmlInit_v2(void)
{
    return 0;
}

const char *nvmlErrorString(int rc)
{
    return rc == 6 ? "Not Found" : "Unknown Error";
}

int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, void **dev)
{
    if (strcmp(bus, "0000:19:00.0")) return 6; /* NVML_ERROR_NOT_FOUND */
    *dev = &board;
    return 0;
}

/* period_ms: env's update period (ms), dflt unset */
static double period_ms(const char *env, double dflt)
{
    const char *v = getenv(env);
    return v && atof(v) > 0 ? atof(v) : dflt;
}

int nvmlDeviceGetTotalEnergyConsumption(void *dev, unsigned long long *mj)
{
    double p = period_ms("VB_FAKE_NVML_ENERGY_MS", 10);
    (void)dev;
    *mj = (unsigned long long)(now_ms() / p) * (unsigned long long)(300.0 * p); /* 300 W */
    return 0;
}

/* the 1 s mean lags the board's 300 W (the instantaneous field has them, unless
 * VB_FAKE_NVML_NO_INSTANT is set: a board without the field) */
int nvmlDeviceGetPowerUsage(void *dev, unsigned int *mw)
{
    (void)dev;
    *mw = 250000;
    return 0;
}

struct field { /* nvmlFieldValue_t */
    unsigned int id, scope;
    long long timestamp, latency_us;
    int type, ret;
    union {
        unsigned int ui;
        unsigned long long ull;
    } v;
};

int nvmlDeviceGetFieldValues(void *dev, int n, struct field *f)
{
    int i;
    (void)dev;
    for (i = 0; i < n; i++) {
        f[i].ret = f[i].id == 186 && !getenv("VB_FAKE_NVML_NO_INSTANT") ? 0 : 3; /* NOT_SUPPORTED */
        f[i].type = 1;
        /* 300 W, with VB_FAKE_NVML_POWER_MS=P moving by 1 W every P ms (a board whose
         * reading updates that often) */
        f[i].v.ui =
            getenv("VB_FAKE_NVML_POWER_MS")
                ? 300000 + 1000 * (unsigned)((long long)(now_ms() /
                                                         period_ms("VB_FAKE_NVML_POWER_MS", 1)) %
                                             2)
                : 300000;
    }
    return 0;
}

int nvmlDeviceGetTemperature(void *dev, int sensor, unsigned int *c)
{
    (void)dev;
    (void)sensor;
    *c = getenv("VB_FAKE_NVML_HOT_MS") && within("VB_FAKE_NVML_HOT_MS") ? 75 : 55;
    return 0;
}

int nvmlDeviceGetClockInfo(void *dev, int type, unsigned int *mhz)
{
    (void)dev;
    *mhz = type == 1 ? 1980 : 2619;
    return 0;
}

int nvmlDeviceGetCurrentClocksEventReasons(void *dev, unsigned long long *r)
{
    (void)dev;
    *r = 0x4; /* sw power cap */
    return 0;
}

int nvmlDeviceGetEnforcedPowerLimit(void *dev, unsigned int *mw)
{
    (void)dev;
    *mw = 700000;
    return 0;
}

int nvmlDeviceGetPowerManagementDefaultLimit(void *dev, unsigned int *mw)
{
    (void)dev;
    *mw = 700000;
    return 0;
}

int nvmlDeviceGetComputeRunningProcesses_v3(void *dev, unsigned int *n, struct proc *p)
{
    (void)dev;
    if (!within("VB_FAKE_NVML_TENANT_MS")) {
        *n = 0;
        return 0;
    }
    if (*n < 1) {
        *n = 1;
        return 7; /* NVML_ERROR_INSUFFICIENT_SIZE */
    }
    *n = 1;
    memset(p, 0, sizeof *p);
    p->pid = 4242;
    p->used_memory = 1ull << 30;
    return 0;
}
