/* tools: other CUDA tools around varbench trace, and whether CUDA can start (see tools.h). */
#define _GNU_SOURCE
#include "tools.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Tools by a piece of their injection library's path or their process name. */
static const struct {
    const char *path_part, *comm, *name;
} known[] = {
    {"nsight-compute", "ncu", "Nsight Compute (ncu)"},
    {"InterceptorInjectionTarget", "nv-nsight-cu-cl", "Nsight Compute (ncu)"},
    {"TreeLauncher", "ncu-ui", "Nsight Compute (ncu)"},
    {"nsight-systems", "nsys", "Nsight Systems (nsys)"},
    {"ToolsInjection", "nsys-launcher", "Nsight Systems (nsys)"},
    {"sanitizer", "compute-sanitiz", "compute-sanitizer"},
    {"cuda-gdb", "cuda-gdb", "cuda-gdb"},
    {NULL, "nvprof", "nvprof"},
};

const char *vb_tool_name(const char *path)
{
    size_t i;
    for (i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i].path_part && strstr(path, known[i].path_part)) return known[i].name;
    return "another CUDA tool";
}

/* Environment variables a tool sets for the processes it profiles. */
static const struct {
    const char *var, *name;
} markers[] = {
    {"NV_COMPUTE_PROFILER_PERFWORKS_DIR", "Nsight Compute (ncu)"},
    {"NV_NSIGHT_INJECTION_TRANSPORT_TYPE", "Nsight Compute (ncu)"},
    {"NSYS_PROFILING_SESSION_ID", "Nsight Systems (nsys)"},
};

/* parent_of reads the parent pid of pid from /proc; 0 when unknown. */
static long parent_of(long pid, char *comm, size_t n)
{
    char path[64], buf[512], *close;
    long ppid = 0;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    if (!(f = fopen(path, "r"))) return 0;
    if (!fgets(buf, sizeof buf, f)) buf[0] = '\0';
    fclose(f);
    /* pid (comm) state ppid ...: comm may hold spaces and parentheses, so the last ')' ends it */
    close = strrchr(buf, ')');
    if (!close || close[1] != ' ') return 0;
    *close = '\0';
    snprintf(comm, n, "%s", strchr(buf, '(') ? strchr(buf, '(') + 1 : "");
    if (sscanf(close + 2, "%*c %ld", &ppid) != 1) return 0;
    return ppid;
}

int vb_tool_detect(const char *own_lib, char *name, size_t n, char *how, size_t hn)
{
    const char *inj = getenv("CUDA_INJECTION64_PATH");
    char comm[64], real[PATH_MAX];
    long pid = (long)getpid(), depth;
    size_t i;
    if (inj && *inj && !(realpath(inj, real) && !strcmp(real, own_lib))) {
        snprintf(name, n, "%s", vb_tool_name(inj));
        snprintf(how, hn, "CUDA_INJECTION64_PATH=%s", inj);
        return 1;
    }
    /* Nsight Compute starts its targets suspended, injected through its own transport */
    for (i = 0; i < sizeof markers / sizeof markers[0]; i++)
        if (getenv(markers[i].var)) {
            snprintf(name, n, "%s", markers[i].name);
            snprintf(how, hn, "%s is set", markers[i].var);
            return 1;
        }
    for (depth = 0; depth < 64 && pid > 1; depth++) {
        long ppid = parent_of(pid, comm, sizeof comm);
        for (i = 0; depth > 0 && i < sizeof known / sizeof known[0]; i++)
            if (!strcmp(comm, known[i].comm)) {
                snprintf(name, n, "%s", known[i].name);
                snprintf(how, hn, "ancestor process %ld '%s'", pid, comm);
                return 1;
            }
        pid = ppid;
    }
    return 0;
}

int vb_cuda_probe(int in_process, char *why, size_t n)
{
    typedef int (*init_fn)(unsigned);
    typedef int (*str_fn)(int, const char **);
    void *h;
    init_fn init;
    str_fn name, text;
    const char *nm = NULL, *tx = NULL;
    int rc;
    if (!in_process) unsetenv("CUDA_INJECTION64_PATH"); /* the probe must not trace itself */
    h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | (in_process ? RTLD_NOLOAD : 0));
    if (!h && in_process) return 0; /* no driver loaded: nothing to tell */
    if (!h) {
        snprintf(why, n, "no CUDA driver (%s)", dlerror());
        return -1;
    }
    init = (init_fn)dlsym(h, "cuInit");
    name = (str_fn)dlsym(h, "cuGetErrorName");
    text = (str_fn)dlsym(h, "cuGetErrorString");
    if (!init) {
        snprintf(why, n, "the CUDA driver has no cuInit (libcuda.so.1 is not NVIDIA's driver?)");
        return -1;
    }
    rc = init(0);
    if (rc == 0) return 0;
    if (name) name(rc, &nm);
    if (text) text(rc, &tx);
    snprintf(why, n, "cuInit: %s (%s)", nm ? nm : "error", tx ? tx : "no description");
    return -1;
}
