/* The test functions of vbtest, one per line of the table in test_main.c. */
#ifndef VB_TESTS_H
#define VB_TESTS_H

int test_err_codes(const char *arg);
int test_stats(const char *arg);
int test_stats_large_values(const char *arg);
int test_axes_parse(const char *arg);
int test_axes_expand(const char *arg);
int test_axes_values(const char *arg);
int test_registry_catalog(const char *arg);
int test_registry_rejects(const char *arg);
int test_registry_glob(const char *arg);
int test_compare(const char *arg);
int test_fmt_bytes(const char *arg);
int test_mesh_reference_hand(const char *arg);
int test_mesh_math(const char *arg);
int test_runner_cpu_and_skip(const char *arg);
int test_runner_wrong_results(const char *arg);
int test_store_roundtrip(const char *arg);
int test_store_persists(const char *arg);
int test_store_refuses_foreign(const char *arg);
int test_store_refuses_newer(const char *arg);
int test_store_refuses_corrupt(const char *arg);
int test_store_refuses_unopenable(const char *arg);
int test_store_after_rollback(const char *arg);
int test_trace_label(const char *arg);
int test_trace_case(const char *arg);
int test_trace_summary(const char *arg);
int test_summary_format(const char *arg);
int test_make_trace_fixture(const char *arg);
int test_gufunc_seed_powsum(const char *arg);
int test_gufunc_seed_hermite(const char *arg);
int test_gufunc_float_within_tolerance(const char *arg);
int test_compare_verdicts(const char *arg);
int test_compare_phases(const char *arg);
int test_compare_few_samples(const char *arg);
int test_compare_throttled(const char *arg);
int test_compare_refuses_incomplete(const char *arg);
int test_compare_nothing_compared(const char *arg);
int test_mann_whitney(const char *arg);
int test_merge_idempotent(const char *arg);
int test_ufunc_clamp_seed_bug(const char *arg);
int test_ufunc_float_within_tolerance(const char *arg);
int test_ufunc_fft_vs_direct_dft(const char *arg);
int test_ufunc_fft_mask(const char *arg);
int test_ufunc_fft_float_error(const char *arg);
int test_ufunc_registry_problems(const char *arg);
int test_ufunc_cpu_cases(const char *arg);
int test_saxpy_nvrtc_compiles(const char *arg);
int test_saxpy_nvrtc_log(const char *arg);
int test_saxpy_driver_lookup(const char *arg);
int test_saxpy_err_checkers(const char *arg);
int test_saxpy_setup_phases(const char *arg);
int test_make_fixtures(const char *arg);
int test_gpu_variant(const char *arg);
int test_metric_set_parse(const char *arg);
int test_metric_defs(const char *arg);
int test_metric_set_split(const char *arg);
int test_store_migrates_v1(const char *arg);
int test_store_metrics(const char *arg);
int test_activity_append(const char *arg);
int test_gpu_store_efficiency(const char *arg);

#endif
