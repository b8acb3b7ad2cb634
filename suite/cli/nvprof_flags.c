/* nvprof_flags: nvprof's flags on varbench trace (see nvprof_flags.h). */
#include "nvprof_flags.h"

#include <stdio.h>
#include <string.h>

#include "err.h"

enum how {
    SAME,   /* varbench trace has it, same name and meaning (its own option row) */
    ACCEPT, /* taken without effect: varbench always does this (with a value: only `ok`) */
    REFUSE, /* not supported: `ours` is the nearest equivalent */
};

struct flag {
    char short_name;
    const char *name, *arg;
    enum how how;
    const char *ok;   /* ACCEPT with a value: the one value that describes varbench */
    const char *ours; /* the equivalent, as the table shows it */
};

static const struct flag flags[] = {
    {0, "print-gpu-trace", NULL, SAME, NULL, "--print-gpu-trace"},
    {0, "print-api-trace", NULL, SAME, NULL, "--print-api-trace"},
    {'s', "print-summary", NULL, SAME, NULL, "--print-summary (the default)"},
    {0, "csv", NULL, SAME, NULL, "--csv"},
    {0, "log-file", "FILE", SAME, NULL, "--log-file FILE (%p, %q{ENV}, %h, %%)"},
    {'o', "export-profile", "FILE", SAME, NULL, "-o FILE: a varbench database (%p, %q{ENV})"},
    {'f', "force-overwrite", NULL, SAME, NULL, "-f (with -o)"},
    {'m', "metrics", "LIST", SAME, NULL, "--metrics all|default|NAMES (kernel replay)"},
    {0, "profile-from-start", "off", SAME, NULL, "--profile-from-start off"},
    {0, "trace", "api,gpu", SAME, NULL, "--trace api|gpu|api,gpu"},
    {'q', "quiet", NULL, SAME, NULL, "-q"},
    {0, "profile-child-processes", NULL, ACCEPT, NULL, "always: every process is traced"},
    {0, "profile-all-processes", NULL, REFUSE, NULL,
     "trace each program: varbench trace -- COMMAND"},
    {0, "concurrent-kernels", "on", ACCEPT, "on", "always on (CONCURRENT_KERNEL records)"},
    {0, "demangling", "on", ACCEPT, "on", "always on (summary, gpu trace, export)"},
    {0, "unified-memory-profiling", "off", ACCEPT, "off",
     "off: unified memory is not traced (nsys --cuda-um-cpu-page-faults)"},
    {'i', "import-profile", "FILE", REFUSE, NULL, "varbench summary --db FILE [--run ID]"},
    {0, "print-gpu-summary", NULL, REFUSE, NULL, "--print-summary (GPU activities first)"},
    {0, "print-api-summary", NULL, REFUSE, NULL, "--print-summary (API calls after)"},
    {0, "print-summary-per-gpu", NULL, REFUSE, NULL, "--print-gpu-trace (Device column)"},
    {0, "query-metrics", NULL, REFUSE, NULL, "varbench list --metrics"},
    {'e', "events", "LIST", REFUSE, NULL, "--metrics (Hopper has no events; ncu for raw ones)"},
    {0, "query-events", NULL, REFUSE, NULL, "varbench list --metrics"},
    {'a', "analysis-metrics", NULL, REFUSE, NULL, "--metrics default, or ncu --set full"},
    {0, "aggregate-mode", "on|off", REFUSE, NULL, "--metrics (per launch, aggregated per kernel)"},
    {0, "kernels", "FILTER", REFUSE, NULL, "trace all, then varbench export --case GLOB"},
    {0, "devices", "LIST", REFUSE, NULL, "CUDA_VISIBLE_DEVICES=LIST varbench trace ..."},
    {'t', "timeout", "SECONDS", REFUSE, NULL, "timeout -s INT SECONDS varbench trace ..."},
    {'u', "normalized-time-unit", "UNIT", REFUSE, NULL, "--csv (units in its second row)"},
    {0, "system-profiling", "on|off", REFUSE, NULL, "varbench run (records SM clocks)"},
    {0, "track-memory-allocations", "on|off", REFUSE, NULL, "nsys --cuda-memory-usage=true"},
    {0, "cpu-profiling", "on|off", REFUSE, NULL, "perf record, or nsys --sample=cpu"},
    {0, "openacc-profiling", "on|off", REFUSE, NULL, "nsys --trace=openacc"},
    {0, "openmp-profiling", "on|off", REFUSE, NULL, "nsys --trace=openmp"},
    {0, "dependency-analysis", NULL, REFUSE, NULL, "varbench export --format trace (flows)"},
    {0, "print-dependency-analysis-trace", NULL, REFUSE, NULL, "varbench export --format trace"},
    {0, "source-level-analysis", "WHAT", REFUSE, NULL, "ncu --set full --import-source yes"},
    {0, "pc-sampling-period", "N", REFUSE, NULL, "ncu --set full"},
    {0, "replay-mode", "MODE", REFUSE, NULL, "--metrics (kernel replay)"},
    {0, "print-nvlink-topology", NULL, REFUSE, NULL, "nvidia-smi topo -m"},
    {0, "print-pci-topology", NULL, REFUSE, NULL, "nvidia-smi topo -m"},
    {0, "device-buffer-size", "MB", REFUSE, NULL, "none needed: CUPTI buffers grow on demand"},
    {0, "profiling-semaphore-pool-size", "N", REFUSE, NULL,
     "none needed: CUPTI buffers grow on demand"},
    {0, "context-name", "NAME", REFUSE, NULL, "trace all, then varbench export --case GLOB"},
    {0, "process-name", "NAME", REFUSE, NULL, "varbench trace --name LABEL"},
    {0, "mode", "MODE", REFUSE, NULL, "varbench trace -- COMMAND (no daemon mode)"},
};

_Static_assert(sizeof flags / sizeof flags[0] <= VB_NVPROF_ROWS, "VB_NVPROF_ROWS is too small");

/* answer is the row callback of an ACCEPT or REFUSE flag */
static int answer(void *ctx, const char *arg, struct vb_err *err)
{
    const struct flag *f = ctx;
    if (f->how == ACCEPT && (!f->ok || (arg && !strcmp(arg, f->ok)))) return 0;
    if (f->how == ACCEPT) {
        vb_err_set(err, VB_E_USAGE, "nvprof's --%s %s is not supported: varbench trace is %s",
                   f->name, arg ? arg : "", f->ok);
        return vb_err_hint(err, "%s", f->ours);
    }
    vb_err_set(err, VB_E_USAGE, "nvprof's --%s is not supported by varbench trace", f->name);
    return vb_err_hint(err, "instead: %s ('varbench trace --help' maps every nvprof flag)",
                       f->ours);
}

size_t vb_nvprof_rows(struct vb_opt *rows, size_t cap)
{
    size_t i, k = 0;
    for (i = 0; i < sizeof flags / sizeof flags[0] && k < cap; i++) {
        const struct flag *f = &flags[i];
        if (f->how == SAME) continue;
        memset(&rows[k], 0, sizeof rows[k]);
        rows[k].type = VB_OPT_T_CALL;
        rows[k].short_name = f->short_name;
        rows[k].long_name = f->name;
        rows[k].arg = f->arg;
        rows[k].value = (void *)f;
        rows[k].call = answer;
        rows[k].help = f->ours;
        rows[k].flags = VB_OPT_HIDDEN;
        k++;
    }
    return k;
}

char *vb_nvprof_table(char *buf, size_t n)
{
    static const char *const verdict[] = {"", "accepted: ", "refused, use: "};
    size_t used, i;
    used = (size_t)snprintf(buf, n, "nvprof's flags:\n  %-40s %s\n", "nvprof", "varbench trace");
    for (i = 0; i < sizeof flags / sizeof flags[0] && used < n; i++) {
        const struct flag *f = &flags[i];
        char left[64];
        snprintf(left, sizeof left, "%s%c%s--%s%s%s", f->short_name ? "-" : "",
                 f->short_name ? f->short_name : ' ', f->short_name ? ", " : "", f->name,
                 f->arg ? " " : "", f->arg ? f->arg : "");
        used += (size_t)snprintf(buf + used, n - used, "  %-40s %s%s\n",
                                 left + (f->short_name ? 0 : 1), verdict[f->how], f->ours);
    }
    return buf;
}
