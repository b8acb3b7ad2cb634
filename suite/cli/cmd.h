/*
 * cmd: the subcommands of varbench (git/perf style: one file each). Each takes argv after
 * the command name (argv[0] is the command) and returns a documented exit code; only these
 * and main() print.
 */
#ifndef VB_CMD_H
#define VB_CMD_H

#include <stdint.h>

int vb_cmd_list(int argc, char **argv);
int vb_cmd_run(int argc, char **argv);
int vb_cmd_compare(int argc, char **argv);
int vb_cmd_ab(int argc, char **argv);
int vb_cmd_bisect(int argc, char **argv);
int vb_cmd_diagnose(int argc, char **argv);
int vb_cmd_history(int argc, char **argv);
int vb_cmd_merge(int argc, char **argv);
int vb_cmd_export(int argc, char **argv);
int vb_cmd_report(int argc, char **argv);
int vb_cmd_trace(int argc, char **argv);
int vb_cmd_summary(int argc, char **argv);
int vb_cmd_runs(int argc, char **argv);
int vb_cmd_migrate(int argc, char **argv);
int vb_cmd_fleet(int argc, char **argv);
/* vb_cmd_fleet_merge: `varbench fleet merge DIR` (argv[0] is "merge"), the fleet's merge job. */
int vb_cmd_fleet_merge(int argc, char **argv);

/* The command table (commands.c): each command's name, function and line of help, in the order
 * `varbench --help` lists them. */
struct vb_command {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
};
#define VB_NCOMMANDS 15
extern const struct vb_command vb_commands[VB_NCOMMANDS];

/* What every command shares (cmd.c, called by the commands, never calling them). */

/* vb_report_error prints "varbench <cmd>: <msg>" and its "hint:" line to stderr, and returns the
 * exit code of err's class. */
struct vb_err;
int vb_report_error(const char *cmd, const struct vb_err *err);

/* vb_print_ranks writes the straggler line of each range a multi-rank traced run sampled
 * (judge/ranks.h): "==varbench== ranks: ...", one a range; nothing for other runs. The
 * after_head of summary's and trace's printing. 0 or -1 with err. */
#include <stdint.h>
#include <stdio.h>
struct vb_store;
int vb_print_ranks(FILE *out, struct vb_store *s, int64_t run_id, int csv, struct vb_err *err);

/* The program's name in messages: "varbench", or a benchmark program's own (vb_main). */
extern const char *vb_program;

/* The full command line and git commit, for the runs table. */
extern const char *vb_command_line;
/* vb_command_line_join: argv as one line (arguments with spaces quoted), malloc'd; NULL when
 * out of memory. */
char *vb_command_line_join(int argc, char **argv);
extern const char vb_git_commit[];

#endif
