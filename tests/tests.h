/*
 * tests: the one list of vbtest's tests (libuv's test-list.h). VB_TESTS names every test once,
 * with its ctest label (cpu: runs anywhere; gpu: needs a GPU, skips with 77 without one) and,
 * for the few that take one, its argument; this header expands it into the prototypes that the
 * test files define, and test_main.c into the table that runs them and lists them for ctest.
 * Adding a test is writing `int test_NAME(const char *arg)` in a tests/test_*.c file (which
 * includes this header) and one line here: a test function missing here fails the build
 * (-Werror=missing-prototypes on vbtest), a line without its function fails the link. The gpu
 * tests generated per GPU variant are not listed here: test_main.c derives them from the
 * registry.
 */
#ifndef VB_TESTS_H
#define VB_TESTS_H

/*
 * VB_TESTS(T, TA) calls T(name, label) for each test `test_<name>`, run as `vbtest name` and
 * known to ctest as `<label>.<name>`, and TA(name, label, arg) for a test that gets `arg` when
 * vbtest's command line gives none. The order is ctest's.
 */
#define VB_TESTS(T, TA)                                                                            \
    T(err_codes, cpu)                                                                              \
    T(host_poison_widen, cpu)                                                                      \
    T(opt_parse, cpu)                                                                              \
    T(suggest, cpu)                                                                                \
    T(eta, cpu)                                                                                    \
    T(floor_bounds, cpu)                                                                           \
    T(ceilings_curves, cpu)                                                                        \
    T(crossover, cpu)                                                                              \
    T(crossover_groups, cpu)                                                                       \
    T(crossover_graph, cpu)                                                                        \
    T(stats, cpu)                                                                                  \
    T(stats_large_values, cpu)                                                                     \
    T(axes_parse, cpu)                                                                             \
    T(axes_expand, cpu)                                                                            \
    T(axes_values, cpu)                                                                            \
    T(registry_catalog, cpu)                                                                       \
    T(registry_rejects, cpu)                                                                       \
    T(registry_glob, cpu)                                                                          \
    T(registry_user, cpu)                                                                          \
    T(compare, cpu)                                                                                \
    T(paired, cpu)                                                                                 \
    T(sass, cpu)                                                                                   \
    T(code_diff, cpu)                                                                              \
    T(precision_pageable, cpu)                                                                     \
    T(code_id, cpu)                                                                                \
    T(code_id_many, cpu)                                                                           \
    T(export_sass, cpu)                                                                            \
    T(ledger_fake, cpu)                                                                            \
    T(ledger_mean_power, cpu)                                                                      \
    T(ledger_none, cpu)                                                                            \
    T(ledger_verdict, cpu)                                                                         \
    T(ledger_quiet, cpu)                                                                           \
    T(ledger_periods, cpu)                                                                         \
    T(fmt_bytes, cpu)                                                                              \
    T(mesh_reference_hand, cpu)                                                                    \
    T(mesh_math, cpu)                                                                              \
    T(runner_cpu_and_skip, cpu)                                                                    \
    T(runner_wrong_results, cpu)                                                                   \
    T(runner_cpu_first, cpu)                                                                       \
    T(gufunc_seed_powsum, cpu)                                                                     \
    T(gufunc_seed_hermite, cpu)                                                                    \
    T(gufunc_float_within_tolerance, cpu)                                                          \
    T(compare_verdicts, cpu)                                                                       \
    T(compare_phases, cpu)                                                                         \
    T(moved_causes, cpu)                                                                           \
    T(occupancy, cpu)                                                                              \
    T(ab_explain, cpu)                                                                             \
    T(compare_few_samples, cpu)                                                                    \
    T(compare_throttled, cpu)                                                                      \
    T(compare_refuses_incomplete, cpu)                                                             \
    T(compare_nothing_compared, cpu)                                                               \
    T(compare_pooled, cpu)                                                                         \
    T(boards_spread, cpu)                                                                          \
    T(boards_fleet, cpu)                                                                           \
    T(compare_devices, cpu)                                                                        \
    T(diagnose, cpu)                                                                               \
    T(changepoint_noise, cpu)                                                                      \
    T(changepoint_steps, cpu)                                                                      \
    T(changepoint_two_steps, cpu)                                                                  \
    T(changepoint_edges, cpu)                                                                      \
    T(store_history, cpu)                                                                          \
    T(term_escape, cpu)                                                                            \
    T(ptable_escape, cpu)                                                                          \
    T(changepoint_codes, cpu)                                                                      \
    T(history_not_time, cpu)                                                                       \
    T(mann_whitney, cpu)                                                                           \
    T(merge_idempotent, cpu)                                                                       \
    T(store_roundtrip, cpu)                                                                        \
    T(store_case_code, cpu)                                                                        \
    T(store_persists, cpu)                                                                         \
    T(store_refuses_foreign, cpu)                                                                  \
    T(store_refuses_newer, cpu)                                                                    \
    T(store_refuses_corrupt, cpu)                                                                  \
    T(store_refuses_unopenable, cpu)                                                               \
    T(store_refuses_cut, cpu)                                                                      \
    T(store_size_not_refused, cpu)                                                                 \
    T(store_migrate_lock, cpu)                                                                     \
    T(store_writer_meets_migration, cpu)                                                           \
    T(store_migrate_leftovers, cpu)                                                                \
    T(store_after_rollback, cpu)                                                                   \
    T(store_run_list, cpu)                                                                         \
    T(store_string_columns, cpu)                                                                   \
    T(store_columns_distinct, cpu)                                                                 \
    T(trace_label, cpu)                                                                            \
    T(trace_case, cpu)                                                                             \
    T(trace_samples, cpu)                                                                          \
    T(capture, cpu)                                                                                \
    T(api_set, cpu)                                                                                \
    T(attribute, cpu)                                                                              \
    T(trace_summary, cpu)                                                                          \
    T(summary_format, cpu)                                                                         \
    T(log_path, cpu)                                                                               \
    T(ptable, cpu)                                                                                 \
    T(metric_set_parse, cpu)                                                                       \
    T(metric_defs, cpu)                                                                            \
    T(metric_set_split, cpu)                                                                       \
    TA(store_migrates_v1, cpu, VB_TESTS_DIR "/schema_v1.sql")                                      \
    T(store_metrics, cpu)                                                                          \
    T(activity_append, cpu)                                                                        \
    T(export_lanes, cpu)                                                                           \
    T(export_graph, cpu)                                                                           \
    T(export_trace, cpu)                                                                           \
    T(export_fixtures, cpu)                                                                        \
    T(export_columns, cpu)                                                                         \
    T(export_header, cpu)                                                                          \
    T(store_efficiency, gpu)                                                                       \
    T(ufunc_clamp_seed_bug, cpu)                                                                   \
    T(ufunc_float_within_tolerance, cpu)                                                           \
    T(ufunc_fft_vs_direct_dft, cpu)                                                                \
    T(ufunc_fft_mask, cpu)                                                                         \
    T(ufunc_fft_float_error, cpu)                                                                  \
    T(ufunc_registry_problems, cpu)                                                                \
    T(ufunc_cpu_cases, cpu)                                                                        \
    T(saxpy_nvrtc_compiles, cpu)                                                                   \
    T(saxpy_nvrtc_log, cpu)                                                                        \
    T(saxpy_driver_lookup, cpu)                                                                    \
    T(saxpy_err_checkers, cpu)                                                                     \
    T(saxpy_setup_phases, cpu)

/* Each test returns 0 on success, 1 on a failed assertion, VB_TEST_SKIP (77) to skip. */
#define VB_TEST_PROTO(name, label)            int test_##name(const char *arg);
#define VB_TEST_PROTO_ARG(name, label, value) VB_TEST_PROTO(name, label)
VB_TESTS(VB_TEST_PROTO, VB_TEST_PROTO_ARG)
#undef VB_TEST_PROTO
#undef VB_TEST_PROTO_ARG

/* The helpers that are not tests, run by test_main.c under their own command names. */

/* test_gpu_variant runs GPU variant `full` ("family/variant") on its small points and checks
 * its results and records: the per-variant gpu tests. */
int test_gpu_variant(const char *full);
/* test_make_fixtures writes the fixture databases that cli.sh reads into folder `dir`. */
int test_make_fixtures(const char *dir);
/* test_make_trace_fixture writes trace.db, a traced program beside a suite run, into `dir`. */
int test_make_trace_fixture(const char *dir);
/* test_make_history_fixture writes history.db, 15 runs with one step, into `dir`. */
int test_make_history_fixture(const char *dir);
/* test_make_boards_fixture writes boards-*.db (test_boards.c: runs of several boards on
 * several nodes, one board 20% slower) into `dir`. */
int test_make_boards_fixture(const char *dir);
/* test_make_export_fixture writes export.db (fx_write_export_runs) into `dir` and prints what
 * each of its runs holds, one line a run: "run ID kernel=7,gpu_memcpy=3,...". */
int test_make_export_fixture(const char *dir);
/* test_declared_traffic prints what one sample of every GPU variant must copy at each of its
 * default points (the variant's traffic, no GPU needed), one tab-separated line a case:
 * "family/variant  axes  H2D bytes  H2D copies  D2H bytes  D2H copies", the axes as the store
 * writes them: ci/traffic-check --declared holds a run's records to it. */
int test_declared_traffic(void);

#endif
