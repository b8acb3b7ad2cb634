/* list: the catalog, its axes and seeds (`varbench list [--filter GLOB]`); a family of several
 * problems lists each with its own axes. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "metric_set.h"
#include "opt.h"
#include "registry.h"
#include "sweep.h"

static const int codes[] = {0, 2, -1};
static const struct vb_usage usage = {
    .cmd = "list",
    .synopsis = "[--filter GLOB]\n--metrics [--names]",
    .about =
        "Lists every family (its seed and axes with their defaults) and every variant. A family\n"
        "that computes several functions (ufunc) lists each with its own axes and variants.\n"
        "The catalog and the seeds it implements: variants/README.md, variants/seeds/.\n",
    .codes = codes,
};

/* print_axes writes "  axes: name=defaults [min..max]; ..." for problem pb. */
static void print_axes(const struct vb_problem *pb, const char *indent)
{
    int a, k;
    printf("%saxes:", indent);
    for (a = 0; a < pb->naxes; a++) {
        const struct vb_axis *x = &pb->axes[a];
        printf("%s %s=", a ? ";" : "", x->name);
        if (x->same_as) {
            printf("(same as %s)", x->same_as);
        } else {
            long vals[VB_MAX_AXIS_VALUES];
            int nv = vb_axis_defaults(x, vals, VB_MAX_AXIS_VALUES, NULL);
            for (k = 0; k < nv; k++) {
                char v[64];
                printf("%s%s", k ? "," : "", vb_axis_value_name(x, vals[k], v, sizeof v));
            }
        }
        if (x->labels) {
            long l;
            printf(" {");
            for (l = x->min; l <= x->max; l++)
                printf("%s%s", l ? "," : "", x->labels[l]);
            printf("}");
        } else if (vb_axis_unbounded(x)) {
            printf(x->kind == VB_AXIS_FLOAT ? " [float]" : " [0..]");
        } else if (x->kind == VB_AXIS_FLOAT) {
            printf(" [%g..%g]", x->fmin, x->fmax);
        } else {
            printf(" [%ld..%ld]", x->min, x->max);
        }
    }
    printf("\n");
}

/* print_variants lists f's variants of problem pb that match filter; returns how many. */
static int print_variants(const struct vb_family *f, const struct vb_problem *pb,
                          const char *filter, const char *indent)
{
    int j, shown = 0;
    for (j = 0; j < f->nvariants; j++) {
        const struct vb_variant *v = &f->variants[j];
        char full[160];
        if (v->problem != pb || !vb_variant_matches(f, v, filter)) continue;
        snprintf(full, sizeof full, "%s/%s", f->name, v->name);
        printf("%s%-28s %-4s %s\n", indent, full, v->flags & VB_GPU ? "gpu" : "cpu", v->summary);
        shown++;
    }
    return shown;
}

int vb_cmd_list(int argc, char **argv)
{
    const char *filter = NULL;
    int i, j, k, n, rc, shown = 0, metrics = 0, names = 0, cases;
    struct vb_sweep sw = {0}; /* one device (0, 0), the default axes */
    const struct vb_opt opts[] = {
        VB_OPT_STR('f', "filter", "GLOB", &filter,
                   "only variants whose family/variant name matches GLOB (e.g. 'mesh/*')"),
        VB_OPT_FLAG(0, "metrics", &metrics,
                    "the metrics varbench knows: nvprof name, Nsight Compute name, whether\n"
                    "the metrics pass collects it by default, what it means"),
        VB_OPT_FLAG(0, "names", &names,
                    "with --metrics: the default set's names only, one per line"),
        VB_OPT_END()};
    if ((rc = vb_opt_parse(&usage, opts, argc, argv, &n))) return rc == 1 ? 0 : rc;
    if (names && !metrics) return vb_opt_error(&usage, "--names goes with --metrics");
    if (metrics) {
        if (filter) return vb_opt_error(&usage, "--metrics takes no --filter");
        vb_metric_list_print(stdout, names);
        return 0;
    }
    for (i = 0; vb_families[i]; i++) {
        const struct vb_family *f = vb_families[i];
        const struct vb_problem *pbs[VB_MAX_PROBLEMS];
        int np = vb_family_problems(f, pbs, VB_MAX_PROBLEMS);
        if (!vb_family_selected(f, filter)) continue;
        printf("%s: %s\n", f->name, f->summary);
        if (f->seed && *f->seed) printf("  seed: variants/seeds/%s\n", f->seed);
        if (np == 1) { /* one function: its axes are the family's, its variants the family's */
            print_axes(pbs[0], "  ");
            shown += print_variants(f, pbs[0], filter, "  ");
            continue;
        }
        for (k = 0; k < np && k < VB_MAX_PROBLEMS; k++) {
            int hit = 0;
            for (j = 0; j < f->nvariants; j++)
                hit |= f->variants[j].problem == pbs[k] &&
                       vb_variant_matches(f, &f->variants[j], filter);
            if (!hit) continue;
            printf("  %s: %s\n", pbs[k]->name, pbs[k]->summary);
            print_axes(pbs[k], "    ");
            shown += print_variants(f, pbs[k], filter, "    ");
        }
    }
    if (!shown) {
        char hint[256];
        return vb_opt_error_hint(&usage,
                                 vb_suggest_variant(filter ? filter : "", hint, sizeof hint),
                                 "no variant matches '%s'", filter ? filter : "");
    }
    /* what `run` with the same filter makes: the README's catalog size is checked against it */
    sw.filter = filter;
    cases = vb_sweep_count(&sw);
    printf("%d variant%s, %d case%s at the default axes on one GPU\n", shown, shown == 1 ? "" : "s",
           cases, cases == 1 ? "" : "s");
    return 0;
}
