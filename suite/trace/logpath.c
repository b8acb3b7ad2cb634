/* logpath: nvprof's file name patterns (see logpath.h). */
#include "logpath.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"

/* put appends len bytes of s to out at *used; 0, or -1 when they do not fit (with the
 * terminator) in n bytes. */
static int put(char *out, size_t n, size_t *used, const char *s, size_t len)
{
    if (*used + len >= n) return -1;
    memcpy(out + *used, s, len);
    *used += len;
    out[*used] = '\0';
    return 0;
}

/* expand_one appends what the sequence at p (just after a '%') stands for and sets *skip to the
 * pattern characters it used. 0, or -1 with err (out of room: VB_E_USAGE "too long"). */
static int expand_one(const char *pattern, const char *p, long pid, char *out, size_t n,
                      size_t *used, size_t *skip, struct vb_err *err)
{
    char buf[256];
    const char *v, *close;
    *skip = 1;
    switch (*p) {
    case 'p':
        snprintf(buf, sizeof buf, "%ld", pid);
        v = buf;
        break;
    case 'h':
        if (gethostname(buf, sizeof buf))
            return vb_err_set(err, VB_E_SYS, "log file pattern '%s': cannot read the host name: %s",
                              pattern, strerror(errno));
        buf[sizeof buf - 1] = '\0';
        v = buf;
        break;
    case '%':
        v = "%";
        break;
    case 'q':
        close = p[1] == '{' ? strchr(p + 2, '}') : NULL;
        if (!close || close == p + 2) {
            vb_err_set(err, VB_E_USAGE, "log file pattern '%s': %%q needs a variable, %%q{ENV}",
                       pattern);
            return vb_err_hint(err, "%%q{HOME} is the value of $HOME; %%%% is a literal %%");
        }
        snprintf(buf, sizeof buf, "%.*s", (int)(close - p - 2), p + 2);
        *skip = (size_t)(close - p) + 1;
        if (!(v = getenv(buf))) {
            vb_err_set(err, VB_E_USAGE,
                       "log file pattern '%s': environment variable '%s' is not set", pattern, buf);
            return vb_err_hint(err, "set %s, or leave %%q{%s} out of the pattern", buf, buf);
        }
        break;
    case '\0':
        vb_err_set(err, VB_E_USAGE, "log file pattern '%s' ends with a lone '%%'", pattern);
        return vb_err_hint(err, "%%%% is a literal %%");
    default:
        vb_err_set(err, VB_E_USAGE, "log file pattern '%s': unknown '%%%c'", pattern, *p);
        return vb_err_hint(err, "the patterns are %%p (process id), %%q{ENV} (an environment "
                                "variable), %%h (host name) and %%%% (a literal %%)");
    }
    if (put(out, n, used, v, strlen(v)))
        return vb_err_set(err, VB_E_USAGE, "log file pattern '%s': the file name is too long",
                          pattern);
    return 0;
}

int vb_log_path(const char *pattern, long pid, char *out, size_t n, struct vb_err *err)
{
    size_t used = 0, skip;
    const char *p;
    if (!n) return vb_err_set(err, VB_E_USAGE, "log file pattern '%s': no room", pattern);
    out[0] = '\0';
    for (p = pattern; *p; p++) {
        if (*p != '%') {
            if (put(out, n, &used, p, 1)) {
                out[0] = '\0';
                return vb_err_set(err, VB_E_USAGE,
                                  "log file pattern '%s': the file name is too long", pattern);
            }
            continue;
        }
        if (expand_one(pattern, p + 1, pid, out, n, &used, &skip, err)) {
            out[0] = '\0';
            return -1;
        }
        p += skip;
    }
    if (!used) return vb_err_set(err, VB_E_USAGE, "log file pattern '%s' names no file", pattern);
    return 0;
}

FILE *vb_log_open(const char *pattern, long pid, char *path, size_t n, struct vb_err *err)
{
    FILE *f;
    if (vb_log_path(pattern, pid, path, n, err)) return NULL;
    if (!(f = fopen(path, "w"))) {
        vb_err_set(err, VB_E_SYS, "cannot write '%s': %s", path, strerror(errno));
        if (errno == ENOENT) vb_err_hint(err, "its folder does not exist");
        return NULL;
    }
    return f;
}
