/* store_ceilings: the ceilings' curves as one line of text (see store.h). */
#include <stdio.h>

#include "store.h"

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
