/*
 * ledger: what the board did while a case's timed samples ran (issue 44's environment ledger),
 * from NVIDIA's management library (NVML) loaded at run time (libnvidia-ml.so.1, with prototypes
 * of our own: no NVML header is installed here). Over the window from the first timed sample to
 * the last: the energy the board's counter moved (millijoules; it moves about every 10 ms, so a
 * window under LEDGER_MIN_WINDOW_S is not measured and says so), the mean power it implies and
 * the mean of the power readings, the hottest temperature, the SM and memory clocks (min,
 * median), every clock-event reason seen (power cap, thermal, ...), the enforced power limit
 * and the board's default one, and the other processes on the GPU. A sampler thread reads the
 * board every LEDGER_PERIOD_MS; the energy counter is read at the window's ends. Without NVML
 * (no driver, a container without it) vb_ledger_open says why once and every ledger is empty
 * with that reason; nothing fails. vb_ledger_quiet is --quiet-gpu's wait for a quiet board before
 * the window. Workload: one thread waking every 10 ms during timed samples.
 */
#ifndef VB_LEDGER_H
#define VB_LEDGER_H

#include <stdint.h>

#include "err.h"

#define LEDGER_PERIOD_MS    10
#define LEDGER_MIN_WINDOW_S 0.1 /* the board's period unprobed: ten steps of a 10 ms counter */
#define LEDGER_MIN_UPDATES  10  /* a probed counter: updates a window needs (10%) */

/* NVML's clock-event reasons (nvmlClocksEventReason*), the bits of vb_ledger.reasons */
#define VB_REASON_IDLE           0x1ull
#define VB_REASON_APP_CLOCKS     0x2ull
#define VB_REASON_SW_POWER_CAP   0x4ull
#define VB_REASON_HW_SLOWDOWN    0x8ull
#define VB_REASON_SYNC_BOOST     0x10ull
#define VB_REASON_SW_THERMAL     0x20ull
#define VB_REASON_HW_THERMAL     0x40ull
#define VB_REASON_HW_POWER_BRAKE 0x80ull
#define VB_REASON_DISPLAY        0x100ull

struct vb_ledger {
    int measured;    /* 1: the fields below hold; 0: why says why not */
    char why[160];   /* "no NVML: ...", "window 12 ms: under the energy counter's ..." */
    double window_s; /* first timed sample to last */
    double energy_j; /* the energy counter's move over the window (NaN: not measured) */
    double power_w;  /* energy_j / window_s */
    /* the counter's update period on this board as the run's probe measured it (NaN: not
     * probed), and the uncertainty it leaves energy_j and power_w: each end of the window read
     * up to one update late, period / window of them (vb_ledger_energy_unc) */
    double period_ms, energy_unc_j, power_unc_w;
    /* --energy (an idle probe at the run's start): the board's idle draw it measured (NaN:
     * none) and its uncertainty, and the energy over the window above that draw (the work's
     * own: a sample's host time at idle no longer in it) with its uncertainty, both terms' */
    double idle_w, idle_unc_w, work_j, work_unc_j;
    double power_read_w; /* the mean of the sampler's power readings (NaN: none) */
    int readings;        /* the sampler's readings */
    double temp_max_c, sm_mhz_min, sm_mhz_median, mem_mhz_median;
    uint64_t reasons;                /* clock-event reasons seen in any reading, idle left out */
    double limit_w, default_limit_w; /* enforced and default power limits (NaN: unknown) */
    char others[160]; /* other processes on the GPU at either end: "pid 123 (512 MiB), ..." */
    char quiet[160];  /* what --quiet-gpu waited for before the window (vb_ledger_quiet) */
};

/* vb_ledger_open loads NVML and initialises it, once per process; 0, or -1 with why ("no NVML:
 * libnvidia-ml.so.1 cannot be loaded (...)"), which every later call repeats. Thread-safe. */
int vb_ledger_open(struct vb_err *why);

/* vb_ledger_start starts a case's ledger on the board at PCI bus id bus ("0000:19:00.0", as
 * cudaDeviceGetPCIBusId writes it): the energy counter read, the sampler started. One case at a
 * time a process. 0, or -1 with err (no NVML, no such board): l's why then says so and
 * vb_ledger_stop leaves it so. */
int vb_ledger_start(const char *bus, struct vb_ledger *l, struct vb_err *err);

/* vb_ledger_stop ends the window: the sampler joined, l filled (measured, or why not). Safe to
 * call after a vb_ledger_start that failed. This can't fail. */
void vb_ledger_stop(struct vb_ledger *l);

/* vb_ledger_quiet waits, at most timeout_s, until the board at PCI bus id bus has no other
 * process on it and is at most max_temp_c hot, reading it every 50 ms; note (n bytes) says what
 * it waited for ("waited 1.20 s: pid 4242 left, 71 -> 60 C"), "" when the board was quiet at
 * once. 0: quiet; 1: gave up, note saying what remained; -1: no NVML or no such board, note
 * saying so. */
int vb_ledger_quiet(const char *bus, double max_temp_c, double timeout_s, char *note, size_t n);

/* How often a board's NVML readings move (vb_ledger_periods): what an energy or a power figure
 * over a window can support. A reading that repeats its value across an update (a steady power)
 * makes its period look longer: these are at least as fine as measured. */
struct vb_nvml_periods {
    double energy_ms;      /* the energy counter's update period, the median interval between its
                            * moves (NaN: fewer than 3 moves in the probe) */
    double energy_step_mj; /* its median move */
    double power_ms;       /* the power reading's (the instantaneous field, else the 1 s mean) */
    int energy_moves, power_moves; /* moves seen */
    double probe_s;                /* how long it polled */
    /* the mean power the counter moved by, from its first move to its last in the probe, and
     * its uncertainty (that mean times a period over that span); NaN: under 3 moves. An idle
     * probe's (vb_ledger_periods' idle) is the board's idle draw */
    double mean_w, mean_unc_w;
};

#define VB_LEDGER_MAX_BOARDS 64

/* vb_ledger_periods polls the n boards at PCI bus ids bus[0..n) together for `seconds` (0.5: a
 * run's start), each every 0.25 ms, and fills p[0..n). idle: the boards ran nothing meanwhile,
 * so that each one's mean_w is its idle draw, which the cases' ledgers then subtract (work_j);
 * else they forget any earlier one. Not beside a case's ledger. 0, or -1 with err (no NVML, a
 * board it does not know, n outside 1..VB_LEDGER_MAX_BOARDS). */
int vb_ledger_periods(const char *const *bus, int n, double seconds, int idle,
                      struct vb_nvml_periods *p, struct vb_err *err);

/* vb_ledger_energy_unc: the relative uncertainty of an energy a counter updating every
 * period_ms measured over window_s (each end read up to one update late): period / window; NaN
 * when the period is unknown. Ten updates in the window for 10%. The one rule of the ledger's
 * figures (a case's energy, a probe's mean power). */
double vb_ledger_energy_unc(double period_ms, double window_s);

/* vb_ledger_reasons writes the reason bits as words ("sw power cap, hw thermal"), "none" for 0.
 * Returns buf. */
char *vb_ledger_reasons(uint64_t reasons, char *buf, size_t n);

#endif
