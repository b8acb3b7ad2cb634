/*
 * cmd: what every command shares (see cmd.h): the error report, the command line and the ranks'
 * lines of summary and trace. Apart from
 * main.c, so that the commands call into it and main.c into them, one way.
 */
#include "cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "escape.h"
#include "ranks.h"

const char *vb_command_line = "";
const char *vb_program = "varbench";

int vb_report_error(const char *cmd, const struct vb_err *err)
{
    fprintf(stderr, "%s %s: %s\n", vb_program, cmd, err->msg);
    if (err->hint[0]) fprintf(stderr, "hint: %s\n", err->hint);
    return vb_code_exit(err->code);
}

char *vb_command_line_join(int argc, char **argv)
{
    size_t len = 1;
    char *s;
    int i;
    for (i = 0; i < argc; i++)
        len += strlen(argv[i]) + 3;
    s = malloc(len);
    if (!s) return NULL;
    s[0] = '\0';
    for (i = 0; i < argc; i++) {
        int q = strchr(argv[i], ' ') != NULL || !argv[i][0];
        strcat(s, i ? " " : "");
        strcat(s, q ? "'" : "");
        strcat(s, argv[i]);
        strcat(s, q ? "'" : "");
    }
    return s;
}

int vb_print_ranks(FILE *out, struct vb_store *s, int64_t run_id, int csv, struct vb_err *err)
{
    struct vb_rank_spread *x;
    char line[1024];
    int n, i;
    (void)csv; /* a section line in both */
    if (vb_rank_spreads(s, run_id, &x, &n, err)) return -1;
    for (i = 0; i < n; i++) {
        fputs("==varbench== ranks: ", out);
        vb_put_term(out, vb_rank_spread_text(&x[i], line, sizeof line));
        fputc('\n', out);
    }
    free(x);
    return 0;
}
