/*
 * fake_driver: what the CUDA driver does with CUDA_INJECTION64_PATH (dlopen the library, call
 * InitializeInjection), then ends the way a program may, so the injection's exit paths are
 * tested on machines without a GPU (there CUPTI cannot trace, and the process is stored as an
 * untraced case; with a GPU it is a traced case without records). It also stands in for
 * Python: it exports Py_IsInitialized and Py_AtExit, and "pyint" ends as CPython does after an
 * unhandled KeyboardInterrupt (the Py_AtExit functions, then SIGINT with the default action).
 *
 * "nvtx" and "nvtx-only" make NVTX calls as frameworks do (through the NVTX3 headers, whose loader
 * reads NVTX_INJECTION64_PATH at the first call), before and, for "nvtx", after CUDA's
 * injection: 3 push/pop ranges (one nested, one wide), 1 start/end range ended on another thread,
 * 2 marks, 1 range in domain "vbdomain" with a registered string and a category, and 1 range left
 * open at the exit; "nvtx-only" never initialises CUDA.
 *
 * "steps N MS" is a training loop without CUDA: N NVTX ranges "step" (inside one range "steps"),
 * each MS milliseconds long (a sleep), and a range "setup" once: samples for compare and history
 * on machines without a GPU.
 *
 * usage: fake_driver exit CODE | signal SIG | pyint | fork | twice | none | nvtx | nvtx-only
 *                    | steps N MS
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void (*py_exit_funcs[32])(void);
static int npy_exit;

int Py_IsInitialized(void)
{
    return 1;
}

int Py_AtExit(void (*func)(void))
{
    if (npy_exit == 32) return -1;
    py_exit_funcs[npy_exit++] = func;
    return 0;
}

static int inject(void)
{
    const char *path = getenv("CUDA_INJECTION64_PATH");
    void *h;
    int (*init)(void);
    if (!path || !*path) {
        fprintf(stderr, "fake_driver: CUDA_INJECTION64_PATH is not set\n");
        return -1;
    }
    if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
        fprintf(stderr, "fake_driver: %s\n", dlerror());
        return -1;
    }
    if (!(init = (int (*)(void))dlsym(h, "InitializeInjection"))) {
        fprintf(stderr, "fake_driver: no InitializeInjection in %s\n", path);
        return -1;
    }
    if (init() != 1) {
        fprintf(stderr, "fake_driver: InitializeInjection did not return 1\n");
        return -1;
    }
    return 0;
}

static void *end_elsewhere(void *id)
{
    nvtxRangeEnd(*(nvtxRangeId_t *)id);
    return NULL;
}

/* nvtx makes the NVTX calls of the "nvtx" modes; with_cuda: CUDA's injection in the middle */
static int nvtx(int with_cuda)
{
    nvtxDomainHandle_t d;
    nvtxStringHandle_t str;
    nvtxEventAttributes_t a;
    nvtxRangeId_t id;
    pthread_t th;
    nvtxRangePushA("outer");
    nvtxRangePushA("inner");
    nvtxMarkA("mark one");
    nvtxRangePop();
    id = nvtxRangeStartA("crossing");
    if (pthread_create(&th, NULL, end_elsewhere, &id) || pthread_join(th, NULL)) return 75;
    nvtxRangePop();
    d = nvtxDomainCreateA("vbdomain");
    str = nvtxDomainRegisterStringA(d, "registered");
    memset(&a, 0, sizeof a);
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.category = 7;
    a.colorType = NVTX_COLOR_ARGB;
    a.color = 0xff00ff00;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = str;
    nvtxDomainRangePushEx(d, &a);
    if (with_cuda && inject()) return 70;
    nvtxDomainRangePop(d);
    nvtxRangePushW(L"wide \u00e9");
    nvtxRangePop();
    nvtxMarkA("mark two");
    nvtxRangePushA("open at exit");
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "exit";
    if (!strcmp(mode, "none")) return 0; /* a program that never initialises CUDA */
    if (!strcmp(mode, "steps") && argc == 4) {
        long n = atol(argv[2]), k;
        double ms = atof(argv[3]);
        struct timespec d = {(time_t)(ms / 1e3),
                             (long)((ms - 1e3 * (double)(time_t)(ms / 1e3)) * 1e6)};
        nvtxRangePushA("setup");
        nvtxRangePop();
        nvtxRangePushA("steps");
        for (k = 0; k < n; k++) {
            nvtxRangePushA("step");
            nanosleep(&d, NULL);
            nvtxRangePop();
        }
        nvtxRangePop();
        return 0;
    }
    if (!strcmp(mode, "nvtx") || !strcmp(mode, "nvtx-only")) return nvtx(!strcmp(mode, "nvtx"));
    if (inject()) return 70;
    if (!strcmp(mode, "exit")) exit(argc > 2 ? atoi(argv[2]) : 0);
    if (!strcmp(mode, "signal")) {
        time_t t0 = time(NULL);
        raise(argc > 2 ? atoi(argv[2]) : SIGINT);
        /* the injection commits on its own thread, then the signal's default action ends us */
        while (time(NULL) - t0 < 20)
            sleep(1);
        return 71;
    }
    if (!strcmp(mode, "pyint")) {
        int i;
        for (i = npy_exit; i-- > 0;)
            py_exit_funcs[i]();
        signal(SIGINT, SIG_DFL);
        kill(getpid(), SIGINT);
        return 72;
    }
    if (!strcmp(mode, "fork")) { /* the child inherits the injection's state: it must not write */
        pid_t pid = fork();
        int st;
        if (pid == 0) exit(0);
        if (pid < 0 || waitpid(pid, &st, 0) < 0) return 73;
        return 0;
    }
    if (!strcmp(mode, "twice")) return inject() ? 74 : 0;
    fprintf(stderr,
            "usage: fake_driver exit CODE | signal SIG | pyint | fork | twice | none | nvtx | "
            "nvtx-only | steps N MS\n");
    return 2;
}
