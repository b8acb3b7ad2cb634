/* store_ceilings: the ceilings' names, and the ceilings and their curves as text (see store.h). */
#include <stdio.h>

#include "store.h"

static const char *const names[] = {
#define X(id, name) name,
    VB_CEILINGS(X)
#undef X
};

const char *vb_ceiling_name(enum vb_ceiling_id id)
{
    return id < VB_CEIL_COUNT ? names[id] : "?";
}

char *vb_ceilings_text(const double gbps[VB_CEIL_COUNT], const double ns[VB_CEIL_COUNT], char *buf,
                       size_t n)
{
    size_t len = 0;
    int k;
    if (!n) return buf;
    buf[0] = '\0';
    for (k = 0; k < VB_CEIL_CURVES && len < n; k++)
        if (gbps[k] > 0) /* a copy */
            len += (size_t)snprintf(buf + len, n - len, "%s %s %.1f GB/s", len ? "," : "", names[k],
                                    gbps[k]);
        else if (ns[k] > 0) /* a time */
            len += (size_t)snprintf(buf + len, n - len, "%s %s %.2f us", len ? "," : "", names[k],
                                    ns[k] / 1e3);
    return buf;
}

char *vb_ceilings_curves_text(const double gbps[VB_CEIL_COUNT], char *buf, size_t n)
{
    static const struct {
        const char *name;
        int first;
    } curves[] = {{"dram", VB_CEIL_DRAM_1MIB},
                  {"h2d_pageable", VB_CEIL_H2D_PAGEABLE_1MIB},
                  {"d2h_pageable", VB_CEIL_D2H_PAGEABLE_1MIB}};
    size_t len = 0, c;
    int k, any = 0;
    if (!n) return buf;
    buf[0] = '\0';
    for (c = 0; c < sizeof curves / sizeof curves[0]; c++)
        for (k = 0; k < VB_CEIL_CURVE_SIZES; k++)
            any |= gbps[curves[c].first + k] > 0;
    if (!any) return buf;
    len = (size_t)snprintf(buf, n, "curves, GB/s at 1, 4, 16, 64 MiB:");
    for (c = 0; c < sizeof curves / sizeof curves[0] && len < n; c++)
        for (k = 0; k < VB_CEIL_CURVE_SIZES && len < n; k++) {
            double g = gbps[curves[c].first + k];
            len += (size_t)snprintf(buf + len, n - len, "%s%s%s",
                                    k   ? "/"
                                    : c ? ", "
                                        : " ",
                                    k ? "" : curves[c].name, k ? "" : " ");
            if (len < n) len += (size_t)snprintf(buf + len, n - len, g > 0 ? "%.1f" : "-", g);
        }
    return buf;
}
