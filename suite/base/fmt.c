/* fmt: numbers as varbench prints them (see fmt.h). */
#include "fmt.h"

#include <math.h>
#include <stdio.h>

char *vb_fmt_bytes(unsigned long long n, char *buf, size_t len)
{
    char tmp[32];
    int k, d = snprintf(tmp, sizeof tmp, "%llu", n), o = 0;
    for (k = 0; k < d && (size_t)o + 2 < len; k++) {
        if (k && (d - k) % 3 == 0) buf[o++] = ',';
        buf[o++] = tmp[k];
    }
    buf[o] = '\0';
    return buf;
}

char *vb_fmt_num(double x, const char *fmt, char *buf, size_t len)
{
    if (isfinite(x))
        snprintf(buf, len, fmt, x);
    else
        snprintf(buf, len, "-");
    return buf;
}

char *vb_fmt_ms(double ns, char *buf, size_t len)
{
    double ms = ns / 1e6;
    if (!isfinite(ms))
        snprintf(buf, len, "-");
    else if (ms >= 100)
        snprintf(buf, len, "%.1f", ms);
    else if (ms >= 1)
        snprintf(buf, len, "%.3f", ms);
    else
        snprintf(buf, len, "%.4f", ms);
    return buf;
}
