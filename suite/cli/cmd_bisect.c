/*
 * bisect: `varbench bisect GOOD BAD --build CMD --exe PATH`, the first commit of a git range
 * whose build is slower than GOOD's, with `varbench ab` as git bisect run's oracle. GOOD is
 * checked out and built once, its program (PATH, relative to the work tree) kept aside as the
 * base; then git bisect runs this program's hidden step at each commit it picks: build, `ab`
 * against the base on the same GPU, exit 0 (good: no regression), 1 (bad: slower or broken),
 * 125 (skip: the build failed, or ab could not decide). The first bad commit is printed with
 * its ab table, the steps' builds and runs and the wall time; the work tree goes back to the
 * commit it was on. Workload: a few builds and ab runs; this only drives them.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "cmd.h"
#include "err.h"
#include "opt.h"
#include "proc.h"

static const int codes[] = {0, 1, 2, 6, 7, -1};
static const struct vb_usage usage = {
    .cmd = "bisect",
    .synopsis = "GOOD BAD --build CMD --exe PATH [options]",
    .about =
        "Finds the first commit between GOOD and BAD (git revisions of the work tree you are\n"
        "in) whose build is slower than GOOD's: GOOD is built once (CMD, run by sh in the work\n"
        "tree's top) and its program PATH kept aside; git bisect run then builds each commit it\n"
        "picks and pairs it with GOOD's on one GPU (varbench ab): no regression is good, slower "
        "or\n"
        "broken is bad, a failed build or an undecided ab is skipped. Prints the first bad commit\n"
        "and its ab table, and puts the work tree back on the commit it was on.\n",
    .notes = "The work tree must be clean (git stash first). PATH is a varbench binary or a\n"
             "benchmark program built with varbench, relative to the tree's top\n"
             "(build/varbench). Exit 1: a first bad commit was found; 0: BAD is not slower than\n"
             "GOOD; 7: git bisect could not tell (every candidate skipped); 6: git or the first\n"
             "build failed. The builds' and ab's logs stay in $TMPDIR/varbench-bisect-XXXXXX\n"
             "(/tmp without TMPDIR), named on the last line.\n",
    .codes = codes,
    .min_args = 2,
    .max_args = 2,
    .expects = "GOOD and BAD, two git revisions",
};

struct opts {
    const char *build, *exe, *filter, *threshold;
    struct vb_opt_list axes; /* --axis, as given */
    int device;
    const char *step; /* --step DIR (hidden): one git bisect run step, DIR the bisection's */
};

/* sh runs argv (NULL-terminated) in the current folder, its output to out (NULL: inherited);
 * returns its exit status, 128 + the signal, or -1 when it could not start */
static int sh(char *const argv[], const char *out)
{
    pid_t pid;
    int st;
    fflush(NULL);
    if ((pid = fork()) < 0) return -1;
    if (pid == 0) {
        if (out) {
            int fd = open(out, O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) _exit(126);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    if (waitpid(pid, &st, 0) != pid) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* git_out: the first line of `git ARG...`'s output (the args NULL-terminated, given to git as
 * they are, no shell) into buf; 0, or -1 when git failed or said nothing */
static int git_out(char *buf, size_t n, ...)
{
    char *argv[8] = {"git"};
    struct vb_proc p;
    struct vb_err err;
    va_list ap;
    int k = 1, rc;
    va_start(ap, n);
    while (k < 7 && (argv[k] = va_arg(ap, char *)))
        k++;
    va_end(ap);
    argv[k] = NULL;
    if (vb_proc_run(argv, NULL, NULL, 600, &p, &err)) return -1;
    rc = p.status == 0 && p.out && p.out[0] ? 0 : -1;
    if (!rc) snprintf(buf, n, "%.*s", (int)strcspn(p.out, "\n"), p.out);
    vb_proc_free(&p);
    return rc;
}

/* copy_exe copies the file from to to, executable */
static int copy_exe(const char *from, const char *to)
{
    char buf[1 << 16];
    ssize_t k;
    int in = open(from, O_RDONLY), out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
    int rc = in < 0 || out < 0 ? -1 : 0;
    while (!rc && (k = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)k) != k) rc = -1;
    if (in >= 0) close(in);
    if (out >= 0 && close(out)) rc = -1;
    return rc;
}

/* ab_args fills av with `SELF ab BASE EXE --db DB ...` from o; returns the count */
static int ab_args(char **av, const struct opts *o, const char *self, const char *base,
                   const char *db, char *dev)
{
    int n = 0, i;
    av[n++] = (char *)self;
    av[n++] = "ab";
    av[n++] = (char *)base;
    av[n++] = (char *)o->exe;
    av[n++] = "--db";
    av[n++] = (char *)db;
    av[n++] = "--device";
    av[n++] = dev;
    if (o->filter) av[n++] = "--filter", av[n++] = (char *)o->filter;
    if (o->threshold) av[n++] = "--threshold", av[n++] = (char *)o->threshold;
    for (i = 0; i < o->axes.n; i++)
        av[n++] = "--axis", av[n++] = (char *)o->axes.v[i];
    av[n] = NULL;
    return n;
}

/* step: one commit of git bisect run: build, ab against the base, the verdict as git's code */
static int step(const struct opts *o, const char *self)
{
    char sha[64], log[1024], base[1024], db[1024], dev[16], *av[64];
    char *build[] = {"sh", "-c", (char *)o->build, NULL};
    int rc;
    if (git_out(sha, sizeof sha, "rev-parse", "--short", "HEAD", NULL)) return 128;
    snprintf(log, sizeof log, "%s/%s.txt", o->step, sha);
    snprintf(base, sizeof base, "%s/base", o->step);
    snprintf(db, sizeof db, "%s/ab.db", o->step);
    snprintf(dev, sizeof dev, "%d", o->device);
    if (sh(build, log) != 0) return 125; /* no build here: git bisect skips the commit */
    ab_args(av, o, self, base, db, dev);
    rc = sh(av, log);
    return rc == 0 ? 0 : rc == 1 ? 1 : rc == 7 ? 125 : 128; /* 128: git bisect run stops */
}

/* first_bad reads git bisect run's output for "SHA is the first bad commit" */
static int first_bad(const char *path, char *sha, size_t n)
{
    char line[1024];
    FILE *f = fopen(path, "r");
    int found = 0;
    if (!f) return 0;
    while (!found && fgets(line, sizeof line, f))
        if (strstr(line, " is the first bad commit")) {
            snprintf(sha, n, "%.*s", (int)strcspn(line, " "), line);
            found = 1;
        }
    fclose(f);
    return found;
}

/* count_steps: the commits built, one log each in dir (SHA.txt; not good.txt or bisect.txt) */
static int count_steps(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d) return 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        n += len > 4 && !strcmp(e->d_name + len - 4, ".txt") && strcmp(e->d_name, "good.txt") &&
             strcmp(e->d_name, "bisect.txt");
    }
    closedir(d);
    return n;
}

/* show prints a file */
static void show(const char *path)
{
    char buf[4096];
    size_t k;
    FILE *f = fopen(path, "r");
    if (!f) return;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, k, stdout);
    fclose(f);
}

int vb_cmd_bisect(int argc, char **argv)
{
    struct opts o = {.device = 0};
    char top[1024], head[128], dir[1024], self[1024], path[1200], runlog[1200], sha[64];
    char dev[16], *av[96], rev[2][64]; /* GOOD's and BAD's commits */
    struct vb_err err;
    double t0 = vb_mono_ns();
    int n, rc, i, code, steps = 0;
    ssize_t len;
    const struct vb_opt opts[] = {
        VB_OPT_STR(0, "build", "CMD", &o.build,
                   "the build, run by sh in the work tree's top (required)"),
        VB_OPT_STR(0, "exe", "PATH", &o.exe,
                   "the program it builds, relative to the tree's top (required)"),
        VB_OPT_STR('f', "filter", "GLOB", &o.filter, "the cases ab pairs ('mesh/*')"),
        VB_OPT_LIST(0, "axis", "NAME=V1,V2", &o.axes, "axis values, as for run"),
        VB_OPT_INT(0, "device", "N", &o.device, 0, 63, "the CUDA device (0)"),
        VB_OPT_STR(0, "threshold", "PCT", &o.threshold, "ab's --threshold (default 2)"),
        {.type = VB_OPT_T_STR,
         .long_name = "step",
         .arg = "DIR",
         .value = &o.step,
         .flags = VB_OPT_HIDDEN}, /* git bisect run's command: one step */
        VB_OPT_END()};
    if ((rc = vb_opt_parse(&usage, opts, argc, argv, &n))) return rc == 1 ? 0 : rc;
    if (!o.build || !o.exe)
        return vb_opt_error(&usage, "--build CMD and --exe PATH are both needed");
    if ((len = readlink("/proc/self/exe", self, sizeof self - 1)) < 0)
        return vb_opt_error(&usage, "cannot find this program (/proc/self/exe)");
    self[len] = '\0';
    if (o.step) return step(&o, self);
    vb_err_clear(&err);
    if (git_out(top, sizeof top, "rev-parse", "--show-toplevel", NULL) || chdir(top))
        return vb_opt_error_hint(&usage, "run it inside the repository to bisect",
                                 "not in a git work tree");
    {
        char *status[] = {"git", "diff", "--quiet", "HEAD", NULL};
        if (sh(status, "/dev/null") != 0)
            return vb_opt_error_hint(&usage, "commit or 'git stash' your changes first",
                                     "the work tree has changes: bisect checks out other commits");
    }
    if (git_out(head, sizeof head, "symbolic-ref", "--short", "-q", "HEAD", NULL) &&
        git_out(head, sizeof head, "rev-parse", "HEAD", NULL))
        return vb_opt_error(&usage, "git cannot name HEAD");
    /* GOOD and BAD as commits: HEAD~3 names another one once something is checked out */
    for (i = 1; i <= 2; i++) {
        char spec[300];
        snprintf(spec, sizeof spec, "%s^{commit}", argv[i]);
        if (git_out(rev[i - 1], sizeof rev[i - 1], "rev-parse", "-q", "--verify", spec, NULL))
            return vb_opt_error(&usage, "'%s' is not a revision of this repository", argv[i]);
    }
    vb_proc_tmp_template(dir, sizeof dir, "varbench-bisect");
    if (!mkdtemp(dir)) {
        vb_err_set(&err, VB_E_SYS, "mkdtemp: %s", strerror(errno));
        return vb_report_error("bisect", &err);
    }
    /* GOOD's build, kept aside as the base */
    {
        char *co[] = {"git", "checkout", "-q", rev[0], NULL};
        char *build[] = {"sh", "-c", (char *)o.build, NULL};
        snprintf(runlog, sizeof runlog, "%s/good.txt", dir);
        snprintf(path, sizeof path, "%s/base", dir);
        if (sh(co, runlog) || sh(build, runlog) || copy_exe(o.exe, path)) {
            char *back[] = {"git", "checkout", "-q", head, NULL};
            sh(back, "/dev/null");
            vb_err_set(&err, VB_E_SYS, "%s's build failed or made no %s (its log: %s)", argv[1],
                       o.exe, runlog);
            return vb_report_error("bisect", &err);
        }
    }
    /* BAD first (git bisect takes it as bad untested): a BAD no slower ends it here */
    {
        char *co[] = {"git", "checkout", "-q", rev[1], NULL};
        char *back[] = {"git", "checkout", "-q", head, NULL};
        int verdict;
        o.step = dir;
        verdict = sh(co, runlog) ? 128 : step(&o, self);
        sh(back, "/dev/null");
        o.step = NULL;
        if (verdict != 1) {
            git_out(sha, sizeof sha, "rev-parse", "--short", rev[1], NULL);
            snprintf(path, sizeof path, "%s/%s.txt", dir, sha);
            show(path);
            printf("\n%s\n", verdict == 0     ? "BAD is not slower than GOOD: nothing to bisect"
                             : verdict == 125 ? "BAD's build failed, or ab could not decide it"
                                              : "git or ab failed");
            return verdict == 0     ? 0
                   : verdict == 125 ? vb_code_exit(VB_E_INCONCLUSIVE)
                                    : vb_code_exit(VB_E_SYS);
        }
    }
    /* git bisect run, this program's --step at each commit */
    {
        char *start[] = {"git", "bisect", "start", rev[1], rev[0], NULL};
        char *reset[] = {"git", "bisect", "reset", NULL};
        char *back[] = {"git", "checkout", "-q", head, NULL};
        int k = 0;
        av[k++] = "git";
        av[k++] = "bisect";
        av[k++] = "run";
        av[k++] = self;
        av[k++] = "bisect";
        av[k++] = rev[0];
        av[k++] = rev[1];
        av[k++] = "--step";
        av[k++] = dir;
        av[k++] = "--build";
        av[k++] = (char *)o.build;
        av[k++] = "--exe";
        av[k++] = (char *)o.exe;
        av[k++] = "--device";
        snprintf(dev, sizeof dev, "%d", o.device);
        av[k++] = dev;
        if (o.filter) av[k++] = "--filter", av[k++] = (char *)o.filter;
        if (o.threshold) av[k++] = "--threshold", av[k++] = (char *)o.threshold;
        for (i = 0; i < o.axes.n; i++)
            av[k++] = "--axis", av[k++] = (char *)o.axes.v[i];
        av[k] = NULL;
        snprintf(runlog, sizeof runlog, "%s/bisect.txt", dir);
        rc = sh(start, runlog) == 0 ? sh(av, runlog) : -1;
        sh(reset, "/dev/null");
        sh(back, "/dev/null");
    }
    steps = count_steps(dir);
    if (rc < 0) {
        vb_err_set(&err, VB_E_SYS, "git bisect failed (its log: %s)", runlog);
        return vb_report_error("bisect", &err);
    }
    if (first_bad(runlog, sha, sizeof sha)) {
        char subject[256] = "", shortsha[64];
        git_out(subject, sizeof subject, "log", "-1", "--format=%s", sha, NULL);
        git_out(shortsha, sizeof shortsha, "rev-parse", "--short", sha, NULL);
        printf("first bad commit: %s %s\n", shortsha, subject);
        printf("evidence: %s's build against %s's, paired on device %d (varbench ab):\n\n",
               shortsha, argv[1], o.device);
        snprintf(path, sizeof path, "%s/%s.txt", dir, shortsha);
        show(path);
        code = 1;
    } else {
        printf("git bisect run ended with %d (its log: %s)\n", rc, runlog);
        code = vb_code_exit(VB_E_INCONCLUSIVE);
    }
    printf("\n%d commits built and paired (BAD among them) after %s's build, %.1f s; logs in %s\n",
           steps, argv[1], (vb_mono_ns() - t0) * 1e-9, dir);
    return code;
}
