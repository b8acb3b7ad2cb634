/* table: printing results (see table.h). */
#include "table.h"

#include <math.h>
#include <string.h>

#include "run_gpus.h"

void vb_table_header(FILE *out)
{
    fprintf(out, "%-30s %-36s %16s %9s %10s %7s %14s %9s %10s %12s %10s %7s %-12s %9s\n", "variant",
            "axes", "H2D bytes (n)", "H2D ms", "kernel ms", "st eff", "D2H bytes (n)", "D2H ms",
            "gpu ms", "+-95% CI", "e2e ms", "samples", "status", "max err");
}

void vb_table_row(FILE *out, const struct vb_case_result *r)
{
    char name[160], h2d[40], d2h[40], b[32], hm[16], km[16], dm[16], em[16], er[16], se[16], gm[16],
        ci[40];
    snprintf(name, sizeof name, "%s/%s", r->family->name, r->variant->name);
    if (r->have_records) {
        snprintf(h2d, sizeof h2d, "%s (%d)", vb_fmt_bytes(r->h2d_bytes, b, sizeof b), r->h2d_count);
        snprintf(d2h, sizeof d2h, "%s (%d)", vb_fmt_bytes(r->d2h_bytes, b, sizeof b), r->d2h_count);
    } else {
        snprintf(h2d, sizeof h2d, "-");
        snprintf(d2h, sizeof d2h, "-");
    }
    vb_fmt_ms(r->h2d_ms.median * 1e6, hm, sizeof hm);
    vb_fmt_ms(r->kernel_ms.median * 1e6, km, sizeof km);
    vb_fmt_ms(r->d2h_ms.median * 1e6, dm, sizeof dm);
    vb_fmt_ms(r->e2e_ms.median * 1e6, em, sizeof em);
    vb_fmt_ms(r->gpu_ms.median * 1e6, gm, sizeof gm);
    /* the precision reached: the median's CI, or the phase that ended at the budget */
    if (r->stop_detail[0])
        snprintf(ci, sizeof ci, "%s", r->stop_detail);
    else if (isfinite(r->gpu_ci_pct))
        snprintf(ci, sizeof ci, "+-%.2f%%", r->gpu_ci_pct);
    else
        snprintf(ci, sizeof ci, "-");
    if (isnan(r->max_abs_err))
        snprintf(er, sizeof er, "-");
    else
        snprintf(er, sizeof er, "%.2e", r->max_abs_err);
    /* store efficiency (nvprof's gst_efficiency) from the metrics pass */
    if (r->metrics_status == VB_METRICS_OK && isfinite(r->gst_efficiency))
        snprintf(se, sizeof se, "%.1f%%", r->gst_efficiency);
    else
        snprintf(se, sizeof se, "-");
    fprintf(out, "%-30s %-36s %16s %9s %10s %7s %14s %9s %10s %12s %10s %7d %-12s %9s\n", name,
            r->axes, h2d, hm, km, se, d2h, dm, gm, ci, em, r->ntimed,
            r->dropped && r->status == VB_STATUS_OK ? "throttled" : vb_status_name(r->status), er);
    if (r->dropped)
        fprintf(out,
                "    throttled: %d of %d timed samples dropped (SM clock min %.0f MHz, median "
                "%.0f MHz: under 75%% of the peak); compare calls this case noisy\n",
                r->dropped, r->ntimed, r->clock_min_mhz, r->clock_median_mhz);
    /* a case's own reason below its row; the run's want of a device is said once, at its end */
    if (r->reason[0] && (r->status != VB_STATUS_SKIPPED ||
                         strncmp(r->reason, VB_NODEV_REASON, strlen(VB_NODEV_REASON))))
        fprintf(out, "    %s: %s\n", vb_status_name(r->status), r->reason);
    /* an unavailable metrics pass is said once by the command, not on every row */
    if (r->metrics_status == VB_METRICS_FAILED)
        fprintf(out, "    metrics failed: %s\n", r->metrics_reason);
    fflush(out);
}

void vb_table_gpu(FILE *out, const struct vb_gpu_env *g, const struct vb_ceiling c[VB_CEIL_COUNT])
{
    double gbps[VB_CEIL_COUNT], ns[VB_CEIL_COUNT];
    char line[600];
    int i;
    fprintf(
        out,
        "device %d: %s (%s), CC %d.%d, %d SMs, %.1f GiB, L2 %.0f MiB, SM clock %.0f MHz "
        "measured (%d MHz peak), PCIe gen %d x%d, driver %s, CUDA %d.%d runtime %d.%d, CUPTI %u\n",
        g->id, g->name, g->uuid, g->cc_major, g->cc_minor, g->sm_count,
        (double)g->total_mem / (1 << 30), (double)g->l2_bytes / (1 << 20), g->sm_clock_mhz,
        g->clock_khz / 1000, g->pcie_gen, g->pcie_width, g->driver[0] ? g->driver : "?",
        g->cuda_driver_version / 1000, g->cuda_driver_version % 1000 / 10,
        g->cuda_runtime_version / 1000, g->cuda_runtime_version % 1000 / 10, g->cupti_version);
    if (g->energy_period_ms > 0) { /* what an energy figure can support (ledger.h) */
        char pw[32] = "?";
        if (g->power_period_ms > 0) snprintf(pw, sizeof pw, "%.1f", g->power_period_ms);
        fprintf(out,
                "NVML: energy counter every %.1f ms (%.0f mJ a step; 10%% needs a window of %.2f "
                "s), power reading every %s ms\n",
                g->energy_period_ms, g->energy_step_mj, g->energy_period_ms * 1e-2, pw);
        if (g->idle_w > 0)
            fprintf(out,
                    "NVML: idle draw %.1f W +- %.1f (the board at rest after the ceilings, "
                    "%.1f s; each case's energy above it is shown beside its own)\n",
                    g->idle_w, g->idle_unc_w, VB_RUN_IDLE_PROBE_S);
    }
    if (!c) return;
    for (i = 0; i < VB_CEIL_COUNT; i++) {
        gbps[i] = c[i].gbps;
        ns[i] = c[i].median_ns;
    }
    fprintf(out, "ceilings:%s (%.0f MiB copies, median of %d)\n",
            vb_ceilings_text(gbps, ns, line, sizeof line), (double)c[0].bytes / (1 << 20),
            c[0].reps);
    if (*vb_ceilings_curves_text(gbps, line, sizeof line)) fprintf(out, "%s\n", line);
}

void vb_table_ledger(FILE *out, const struct vb_case_result *r)
{
    const struct vb_ledger *l = &r->ledger;
    char why[128], b[6][24];
    double tol;
    if (r->device < 0 || (!l->readings && !l->measured)) return; /* no NVML, or not started */
    fprintf(out, "    ledger:");
    if (l->measured && r->ntimed > 0) {
        fprintf(out, " %.4g J", l->energy_j);
        if (l->energy_unc_j > 0) fprintf(out, " +- %.2g", l->energy_unc_j);
        fprintf(out, " over %.2f s, %.4g J a sample", l->window_s, l->energy_j / r->ntimed);
        if (r->elements > 0)
            fprintf(out, " (%.3g nJ an element)", l->energy_j / r->ntimed / r->elements * 1e9);
        if (l->power_unc_w > 0) /* the counter's period measured: its uncertainty */
            fprintf(out, ", %.0f W +- %.0f;", l->power_w, l->power_unc_w);
        else
            fprintf(out, ", %.0f W;", l->power_w);
        if (isfinite(l->work_j)) { /* --energy: the work's own, the idle draw taken out */
            fprintf(out, " above the idle draw (%.0f W +- %.0f): %.4g J a sample +- %.2g",
                    l->idle_w, l->idle_unc_w, l->work_j / r->ntimed, l->work_unc_j / r->ntimed);
            if (r->elements > 0)
                fprintf(out, " (%.3g nJ an element)", l->work_j / r->ntimed / r->elements * 1e9);
            fputc(';', out);
        }
    } else {
        fprintf(out, " energy not measured (%s);", l->why);
    }
    /* one power figure, the counter's: NVML's power readings beside it only as what they are */
    tol = l->power_unc_w > 0.05 * l->power_w ? l->power_unc_w : 0.05 * l->power_w;
    if (!isfinite(l->power_read_w))
        ;
    else if (l->measured && fabs(l->power_read_w - l->power_w) <= tol)
        fprintf(out, " power readings agree (%.0f W);", l->power_read_w);
    else
        fprintf(out,
                " power readings %.0f W (%d samples of NVML's reading, not the window's mean%s);",
                l->power_read_w, l->readings,
                l->measured ? ": the counter's figure is the case's" : "");
    fprintf(out,
            " %s C max, SM %s MHz (min %s), memory %s MHz, limit %s W; clock events: "
            "%s; other processes: %s%s%s\n",
            vb_fmt_num(l->temp_max_c, "%.0f", b[1], sizeof b[1]),
            vb_fmt_num(l->sm_mhz_median, "%.0f", b[2], sizeof b[2]),
            vb_fmt_num(l->sm_mhz_min, "%.0f", b[3], sizeof b[3]),
            vb_fmt_num(l->mem_mhz_median, "%.0f", b[4], sizeof b[4]),
            vb_fmt_num(l->limit_w, "%.0f", b[5], sizeof b[5]),
            vb_ledger_reasons(l->reasons, why, sizeof why), l->others[0] ? l->others : "none",
            l->quiet[0] ? "; quiet GPU: " : "", l->quiet);
}
