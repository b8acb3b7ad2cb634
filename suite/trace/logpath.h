/*
 * logpath: the file name patterns of nvprof's --log-file and -o (and nsys's -o), so a script
 * written for them names varbench's files the same way: %p the process id, %q{ENV} the value of
 * the environment variable ENV, %h the host name, %% a literal %. Used by `varbench summary
 * --log-file` (%p is varbench's own pid) and `varbench trace --log-file` / -o (%p is the traced
 * program's). Workload: one pattern per command.
 */
#ifndef VB_LOGPATH_H
#define VB_LOGPATH_H

#include <stddef.h>
#include <stdio.h>

struct vb_err;

/* vb_log_path expands pattern into out (n bytes) with pid for %p. Returns 0, or -1 with err
 * (VB_E_USAGE) naming what is wrong: an unset environment variable of %q{ENV} (by name), a %q
 * without {ENV}, an unknown %-sequence or a lone % at the end, an empty result, or a result
 * that does not fit in n bytes. out is always terminated; on failure it holds "". */
int vb_log_path(const char *pattern, long pid, char *out, size_t n, struct vb_err *err);

/* vb_log_open expands pattern (vb_log_path) into path (n bytes) and creates or truncates that
 * file for writing. Returns the stream (the caller closes it), or NULL with err: vb_log_path's
 * errors, or VB_E_SYS "cannot write 'PATH': REASON" when the file cannot be opened. */
FILE *vb_log_open(const char *pattern, long pid, char *path, size_t n, struct vb_err *err);

#endif
