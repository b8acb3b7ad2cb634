/* demangle: vb_summary_demangle (summary.h), apart from the tables so that the injection library
 * names kernels as the summary does without linking the summary's readers. */
#include "summary.h"

#include <stdlib.h>
#include <string.h>

/* libstdc++'s demangler, when the program links it (varbench and the injection do, through the
 * profiler's C++); without it kernels keep their mangled names. */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status)
    __attribute__((weak));

char *vb_summary_demangle(const char *mangled)
{
    int st = -1;
    char *d = __cxa_demangle && !strncmp(mangled, "_Z", 2)
                  ? __cxa_demangle(mangled, NULL, NULL, &st)
                  : NULL;
    if (d && st == 0) return d;
    free(d);
    return strdup(mangled);
}
