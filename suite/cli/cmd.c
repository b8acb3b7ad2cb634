/*
 * cmd: what every command shares (see cmd.h): the error report and the command line. Apart from
 * main.c, so that the commands call into it and main.c into them, one way.
 */
#include "cmd.h"

#include <stdio.h>

#include "err.h"

const char *vb_command_line = "";

int vb_report_error(const char *cmd, const struct vb_err *err)
{
    fprintf(stderr, "varbench %s: %s\n", cmd, err->msg);
    if (err->hint[0]) fprintf(stderr, "hint: %s\n", err->hint);
    return vb_code_exit(err->code);
}
