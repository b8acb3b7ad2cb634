/* Tests of suite/collect/ledger.c: the board's ledger over a window, on a fake NVML
 * (tests/fakenvml: 300 W, its power cap engaged, another process on the board), and the run
 * going on without NVML. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "environ.h"
#include "ledger.h"
#include "test.h"
#include "tests.h"

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* A 300 ms window on the fake board: energy within 10% of 300 W x the window (the counter's
 * 10 ms steps), the readings' mean power, clocks, temperature, the power cap named, the limits,
 * the other process; a 20 ms window is too short for the counter and says so; a bus id NVML
 * does not know is refused. */
int test_ledger_fake(const char *arg)
{
    struct vb_ledger l;
    struct vb_err err;
    char why[64];
    (void)arg;
    ASSERT(dlopen(VB_FAKE_NVML, RTLD_NOW | RTLD_GLOBAL)); /* the soname the ledger asks for */
    ASSERT_OK(vb_ledger_open(&err));
    ASSERT_OK(vb_ledger_start("0000:19:00.0", &l, &err));
    sleep_ms(300);
    vb_ledger_stop(&l);
    ASSERT_INT_EQ(l.measured, 1);
    ASSERT(l.window_s >= 0.3 && l.window_s < 2.0);
    ASSERT(fabs(l.energy_j / (300.0 * l.window_s) - 1) < 0.1);
    ASSERT(fabs(l.power_w - 300) < 30);
    ASSERT(l.readings >= 2); /* start's own and the sampler's (30 unloaded) */
    ASSERT(l.power_read_w == 300 && l.sm_mhz_median == 1980 && l.sm_mhz_min == 1980);
    ASSERT(l.mem_mhz_median == 2619 && l.temp_max_c == 55);
    ASSERT(l.limit_w == 700 && l.default_limit_w == 700);
    ASSERT_STR_EQ(vb_ledger_reasons(l.reasons, why, sizeof why), "sw power cap");
    ASSERT_STR_EQ(l.others, "pid 4242 (1024 MiB)");
    ASSERT_OK(vb_ledger_start("0000:19:00.0", &l, &err));
    sleep_ms(20);
    vb_ledger_stop(&l);
    ASSERT_INT_EQ(l.measured, 0);
    ASSERT(isnan(l.energy_j) && strstr(l.why, "under 100 ms"));
    ASSERT(l.readings >= 1); /* what was read is kept */
    ASSERT(vb_ledger_start("0000:ff:00.0", &l, &err) == -1);
    ASSERT(strstr(l.why, "NVML has no board at PCI 0000:ff:00.0: Not Found"));
    vb_ledger_stop(&l); /* after a failed start: nothing to stop */
    ASSERT_STR_EQ(vb_ledger_reasons(0, why, sizeof why), "none");
    return 0;
}

/* Without NVML (CI's machines): why names it, once a process, and a ledger started there is
 * empty with that reason. 77 where a real NVML is installed. */
int test_ledger_none(const char *arg)
{
    struct vb_ledger l;
    struct vb_err err;
    (void)arg;
    if (vb_ledger_open(&err) == 0) return 77;
    ASSERT(strstr(err.msg, "no NVML: libnvidia-ml.so.1 cannot be loaded"));
    ASSERT(vb_ledger_start("0000:19:00.0", &l, &err) == -1);
    ASSERT(l.measured == 0 && strstr(l.why, "no NVML"));
    vb_ledger_stop(&l);
    ASSERT(isnan(l.energy_j));
    return 0;
}

/* A noisy verdict names what the ledger saw on each side (environ.c); a slower one beside a
 * co-tenant is noisy, saying so; a slower one under a power cap alone, or a ledger that saw
 * nothing, leaves the verdict and its reason alone. */
int test_ledger_verdict(const char *arg)
{
    static struct vb_case_row b, c; /* large: not on the stack */
    struct vb_cmp_row r;
    (void)arg;
    memset(&b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    memset(&r, 0, sizeof r);
    snprintf(b.clock_reasons, sizeof b.clock_reasons, "none");
    snprintf(c.clock_reasons, sizeof c.clock_reasons, "sw power cap");
    snprintf(c.co_tenants, sizeof c.co_tenants, "pid 4242 (1024 MiB)");
    r.verdict = VB_VERDICT_NOISY;
    snprintf(r.why, sizeof r.why, "e2e: p 0.0028, ranges overlap");
    vb_cmp_environment(&b, &c, &r, vb_cmp_phase_label(r.phase));
    ASSERT_STR_EQ(r.why, "e2e: p 0.0028, ranges overlap; candidate: clock events sw power cap, "
                         "other processes: pid 4242 (1024 MiB)");
    snprintf(r.why, sizeof r.why, "throttled: base");
    snprintf(b.co_tenants, sizeof b.co_tenants, "pid 7 (10 MiB)");
    c.co_tenants[0] = '\0';
    snprintf(c.clock_reasons, sizeof c.clock_reasons, "none");
    vb_cmp_environment(&b, &c, &r, vb_cmp_phase_label(r.phase));
    ASSERT_STR_EQ(r.why, "throttled: base; base: other processes: pid 7 (10 MiB)");
    /* slower beside a co-tenant: noisy, saying so; slower under a power cap alone: as it was */
    r.verdict = VB_VERDICT_SLOWER;
    r.why[0] = '\0';
    r.ratio = 1.12;
    snprintf(r.phase, sizeof r.phase, "gpu");
    vb_cmp_environment(&b, &c, &r, vb_cmp_phase_label(r.phase));
    ASSERT_INT_EQ(r.verdict, VB_VERDICT_NOISY);
    ASSERT_STR_EQ(r.why,
                  "GPU +12.0% beside another process; base: other processes: pid 7 (10 MiB)");
    /* slower under a power cap the base did not have: the cap named, noisy; under one both had:
     * as it was */
    b.co_tenants[0] = '\0';
    snprintf(c.clock_reasons, sizeof c.clock_reasons, "sw power cap");
    r.verdict = VB_VERDICT_SLOWER;
    r.why[0] = '\0';
    r.limit = 0.05;
    vb_cmp_environment(&b, &c, &r, vb_cmp_phase_label(r.phase));
    ASSERT_INT_EQ(r.verdict, VB_VERDICT_NOISY);
    ASSERT_CONTAINS(r.why,
                    "GPU +12.0% with clock events on the candidate's side only (sw power cap)");
    snprintf(b.clock_reasons, sizeof b.clock_reasons, "sw power cap");
    r.verdict = VB_VERDICT_SLOWER;
    r.why[0] = '\0';
    vb_cmp_environment(&b, &c, &r, vb_cmp_phase_label(r.phase));
    ASSERT_INT_EQ(r.verdict, VB_VERDICT_SLOWER);
    ASSERT_STR_EQ(r.why, "");
    /* an SM clock lower by as much as the move: noisy, the clocks named; by less: as it was */
    b.nvml_sm_mhz_median = 1980;
    c.nvml_sm_mhz_median = 1760; /* 1980/1760 = 1.125: explains +12% */
    vb_cmp_environment(&b, &c, &r, vb_cmp_phase_label(r.phase));
    ASSERT_INT_EQ(r.verdict, VB_VERDICT_NOISY);
    ASSERT_CONTAINS(r.why, "GPU +12.0% with the SM clock 1980 -> 1760 MHz");
    c.nvml_sm_mhz_median = 1960;
    r.verdict = VB_VERDICT_SLOWER;
    r.why[0] = '\0';
    vb_cmp_environment(&b, &c, &r, vb_cmp_phase_label(r.phase));
    ASSERT_INT_EQ(r.verdict, VB_VERDICT_SLOWER);
    snprintf(b.clock_reasons, sizeof b.clock_reasons, "none");
    /* the same beside a co-tenant: still the same, and the row says beside what */
    {
        char text[512];
        snprintf(c.co_tenants, sizeof c.co_tenants, "pid 1253 (1420 MiB)");
        snprintf(c.clock_reasons, sizeof c.clock_reasons, "none");
        r.verdict = VB_VERDICT_SAME;
        r.why[0] = '\0';
        vb_cmp_environment(&b, &c, &r, vb_cmp_phase_label(r.phase));
        ASSERT_INT_EQ(r.verdict, VB_VERDICT_SAME);
        ASSERT_STR_EQ(vb_cmp_row_text(&r, text, sizeof text),
                      "same (beside another process; candidate: other processes: pid 1253 "
                      "(1420 MiB))");
    }
    return 0;
}

/* A board without NVML's instantaneous power field: the readings are nvmlDeviceGetPowerUsage's
 * (the fake's lagging 1 s mean, 250 W), the energy still the counter's 300 W. */
int test_ledger_mean_power(const char *arg)
{
    struct vb_ledger l;
    struct vb_err err;
    (void)arg;
    ASSERT_OK(setenv("VB_FAKE_NVML_NO_INSTANT", "1", 1));
    ASSERT(dlopen(VB_FAKE_NVML, RTLD_NOW | RTLD_GLOBAL));
    ASSERT_OK(vb_ledger_open(&err));
    ASSERT_OK(vb_ledger_start("0000:19:00.0", &l, &err));
    sleep_ms(150);
    vb_ledger_stop(&l);
    ASSERT_INT_EQ(l.measured, 1);
    ASSERT(l.power_read_w == 250);
    ASSERT(fabs(l.power_w - 300) < 30);
    return 0;
}

/* --quiet-gpu's wait (vb_ledger_quiet) on the fake board: its other process leaves after 150 ms
 * and it cools from 75 C after 300 ms: quiet after ~0.3 s, saying what it waited for; a limit
 * of 50 C is never met: it gives up at its bound, saying so; an unknown board is refused. */
int test_ledger_quiet(const char *arg)
{
    char note[160];
    double t0;
    (void)arg;
    ASSERT(dlopen(VB_FAKE_NVML, RTLD_NOW | RTLD_GLOBAL));
    setenv("VB_FAKE_NVML_TENANT_MS", "150", 1);
    setenv("VB_FAKE_NVML_HOT_MS", "300", 1);
    t0 = vb_mono_ns();
    ASSERT_INT_EQ(vb_ledger_quiet("0000:19:00.0", 60, 5, note, sizeof note), 0);
    ASSERT((vb_mono_ns() - t0) * 1e-9 >= 0.3 && (vb_mono_ns() - t0) * 1e-9 < 2);
    ASSERT(!strncmp(note, "waited 0.", 9));
    ASSERT(strstr(note, "s: pid 4242 (1024 MiB) left, 75 -> 55 C"));
    ASSERT_INT_EQ(vb_ledger_quiet("0000:19:00.0", 60, 5, note, sizeof note), 0);
    ASSERT_STR_EQ(note, ""); /* quiet at once */
    ASSERT_INT_EQ(vb_ledger_quiet("0000:19:00.0", 50, 0.2, note, sizeof note), 1);
    ASSERT(!strncmp(note, "gave up after 0.", 16) && strstr(note, "s: 55 C"));
    ASSERT_INT_EQ(vb_ledger_quiet("0000:ff:00.0", 60, 1, note, sizeof note), -1);
    ASSERT(strstr(note, "no board at PCI 0000:ff:00.0"));
    return 0;
}

/* vb_ledger_periods on the fake board whose energy counter moves every 40 ms (12 J a move at
 * 300 W) and whose power reading every 25 ms: both periods found within a few ms by polling
 * half a second, and the uncertainty they imply: 0.1 s of a 40 ms counter is 40%, 4 s 1%; a
 * case's ledger on that board then needs 10 updates (0.4 s) and states its uncertainty. */
int test_ledger_periods(const char *arg)
{
    const char *bus[] = {"0000:19:00.0", "0000:ff:00.0"};
    struct vb_nvml_periods p;
    struct vb_ledger l;
    struct vb_err err;
    (void)arg;
    ASSERT(dlopen(VB_FAKE_NVML, RTLD_NOW | RTLD_GLOBAL));
    setenv("VB_FAKE_NVML_ENERGY_MS", "40", 1);
    setenv("VB_FAKE_NVML_POWER_MS", "25", 1);
    ASSERT_OK(vb_ledger_periods(bus, 1, 0.5, 0, &p, &err));
    printf("  energy %.1f ms (%.0f mJ a move, %d moves), power %.1f ms (%d moves), %.2f s\n",
           p.energy_ms, p.energy_step_mj, p.energy_moves, p.power_ms, p.power_moves, p.probe_s);
    ASSERT(fabs(p.energy_ms - 40) < 3 && p.energy_step_mj == 12000);
    ASSERT(fabs(p.power_ms - 25) < 3);
    ASSERT(p.energy_moves >= 11 && p.power_moves >= 18 && p.probe_s >= 0.5);
    ASSERT(fabs(vb_ledger_energy_unc(p.energy_ms, 0.1) - 0.4) < 0.03);
    ASSERT(fabs(vb_ledger_energy_unc(p.energy_ms, 4) - 0.01) < 0.001);
    /* a case's window on that board: 300 ms is 7 updates, not measured; 500 ms is, +- 8% */
    ASSERT_OK(vb_ledger_start(bus[0], &l, &err));
    ASSERT(l.period_ms == p.energy_ms);
    sleep_ms(300);
    vb_ledger_stop(&l);
    printf("  300 ms: %s\n", l.why);
    ASSERT_INT_EQ(l.measured, 0);
    ASSERT(
        strstr(l.why, "updates of the energy counter (every 40 ms), under the 10 that 10% needs"));
    ASSERT_OK(vb_ledger_start(bus[0], &l, &err));
    sleep_ms(500);
    vb_ledger_stop(&l);
    printf("  500 ms: %.2f J, %.0f W +- %.0f\n", l.energy_j, l.power_w, l.power_unc_w);
    ASSERT_INT_EQ(l.measured, 1);
    ASSERT(fabs(l.power_w - 300) <= l.power_unc_w + 1);
    ASSERT(fabs(l.power_unc_w / l.power_w - l.period_ms * 1e-3 / l.window_s) < 1e-9);
    ASSERT(fabs(l.period_ms - 40) < 3);
    ASSERT(isnan(l.idle_w) && isnan(l.work_j)); /* a probe beside work: no idle draw */
    /* an idle probe (--energy): the fake's 300 W is its idle draw, and a case's work above it
     * nothing, within its uncertainty */
    ASSERT_OK(vb_ledger_periods(bus, 1, 0.5, 1, &p, &err));
    printf("  idle probe: %.1f W +- %.1f\n", p.mean_w, p.mean_unc_w);
    ASSERT(fabs(p.mean_w - 300) <= p.mean_unc_w && p.mean_unc_w < 0.1 * 300);
    ASSERT_OK(vb_ledger_start(bus[0], &l, &err));
    ASSERT(l.idle_w == p.mean_w);
    sleep_ms(500);
    vb_ledger_stop(&l);
    printf("  500 ms above it: %.2f J +- %.2f\n", l.work_j, l.work_unc_j);
    ASSERT(fabs(l.work_j) <= l.work_unc_j && l.work_unc_j > l.energy_unc_j);
    ASSERT(vb_ledger_periods(bus + 1, 1, 0.1, 0, &p, &err) == -1);
    ASSERT(strstr(err.msg, "no board at PCI 0000:ff:00.0"));
    unsetenv("VB_FAKE_NVML_ENERGY_MS");
    unsetenv("VB_FAKE_NVML_POWER_MS");
    return 0;
}
