/* ledger: NVML at run time, a sampler thread over a case's timed samples (see ledger.h). */
#include "ledger.h"

#include <dlfcn.h>
#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "stats.h"

#define PROBE_MAX 4096 /* changes of a reading kept by vb_ledger_periods */

/* NVML's types and calls, as its header declares them (nvml.h, r580) */
typedef int nvml_ret;              /* nvmlReturn_t: 0 success, 7 insufficient size */
typedef struct nvml_dev *nvml_dev; /* nvmlDevice_t */
struct nvml_proc {                 /* nvmlProcessInfo_t (v2 and v3 layout) */
    unsigned int pid;
    unsigned long long used_memory;
    unsigned int gpu_instance, compute_instance;
};

/* nvmlFieldValue_t, for the instantaneous power field (NVML_FI_DEV_POWER_INSTANT, mW) */
struct nvml_field {
    unsigned int id, scope;
    long long timestamp, latency_us;
    int type; /* nvmlValueType_t: 0 double, 1 unsigned int, 2 unsigned long, 3 unsigned long
                 long, 4 signed long long, 5 signed int */
    nvml_ret ret;
    union {
        double d;
        unsigned int ui;
        unsigned long ul;
        unsigned long long ull;
        long long sll;
        int si;
    } v;
};
#define FIELD_POWER_INSTANT 186

static struct {
    pthread_once_t once;
    int ok;
    char why[128];
    nvml_ret (*init)(void);
    const char *(*error)(nvml_ret);
    nvml_ret (*by_bus)(const char *, nvml_dev *);
    nvml_ret (*energy)(nvml_dev, unsigned long long *);
    nvml_ret (*power)(nvml_dev, unsigned int *);
    nvml_ret (*fields)(nvml_dev, int, struct nvml_field *); /* NULL: not in this NVML */
    int no_instant; /* the board refused the instantaneous field once: the 1 s mean from then */
    nvml_ret (*temp)(nvml_dev, int, unsigned int *);
    nvml_ret (*clock)(nvml_dev, int, unsigned int *);
    nvml_ret (*reasons)(nvml_dev, unsigned long long *);
    nvml_ret (*limit)(nvml_dev, unsigned int *);
    nvml_ret (*default_limit)(nvml_dev, unsigned int *);
    nvml_ret (*procs)(nvml_dev, unsigned int *, struct nvml_proc *);
} nv = {PTHREAD_ONCE_INIT};

enum { CLOCK_SM = 1, CLOCK_MEM = 2, TEMP_GPU = 0, MAX_READINGS = 1 << 16 };

struct reading {
    unsigned power_mw, sm_mhz, mem_mhz, temp_c;
    unsigned long long reasons;
};

/* the one case's sampler */
static struct {
    nvml_dev dev;
    pthread_t thread;
    int running, stop;
    pthread_mutex_t mu;
    struct reading *r;
    int n;
    double t0;
    unsigned long long e0;
    int e0_ok;
    char others[160];
} smp = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void *fn(void *lib, const char *a, const char *b)
{
    void *f = dlsym(lib, a);
    return f || !b ? f : dlsym(lib, b);
}

static void load(void)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    nvml_ret rc;
    if (!lib) {
        snprintf(nv.why, sizeof nv.why, "no NVML: libnvidia-ml.so.1 cannot be loaded (%s)",
                 dlerror());
        return;
    }
    *(void **)&nv.init = fn(lib, "nvmlInit_v2", "nvmlInit");
    *(void **)&nv.error = fn(lib, "nvmlErrorString", NULL);
    *(void **)&nv.by_bus =
        fn(lib, "nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId");
    *(void **)&nv.energy = fn(lib, "nvmlDeviceGetTotalEnergyConsumption", NULL);
    *(void **)&nv.power = fn(lib, "nvmlDeviceGetPowerUsage", NULL);
    *(void **)&nv.fields = fn(lib, "nvmlDeviceGetFieldValues", NULL);
    *(void **)&nv.temp = fn(lib, "nvmlDeviceGetTemperature", NULL);
    *(void **)&nv.clock = fn(lib, "nvmlDeviceGetClockInfo", NULL);
    *(void **)&nv.reasons = fn(lib, "nvmlDeviceGetCurrentClocksEventReasons",
                               "nvmlDeviceGetCurrentClocksThrottleReasons");
    *(void **)&nv.limit = fn(lib, "nvmlDeviceGetEnforcedPowerLimit", NULL);
    *(void **)&nv.default_limit = fn(lib, "nvmlDeviceGetPowerManagementDefaultLimit", NULL);
    *(void **)&nv.procs = fn(lib, "nvmlDeviceGetComputeRunningProcesses_v3",
                             "nvmlDeviceGetComputeRunningProcesses_v2");
    if (!nv.init || !nv.by_bus || !nv.energy || !nv.power) {
        snprintf(nv.why, sizeof nv.why,
                 "no NVML: libnvidia-ml.so.1 lacks nvmlInit_v2, nvmlDeviceGetHandleByPciBusId_v2, "
                 "nvmlDeviceGetTotalEnergyConsumption or nvmlDeviceGetPowerUsage");
        return;
    }
    if ((rc = nv.init()) != 0) {
        snprintf(nv.why, sizeof nv.why, "no NVML: nvmlInit_v2: %s (%d)",
                 nv.error ? nv.error(rc) : "error", rc);
        return;
    }
    nv.ok = 1;
}

int vb_ledger_open(struct vb_err *why)
{
    pthread_once(&nv.once, load);
    if (nv.ok) return 0;
    vb_err_set(why, VB_E_SYS, "%s", nv.why);
    return vb_err_hint(why, "energy, power and clocks are not recorded; the run goes on");
}

/* self: whether pid is this process, in any PID namespace it is in (/proc/self/status's NSpid:
 * in a container NVML reports the host's pid) */
static int self(unsigned pid)
{
    static unsigned ids[8];
    static int n = -1;
    char line[256];
    int i;
    if (n < 0) {
        FILE *f = fopen("/proc/self/status", "r");
        n = 0;
        ids[n++] = (unsigned)getpid();
        while (f && fgets(line, sizeof line, f))
            if (!strncmp(line, "NSpid:", 6)) {
                char *p = line + 6, *end;
                unsigned long v;
                while (n < 8 && (v = strtoul(p, &end, 10)) && end != p) {
                    ids[n++] = (unsigned)v;
                    p = end;
                }
            }
        if (f) fclose(f);
    }
    for (i = 0; i < n; i++)
        if (ids[i] == pid) return 1;
    return 0;
}

/* others lists the processes on dev other than this one into buf (appended once a pid) */
static void others(nvml_dev dev, char *buf, size_t n)
{
    struct nvml_proc p[64];
    unsigned int count = 64, i;
    size_t used = strlen(buf);
    nvml_ret rc;
    if (!nv.procs) return;
    rc = nv.procs(dev, &count, p);
    if (rc == 7) { /* more than 64: say so */
        if (!strstr(buf, "more than 64 processes"))
            snprintf(buf + used, used < n ? n - used : 0, "%smore than 64 processes",
                     used ? ", " : "");
        return;
    }
    for (i = 0; rc == 0 && i < count && i < 64; i++) {
        char pid[32];
        if (self(p[i].pid)) continue;
        snprintf(pid, sizeof pid, "pid %u ", p[i].pid);
        if (strstr(buf, pid)) continue;
        if (p[i].used_memory == ~0ull) /* NVML_VALUE_NOT_AVAILABLE */
            used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%spid %u",
                                     used ? ", " : "", p[i].pid);
        else
            used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%s%s(%llu MiB)",
                                     used ? ", " : "", pid, p[i].used_memory >> 20);
        if (used >= n) return;
    }
}

/* board finds the board at PCI bus id bus into *dev; 0, or NVML's error with why (n bytes)
 * saying so */
static nvml_ret board(const char *bus, nvml_dev *dev, char *why, size_t n)
{
    nvml_ret rc = nv.by_bus(bus, dev);
    if (rc)
        snprintf(why, n, "NVML has no board at PCI %s: %s (%d)", bus,
                 nv.error ? nv.error(rc) : "error", rc);
    return rc;
}

int vb_ledger_quiet(const char *bus, double max_temp_c, double timeout_s, char *note, size_t n)
{
    struct timespec ts = {0, 50 * 1000000L};
    double t0 = vb_mono_ns(), waited;
    char first[160] = "", now[160] = "";
    unsigned t_first = 0, t = 0;
    int polls;
    size_t u;
    nvml_dev dev;
    struct vb_err why;
    note[0] = '\0';
    if (vb_ledger_open(&why)) {
        snprintf(note, n, "%s", nv.why);
        return -1;
    }
    if (board(bus, &dev, note, n)) return -1;
    for (polls = 0;; polls++) {
        now[0] = '\0';
        others(dev, now, sizeof now);
        if (!nv.temp || nv.temp(dev, TEMP_GPU, &t) != 0) t = 0;
        if (!polls) {
            snprintf(first, sizeof first, "%s", now);
            t_first = t;
        }
        if (!now[0] && t <= max_temp_c) break;
        if ((waited = (vb_mono_ns() - t0) * 1e-9) >= timeout_s) {
            u = (size_t)snprintf(note, n, "gave up after %.1f s:", waited);
            if (now[0] && u < n) u += (size_t)snprintf(note + u, n - u, " %s still on it", now);
            if (t > max_temp_c && u < n) snprintf(note + u, n - u, "%s %u C", now[0] ? "," : "", t);
            return 1;
        }
        nanosleep(&ts, NULL);
    }
    if (!polls) return 0; /* quiet at once */
    u = (size_t)snprintf(note, n, "waited %.2f s:", (vb_mono_ns() - t0) * 1e-9);
    if (first[0] && u < n) u += (size_t)snprintf(note + u, n - u, " %s left", first);
    if (t_first > max_temp_c && u < n)
        snprintf(note + u, n - u, "%s %u -> %u C", first[0] ? "," : "", t_first, t);
    return 0;
}

/* power_now reads the board's power (mW): NVML's instantaneous field where the board has it,
 * else nvmlDeviceGetPowerUsage, which on Ampere and later is the mean of the last second (its
 * readings lagged a 0.5 s case's energy counter by up to 17% on an H200). 0 or NVML's error. */
static nvml_ret power_now(nvml_dev dev, unsigned *mw)
{
    if (nv.fields && !nv.no_instant) {
        struct nvml_field f;
        memset(&f, 0, sizeof f);
        f.id = FIELD_POWER_INSTANT;
        if (nv.fields(dev, 1, &f) == 0 && f.ret == 0 && f.type >= 0 && f.type <= 5) {
            *mw = f.type == 0   ? (unsigned)f.v.d
                  : f.type == 1 ? f.v.ui
                  : f.type == 2 ? (unsigned)f.v.ul
                  : f.type == 3 ? (unsigned)f.v.ull
                  : f.type == 4 ? (unsigned)f.v.sll
                                : (unsigned)f.v.si;
            return 0;
        }
        nv.no_instant = 1; /* a board without the field: its 1 s mean from now on */
    }
    return nv.power(dev, mw);
}

/* read_board takes one reading of the board into the sampler's readings */
static void read_board(void)
{
    struct reading r = {0};
    if (power_now(smp.dev, &r.power_mw) != 0) return;
    if (nv.clock) {
        nv.clock(smp.dev, CLOCK_SM, &r.sm_mhz);
        nv.clock(smp.dev, CLOCK_MEM, &r.mem_mhz);
    }
    if (nv.temp) nv.temp(smp.dev, TEMP_GPU, &r.temp_c);
    if (nv.reasons) nv.reasons(smp.dev, &r.reasons);
    pthread_mutex_lock(&smp.mu);
    if (smp.n < MAX_READINGS) smp.r[smp.n++] = r;
    pthread_mutex_unlock(&smp.mu);
}

/* sampler: a reading every LEDGER_PERIOD_MS until stopped (the window's first is start's own) */
static void *sampler(void *arg)
{
    struct timespec ts = {0, LEDGER_PERIOD_MS * 1000000L};
    (void)arg;
    for (;;) {
        nanosleep(&ts, NULL);
        pthread_mutex_lock(&smp.mu);
        if (smp.stop) {
            pthread_mutex_unlock(&smp.mu);
            return NULL;
        }
        pthread_mutex_unlock(&smp.mu);
        read_board();
    }
}

/* the energy counter's period of each board the last probe measured (vb_ledger_periods) */
static struct {
    char bus[32];
    double energy_ms, idle_w, idle_unc_w; /* idle_w: NaN unless the probe was idle */
} probed[VB_LEDGER_MAX_BOARDS];
static int nprobed;
static pthread_mutex_t probed_mu = PTHREAD_MUTEX_INITIALIZER;

/* probed_board puts what the last probe measured of the board at bus into l (NaN: not probed) */
static void probed_board(const char *bus, struct vb_ledger *l)
{
    int i;
    pthread_mutex_lock(&probed_mu);
    for (i = 0; i < nprobed; i++)
        if (!strcasecmp(probed[i].bus, bus)) {
            l->period_ms = probed[i].energy_ms;
            l->idle_w = probed[i].idle_w;
            l->idle_unc_w = probed[i].idle_unc_w;
        }
    pthread_mutex_unlock(&probed_mu);
}

static void clear(struct vb_ledger *l)
{
    memset(l, 0, sizeof *l);
    l->period_ms = l->energy_unc_j = l->power_unc_w = NAN;
    l->idle_w = l->idle_unc_w = l->work_j = l->work_unc_j = NAN;
    l->window_s = l->energy_j = l->power_w = l->power_read_w = l->temp_max_c = NAN;
    l->sm_mhz_min = l->sm_mhz_median = l->mem_mhz_median = l->limit_w = l->default_limit_w = NAN;
}

int vb_ledger_start(const char *bus, struct vb_ledger *l, struct vb_err *err)
{
    clear(l);
    if (vb_ledger_open(err)) {
        snprintf(l->why, sizeof l->why, "%s", nv.why);
        return -1;
    }
    if (smp.running) vb_ledger_stop(&(struct vb_ledger){0});
    if (board(bus, &smp.dev, l->why, sizeof l->why)) return vb_err_set(err, VB_E_SYS, "%s", l->why);
    if (!smp.r && !(smp.r = malloc(MAX_READINGS * sizeof *smp.r))) {
        snprintf(l->why, sizeof l->why, "out of memory for the ledger's readings");
        return vb_err_set(err, VB_E_SYS, "%s", l->why);
    }
    probed_board(bus, l);
    smp.n = 0;
    smp.stop = 0;
    smp.others[0] = '\0';
    others(smp.dev, smp.others, sizeof smp.others);
    read_board(); /* the window's first reading, whenever the sampler gets a core */
    smp.e0_ok = nv.energy(smp.dev, &smp.e0) == 0;
    smp.t0 = vb_mono_ns();
    if (pthread_create(&smp.thread, NULL, sampler, NULL)) {
        snprintf(l->why, sizeof l->why, "the ledger's sampler thread could not start");
        return vb_err_set(err, VB_E_SYS, "%s", l->why);
    }
    smp.running = 1;
    return 0;
}

/* median of the readings' field at offset off (unsigned), their minimum into *min */
static double median_of(size_t off, double *min)
{
    double *x = malloc((size_t)(smp.n ? smp.n : 1) * sizeof *x), m;
    int i, k = 0;
    *min = NAN;
    if (!x) return NAN;
    for (i = 0; i < smp.n; i++) {
        unsigned v = *(const unsigned *)((const char *)&smp.r[i] + off);
        if (!v) continue;
        x[k++] = v;
        if (!(*min <= v)) *min = v;
    }
    m = k ? vb_stats_median(x, (size_t)k) : NAN;
    free(x);
    return m;
}

void vb_ledger_stop(struct vb_ledger *l)
{
    unsigned long long e1 = 0;
    unsigned int w = 0;
    double t1, sum = 0, ignored;
    int i, e1_ok;
    if (!smp.running) return;
    e1_ok = nv.energy(smp.dev, &e1) == 0;
    t1 = vb_mono_ns();
    pthread_mutex_lock(&smp.mu);
    smp.stop = 1;
    pthread_mutex_unlock(&smp.mu);
    pthread_join(smp.thread, NULL);
    smp.running = 0;
    others(smp.dev, smp.others, sizeof smp.others);
    l->window_s = (t1 - smp.t0) * 1e-9;
    l->readings = smp.n;
    for (i = 0; i < smp.n; i++) {
        sum += smp.r[i].power_mw * 1e-3;
        l->reasons |= smp.r[i].reasons & ~VB_REASON_IDLE;
        if (smp.r[i].temp_c && !(l->temp_max_c >= smp.r[i].temp_c)) /* 0: not read */
            l->temp_max_c = smp.r[i].temp_c;
    }
    l->power_read_w = smp.n ? sum / smp.n : NAN;
    l->sm_mhz_median = median_of(offsetof(struct reading, sm_mhz), &l->sm_mhz_min);
    l->mem_mhz_median = median_of(offsetof(struct reading, mem_mhz), &ignored);
    if (nv.limit && nv.limit(smp.dev, &w) == 0) l->limit_w = w * 1e-3;
    if (nv.default_limit && nv.default_limit(smp.dev, &w) == 0) l->default_limit_w = w * 1e-3;
    snprintf(l->others, sizeof l->others, "%s", smp.others);
    if (e1_ok && smp.e0_ok && e1 < smp.e0) {
        snprintf(l->why, sizeof l->why, "the energy counter went back (the driver reloaded?)");
    } else if (!smp.e0_ok || !e1_ok) {
        snprintf(l->why, sizeof l->why, "the board has no energy counter (NVML: not supported)");
    } else if (l->period_ms > 0 && l->window_s * 1e3 < LEDGER_MIN_UPDATES * l->period_ms) {
        double k = floor(l->window_s * 1e3 / l->period_ms); /* the updates it spans */
        snprintf(l->why, sizeof l->why,
                 "window %.2f s: %.0f update%s of the energy counter (every %.0f ms), under the "
                 "%d that 10%% needs",
                 l->window_s, k, k == 1 ? "" : "s", l->period_ms, LEDGER_MIN_UPDATES);
    } else if (!(l->period_ms > 0) && l->window_s < LEDGER_MIN_WINDOW_S) {
        snprintf(l->why, sizeof l->why,
                 "window %.0f ms: under %.0f ms (the counter's period not measured)",
                 l->window_s * 1e3, LEDGER_MIN_WINDOW_S * 1e3);
    } else {
        l->energy_j = (double)(e1 - smp.e0) * 1e-3;
        l->power_w = l->energy_j / l->window_s;
        if (l->period_ms > 0) {
            double u = vb_ledger_energy_unc(l->period_ms, l->window_s);
            l->energy_unc_j = l->energy_j * u;
            l->power_unc_w = l->power_w * u;
        }
        if (l->idle_w > 0) { /* the work's own energy: the window's less its idle draw */
            l->work_j = l->energy_j - l->idle_w * l->window_s;
            l->work_unc_j = hypot(l->energy_unc_j, l->idle_unc_w * l->window_s);
        }
        l->measured = 1;
    }
}

char *vb_ledger_reasons(uint64_t reasons, char *buf, size_t n)
{
    static const struct {
        uint64_t bit;
        const char *name;
    } names[] = {{VB_REASON_APP_CLOCKS, "applications clocks"},
                 {VB_REASON_SW_POWER_CAP, "sw power cap"},
                 {VB_REASON_HW_SLOWDOWN, "hw slowdown"},
                 {VB_REASON_SYNC_BOOST, "sync boost"},
                 {VB_REASON_SW_THERMAL, "sw thermal"},
                 {VB_REASON_HW_THERMAL, "hw thermal"},
                 {VB_REASON_HW_POWER_BRAKE, "hw power brake"},
                 {VB_REASON_DISPLAY, "display clocks"},
                 {VB_REASON_IDLE, "idle"}};
    size_t i, used = 0;
    buf[0] = '\0';
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if ((reasons & names[i].bit) && used < n)
            used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ", " : "", names[i].name);
    if (!buf[0]) snprintf(buf, n, "none");
    return buf;
}

/* move_at notes a reading v taken at t_ns: when it differs from the last one, the interval since
 * the last change (after the first) and the size of the move, into iv/st[0..*n) */
struct series {
    double last_t, iv[PROBE_MAX], st[PROBE_MAX];
    double last_v, first_t, first_v; /* its first move's */
    int seen, changes, n;
};

static void move_at(struct series *x, double t_ns, double v)
{
    if (x->seen && v != x->last_v) {
        if (x->changes && x->n < PROBE_MAX) {
            x->iv[x->n] = (t_ns - x->last_t) * 1e-6;
            x->st[x->n++] = fabs(v - x->last_v);
        }
        if (!x->changes++) {
            x->first_t = t_ns;
            x->first_v = v;
        }
        x->last_t = t_ns;
    }
    x->seen = 1;
    x->last_v = v;
}

int vb_ledger_periods(const char *const *bus, int n, double seconds, int idle,
                      struct vb_nvml_periods *p, struct vb_err *err)
{
    struct timespec nap = {0, 250000};
    struct series *x; /* board i's energy 2i, its power 2i + 1 */
    nvml_dev dev[VB_LEDGER_MAX_BOARDS];
    char why[160];
    double t0, t;
    int i;
    for (i = 0; i < n; i++) {
        p[i].energy_ms = p[i].energy_step_mj = p[i].power_ms = p[i].mean_w = p[i].mean_unc_w = NAN;
        p[i].energy_moves = p[i].power_moves = 0;
        p[i].probe_s = 0;
    }
    if (n < 1 || n > VB_LEDGER_MAX_BOARDS)
        return vb_err_set(err, VB_E_USAGE, "%d boards to probe (1 to %d)", n, VB_LEDGER_MAX_BOARDS);
    if (vb_ledger_open(err)) return -1;
    for (i = 0; i < n; i++)
        if (board(bus[i], &dev[i], why, sizeof why)) return vb_err_set(err, VB_E_SYS, "%s", why);
    if (!(x = calloc((size_t)(2 * n), sizeof *x)))
        return vb_err_set(err, VB_E_SYS, "out of memory for the NVML probe");
    t0 = vb_mono_ns();
    do {
        for (i = 0; i < n; i++) {
            unsigned long long mj;
            unsigned mw;
            t = vb_mono_ns();
            if (nv.energy(dev[i], &mj) == 0) move_at(&x[2 * i], t, (double)mj);
            if (power_now(dev[i], &mw) == 0) move_at(&x[2 * i + 1], t, (double)mw);
        }
        nanosleep(&nap, NULL);
    } while ((t - t0) * 1e-9 < seconds);
    for (i = 0; i < n; i++) {
        const struct series *e = &x[2 * i], *w = &x[2 * i + 1];
        p[i].probe_s = (t - t0) * 1e-9;
        p[i].energy_moves = e->changes;
        p[i].power_moves = w->changes;
        if (e->n >= 2) {
            p[i].energy_ms = vb_stats_median(e->iv, (size_t)e->n);
            p[i].energy_step_mj = vb_stats_median(e->st, (size_t)e->n);
            /* mJ over ns: W; each end read up to a period late */
            p[i].mean_w = (e->last_v - e->first_v) / (e->last_t - e->first_t) * 1e6;
            p[i].mean_unc_w =
                p[i].mean_w * vb_ledger_energy_unc(p[i].energy_ms, (e->last_t - e->first_t) * 1e-9);
        }
        if (w->n >= 2) p[i].power_ms = vb_stats_median(w->iv, (size_t)w->n);
    }
    free(x);
    pthread_mutex_lock(&probed_mu);
    for (nprobed = 0; nprobed < n; nprobed++) {
        snprintf(probed[nprobed].bus, sizeof probed[nprobed].bus, "%s", bus[nprobed]);
        probed[nprobed].energy_ms = p[nprobed].energy_ms;
        probed[nprobed].idle_w = idle ? p[nprobed].mean_w : NAN;
        probed[nprobed].idle_unc_w = idle ? p[nprobed].mean_unc_w : NAN;
    }
    pthread_mutex_unlock(&probed_mu);
    return 0;
}

double vb_ledger_energy_unc(double period_ms, double window_s)
{
    return window_s > 0 && period_ms > 0 ? period_ms * 1e-3 / window_s : NAN;
}
