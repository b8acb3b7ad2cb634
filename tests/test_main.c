/*
 * vbtest: the test runner. `vbtest NAME [ARG]` runs one test; `vbtest --ctest EXE` prints
 * the add_test() lines for every test, the gpu ones generated from the registry (one per
 * GPU variant), which CMake includes at test time (gtest_discover_tests' approach).
 */
#include <stdio.h>
#include <string.h>

#include "nvtx.h"
#include "registry.h"
#include "test.h"
#include "tests.h"

static const struct vb_test table[] = {
    {"err_codes", "cpu", test_err_codes, NULL},
    {"stats", "cpu", test_stats, NULL},
    {"stats_large_values", "cpu", test_stats_large_values, NULL},
    {"axes_parse", "cpu", test_axes_parse, NULL},
    {"axes_expand", "cpu", test_axes_expand, NULL},
    {"axes_values", "cpu", test_axes_values, NULL},
    {"registry_catalog", "cpu", test_registry_catalog, NULL},
    {"registry_rejects", "cpu", test_registry_rejects, NULL},
    {"registry_glob", "cpu", test_registry_glob, NULL},
    {"compare", "cpu", test_compare, NULL},
    {"fmt_bytes", "cpu", test_fmt_bytes, NULL},
    {"mesh_reference_hand", "cpu", test_mesh_reference_hand, NULL},
    {"mesh_math", "cpu", test_mesh_math, NULL},
    {"runner_cpu_and_skip", "cpu", test_runner_cpu_and_skip, NULL},
    {"runner_wrong_results", "cpu", test_runner_wrong_results, NULL},
    {"gufunc_seed_powsum", "cpu", test_gufunc_seed_powsum, NULL},
    {"gufunc_seed_hermite", "cpu", test_gufunc_seed_hermite, NULL},
    {"gufunc_float_within_tolerance", "cpu", test_gufunc_float_within_tolerance, NULL},
    {"compare_verdicts", "cpu", test_compare_verdicts, NULL},
    {"compare_phases", "cpu", test_compare_phases, NULL},
    {"compare_few_samples", "cpu", test_compare_few_samples, NULL},
    {"compare_throttled", "cpu", test_compare_throttled, NULL},
    {"compare_refuses_incomplete", "cpu", test_compare_refuses_incomplete, NULL},
    {"compare_nothing_compared", "cpu", test_compare_nothing_compared, NULL},
    {"mann_whitney", "cpu", test_mann_whitney, NULL},
    {"merge_idempotent", "cpu", test_merge_idempotent, NULL},
    {"store_roundtrip", "cpu", test_store_roundtrip, NULL},
    {"store_persists", "cpu", test_store_persists, NULL},
    {"store_refuses_foreign", "cpu", test_store_refuses_foreign, NULL},
    {"store_refuses_newer", "cpu", test_store_refuses_newer, NULL},
    {"store_refuses_corrupt", "cpu", test_store_refuses_corrupt, NULL},
    {"store_refuses_unopenable", "cpu", test_store_refuses_unopenable, NULL},
    {"store_after_rollback", "cpu", test_store_after_rollback, NULL},
    {"trace_label", "cpu", test_trace_label, NULL},
    {"trace_case", "cpu", test_trace_case, NULL},
    {"trace_summary", "cpu", test_trace_summary, NULL},
    {"summary_format", "cpu", test_summary_format, NULL},
    {"metric_set_parse", "cpu", test_metric_set_parse, NULL},
    {"metric_defs", "cpu", test_metric_defs, NULL},
    {"metric_set_split", "cpu", test_metric_set_split, NULL},
    {"store_migrates_v1", "cpu", test_store_migrates_v1, VB_TESTS_DIR "/schema_v1.sql"},
    {"store_metrics", "cpu", test_store_metrics, NULL},
    {"activity_append", "cpu", test_activity_append, NULL},
    {"store_efficiency", "gpu", test_gpu_store_efficiency, NULL},
    {"ufunc_clamp_seed_bug", "cpu", test_ufunc_clamp_seed_bug, NULL},
    {"ufunc_float_within_tolerance", "cpu", test_ufunc_float_within_tolerance, NULL},
    {"ufunc_fft_vs_direct_dft", "cpu", test_ufunc_fft_vs_direct_dft, NULL},
    {"ufunc_fft_mask", "cpu", test_ufunc_fft_mask, NULL},
    {"ufunc_fft_float_error", "cpu", test_ufunc_fft_float_error, NULL},
    {"ufunc_registry_problems", "cpu", test_ufunc_registry_problems, NULL},
    {"ufunc_cpu_cases", "cpu", test_ufunc_cpu_cases, NULL},
    {"saxpy_nvrtc_compiles", "cpu", test_saxpy_nvrtc_compiles, NULL},
    {"saxpy_nvrtc_log", "cpu", test_saxpy_nvrtc_log, NULL},
    {"saxpy_driver_lookup", "cpu", test_saxpy_driver_lookup, NULL},
    {"saxpy_err_checkers", "cpu", test_saxpy_err_checkers, NULL},
    {"saxpy_setup_phases", "cpu", test_saxpy_setup_phases, NULL},
};

/* emit prints the ctest lines for test `id` (label.id) running `exe cmd [arg]`. */
static void emit(const char *exe, const char *label, const char *id, const char *cmd,
                 const char *arg)
{
    printf("add_test([=[%s.%s]=] [=[%s]=] [=[%s]=]%s%s%s)\n", label, id, exe, cmd,
           arg ? " [=[" : "", arg ? arg : "", arg ? "]=]" : "");
    printf("set_tests_properties([=[%s.%s]=] PROPERTIES LABELS %s SKIP_RETURN_CODE 77%s)\n", label,
           id, label, strcmp(label, "gpu") ? "" : " RESOURCE_LOCK gpu");
}

int main(int argc, char **argv)
{
    size_t i;
    int f, j;
    vb_nvtx_setup(); /* before any NVTX call, as in varbench itself */
    if (argc == 3 && !strcmp(argv[1], "--ctest")) {
        for (i = 0; i < sizeof table / sizeof table[0]; i++)
            emit(argv[2], table[i].label, table[i].name, table[i].name, table[i].arg);
        for (f = 0; vb_families[f]; f++)
            for (j = 0; j < vb_families[f]->nvariants; j++) {
                char id[160], full[160];
                if (!(vb_families[f]->variants[j].flags & VB_GPU)) continue;
                snprintf(id, sizeof id, "%s.%s", vb_families[f]->name,
                         vb_families[f]->variants[j].name);
                snprintf(full, sizeof full, "%s/%s", vb_families[f]->name,
                         vb_families[f]->variants[j].name);
                emit(argv[2], "gpu", id, "variant", full);
            }
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "variant") && argc == 3) return test_gpu_variant(argv[2]);
    /* a helper for cli.sh, not a test: writes fixture databases into a folder */
    if (argc == 3 && !strcmp(argv[1], "make_fixtures")) return test_make_fixtures(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "make_trace_fixture")) return test_make_trace_fixture(argv[2]);
    for (i = 0; argc >= 2 && i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(argv[1], table[i].name)) return table[i].fn(argc > 2 ? argv[2] : table[i].arg);
    fprintf(stderr, "usage: vbtest NAME [ARG] | vbtest --ctest EXE\n");
    return 2;
}
