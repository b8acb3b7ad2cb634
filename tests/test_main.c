/*
 * vbtest: the test runner. `vbtest NAME [ARG]` runs one test of the list in tests.h;
 * `vbtest --ctest EXE` prints the add_test() lines for every test, the listed ones and the gpu
 * ones generated from the registry (one per GPU variant), which CMake includes at test time
 * (gtest_discover_tests' approach), so ctest runs exactly what this binary holds.
 */
#include <stdio.h>
#include <string.h>

#include "nvtx.h"
#include "registry.h"
#include "test.h"
#include "tests.h"

#define ENTRY(name, label)            {#name, #label, test_##name, NULL},
#define ENTRY_ARG(name, label, value) {#name, #label, test_##name, value},
static const struct vb_test table[] = {VB_TESTS(ENTRY, ENTRY_ARG)};
#undef ENTRY
#undef ENTRY_ARG

/* emit prints the ctest lines for test `id` (label.id) running `exe cmd [arg]`; share: its
 * properties beyond the label (how a GPU test shares the board, tests/CMakeLists.txt), or "". */
static void emit(const char *exe, const char *label, const char *id, const char *cmd,
                 const char *arg, const char *share)
{
    printf("add_test([=[%s.%s]=] [=[%s]=] [=[%s]=]%s%s%s)\n", label, id, exe, cmd,
           arg ? " [=[" : "", arg ? arg : "", arg ? "]=]" : "");
    printf("set_tests_properties([=[%s.%s]=] PROPERTIES LABELS %s SKIP_RETURN_CODE 77%s)\n", label,
           id, label, share);
}

/* main runs the test or helper that argv names and exits with its code (0 pass, 1 fail, 77
 * skip), or prints the ctest lines; 2 for a command line it does not know. */
int main(int argc, char **argv)
{
    size_t i;
    int f, j;
    vb_families = vb_catalog;
    vb_nvtx_setup(); /* before any NVTX call, as in varbench itself */
    if (argc == 3 && !strcmp(argv[1], "--ctest")) {
        /* the listed GPU tests read the hardware counters (one process at a time: the
         * "counters" lock); a rung's test times and checks it, beside any other GPU test */
        for (i = 0; i < sizeof table / sizeof table[0]; i++)
            emit(argv[2], table[i].label, table[i].name, table[i].name, table[i].arg,
                 strcmp(table[i].label, "gpu") ? "" : " RESOURCE_LOCK counters");
        for (f = 0; vb_families[f]; f++)
            for (j = 0; j < vb_families[f]->nvariants; j++) {
                char id[160], full[160];
                if (!(vb_families[f]->variants[j].flags & VB_GPU)) continue;
                snprintf(id, sizeof id, "%s.%s", vb_families[f]->name,
                         vb_families[f]->variants[j].name);
                snprintf(full, sizeof full, "%s/%s", vb_families[f]->name,
                         vb_families[f]->variants[j].name);
                emit(argv[2], "gpu", id, "variant", full, "");
            }
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "variant") && argc == 3) return test_gpu_variant(argv[2]);
    /* a helper for cli.sh, not a test: writes fixture databases into a folder */
    if (argc == 3 && !strcmp(argv[1], "make_fixtures")) return test_make_fixtures(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "make_trace_fixture"))
        return test_make_trace_fixture(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "make_history_fixture"))
        return test_make_history_fixture(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "make_boards_fixture"))
        return test_make_boards_fixture(argv[2]);
    if (argc == 2 && !strcmp(argv[1], "declared_traffic")) return test_declared_traffic();
    if (argc == 3 && !strcmp(argv[1], "make_export_fixture"))
        return test_make_export_fixture(argv[2]);
    for (i = 0; argc >= 2 && i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(argv[1], table[i].name)) return table[i].fn(argc > 2 ? argv[2] : table[i].arg);
    fprintf(stderr, "usage: vbtest NAME [ARG] | vbtest --ctest EXE\n");
    return 2;
}
