/*
 * abi.c: the layout of the public structs (include/varbench.h) as this build compiled them, for
 * the Python package's ctypes mirrors (python/varbench/_abi.py) to be checked against at import:
 * vb_py_abi(name) is sizeof(struct NAME) for "NAME", offsetof for "NAME.FIELD", -1 for a name
 * it does not know. Exported from libvarbench.so only; not part of varbench.h.
 */
#include <stddef.h>
#include <string.h>

#include <varbench.h>

#define SIZE(s)     {#s, sizeof(struct s)},
#define FIELD(s, f) {#s "." #f, offsetof(struct s, f)},

static const struct {
    const char *name;
    size_t value;
} layout[] = {
    SIZE(vb_err) FIELD(vb_err, code) FIELD(vb_err, msg) FIELD(vb_err, hint)
    SIZE(vb_axis) FIELD(vb_axis, name) FIELD(vb_axis, doc) FIELD(vb_axis, defaults)
    FIELD(vb_axis, ndefaults) FIELD(vb_axis, min) FIELD(vb_axis, max) FIELD(vb_axis, labels)
    FIELD(vb_axis, same_as) FIELD(vb_axis, spec) FIELD(vb_axis, kind) FIELD(vb_axis, fdefaults)
    FIELD(vb_axis, fmin) FIELD(vb_axis, fmax)
    SIZE(vb_point) FIELD(vb_point, v) FIELD(vb_point, problem)
    SIZE(vb_traffic) FIELD(vb_traffic, h2d_bytes) FIELD(vb_traffic, d2h_bytes)
    FIELD(vb_traffic, h2d_count) FIELD(vb_traffic, d2h_count) FIELD(vb_traffic, mapped_in_bytes)
    FIELD(vb_traffic, mapped_out_bytes) FIELD(vb_traffic, gmem_read_bytes)
    FIELD(vb_traffic, gmem_write_bytes) FIELD(vb_traffic, elements) FIELD(vb_traffic, flops)
    SIZE(vb_problem) FIELD(vb_problem, name) FIELD(vb_problem, summary) FIELD(vb_problem, axes)
    FIELD(vb_problem, naxes) FIELD(vb_problem, out_len) FIELD(vb_problem, reference)
    FIELD(vb_problem, atol) FIELD(vb_problem, rtol) FIELD(vb_problem, kernel_bytes)
    FIELD(vb_problem, reference_part)
    SIZE(vb_variant_ops) FIELD(vb_variant_ops, setup) FIELD(vb_variant_ops, poison)
    FIELD(vb_variant_ops, fetch) FIELD(vb_variant_ops, teardown)
    SIZE(vb_variant) FIELD(vb_variant, name) FIELD(vb_variant, summary) FIELD(vb_variant, flags)
    FIELD(vb_variant, tag) FIELD(vb_variant, run) FIELD(vb_variant, traffic)
    FIELD(vb_variant, problem)
    SIZE(vb_family) FIELD(vb_family, name) FIELD(vb_family, summary) FIELD(vb_family, seed)
    FIELD(vb_family, ops) FIELD(vb_family, variants) FIELD(vb_family, nvariants)
};

__attribute__((visibility("default"))) long vb_py_abi(const char *name)
{
    size_t i;
    for (i = 0; name && i < sizeof layout / sizeof layout[0]; i++)
        if (!strcmp(layout[i].name, name)) return (long)layout[i].value;
    return -1;
}
