/* list: the catalog, its axes and seeds (`varbench list [--filter GLOB]`), a family's problems
 * each with their own axes. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "metric_set.h"
#include "registry.h"

static const char usage[] =
    "usage: varbench list [--filter GLOB]\n"
    "       varbench list --metrics [--names]\n"
    "\n"
    "Lists every family (its seed and axes with their defaults) and every variant. A family\n"
    "that computes several functions (ufunc) lists each with its own axes and variants.\n"
    "  -f, --filter GLOB   only variants whose family/variant name matches GLOB (e.g. 'mesh/*')\n"
    "      --metrics       the metrics varbench knows: nvprof name, Nsight Compute name, whether\n"
    "                      the metrics pass collects it by default, what it means\n"
    "      --names         with --metrics: the default set's names only, one per line\n"
    "  -h, --help          this text\n"
    "\n"
    "exit codes: 0 listed, 2 usage error (unknown flag, nothing matches)\n";

/* print_axes writes "  axes: name=defaults [min..max]; ..." for f (a family or a problem view). */
static void print_axes(const struct vb_family *f, const char *indent)
{
    int a, k;
    printf("%saxes:", indent);
    for (a = 0; a < f->naxes; a++) {
        const struct vb_axis *x = &f->axes[a];
        printf("%s %s=", a ? ";" : "", x->name);
        if (x->same_as) {
            printf("(same as %s)", x->same_as);
        } else {
            for (k = 0; k < x->ndefaults; k++) {
                char v[64];
                printf("%s%s", k ? "," : "", vb_axis_value_name(x, x->defaults[k], v, sizeof v));
            }
        }
        if (x->labels) {
            long l;
            printf(" {");
            for (l = x->min; l <= x->max; l++) printf("%s%s", l ? "," : "", x->labels[l]);
            printf("}");
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
    static const struct option opts[] = {
        {"filter", required_argument, NULL, 'f'}, {"help", no_argument, NULL, 'h'},
        {"metrics", no_argument, NULL, 'm'}, {"names", no_argument, NULL, 'n'}, {0, 0, 0, 0}};
    const char *filter = NULL;
    int c, i, j, k, shown = 0, metrics = 0, names = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":f:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            filter = optarg;
            break;
        case 'm':
            metrics = 1;
            break;
        case 'n':
            names = 1;
            break;
        case 'h':
            fputs(usage, stdout);
            return 0;
        case ':':
            fprintf(stderr, "varbench list: option '%s' needs a value\n%s", argv[optind - 1], usage);
            return 2;
        default:
            fprintf(stderr, "varbench list: unknown option '%s'\n%s", argv[optind - 1], usage);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "varbench list: unexpected argument '%s'\n%s", argv[optind], usage);
        return 2;
    }
    if (names && !metrics) {
        fprintf(stderr, "varbench list: --names goes with --metrics\n%s", usage);
        return 2;
    }
    if (metrics) {
        if (filter) {
            fprintf(stderr, "varbench list: --metrics takes no --filter\n%s", usage);
            return 2;
        }
        vb_metric_list_print(stdout, names);
        return 0;
    }
    for (i = 0; vb_families[i]; i++) {
        const struct vb_family *f = vb_families[i];
        const struct vb_problem *pbs[VB_MAX_PROBLEMS];
        int any = 0, np = vb_family_problems(f, pbs, VB_MAX_PROBLEMS);
        for (j = 0; j < f->nvariants; j++) any |= vb_variant_matches(f, &f->variants[j], filter);
        if (!any) continue;
        printf("%s: %s\n  seed: shared/seeds/%s\n", f->name, f->summary, f->seed);
        if (np == 1 && !pbs[0]) { /* one function: the family's own axes */
            print_axes(f, "  ");
            shown += print_variants(f, NULL, filter, "  ");
            continue;
        }
        for (k = 0; k < np && k < VB_MAX_PROBLEMS; k++) {
            struct vb_family view;
            int hit = 0;
            for (j = 0; j < f->nvariants; j++)
                hit |= f->variants[j].problem == pbs[k] &&
                       vb_variant_matches(f, &f->variants[j], filter);
            if (!hit) continue;
            vb_problem_view(f, pbs[k], &view);
            printf("  %s: %s\n", pbs[k] ? pbs[k]->name : f->name,
                   pbs[k] ? pbs[k]->summary : f->summary);
            print_axes(&view, "    ");
            shown += print_variants(f, pbs[k], filter, "    ");
        }
    }
    if (!shown) {
        fprintf(stderr, "varbench list: no variant matches '%s'\n", filter ? filter : "");
        return 2;
    }
    return 0;
}
