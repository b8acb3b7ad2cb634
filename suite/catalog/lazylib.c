/*
 * lazylib: cuFFT and NVRTC loaded when a variant first calls them, not when varbench starts.
 * Linked, the two libraries cost every command their loading and relocation before main()
 * (measured 4.5 ms for libcufft and 9 ms for libnvrtc on the build host), a cost `varbench
 * trace` adds to every program it traces, which uses neither. The functions below carry the
 * libraries' own names and prototypes (their headers check them), so call sites are
 * unchanged: the first call dlopens the library (found through varbench's RUNPATH, as the
 * link did), and each function forwards to the library's. The executables export none of them
 * (no -rdynamic), so the libraries' own internal calls never bind to these. A library that cannot
 * be loaded makes its functions fail with the library's internal-error code, said once on stderr
 * with dlerror().
 */
#include <cufft.h>
#include <dlfcn.h>
#include <nvrtc.h>
#include <pthread.h>
#include <stdio.h>

struct lib {
    const char *file;
    void *handle;
    int failed;
    pthread_once_t once;
};

static struct lib cufft = {"libcufft.so.12", NULL, 0, PTHREAD_ONCE_INIT};
static struct lib nvrtc = {"libnvrtc.so.13", NULL, 0, PTHREAD_ONCE_INIT};

static void open_lib(struct lib *l)
{
    l->handle = dlopen(l->file, RTLD_NOW | RTLD_LOCAL);
    if (!l->handle) {
        l->failed = 1;
        fprintf(stderr, "varbench: cannot load %s: %s\n", l->file, dlerror());
    }
}

static void open_cufft(void)
{
    open_lib(&cufft);
}

static void open_nvrtc(void)
{
    open_lib(&nvrtc);
}

/* sym returns the library's function name, loading the library the first time; NULL when it
 * cannot be had */
static void *sym(struct lib *l, void (*opener)(void), const char *name)
{
    void *f;
    pthread_once(&l->once, opener);
    if (!l->handle) return NULL;
    f = dlsym(l->handle, name);
    if (!f) fprintf(stderr, "varbench: %s has no %s\n", l->file, name);
    return f;
}

/* FORWARD(lib, opener, ret, name, fail, params, args): ret name(params), forwarding args, fail
 * when the function cannot be had; the function's address is looked up once (threads that race
 * there store the same address) */
#define FORWARD(lib, opener, ret, name, fail, params, args)                                        \
    ret name params                                                                                \
    {                                                                                              \
        static void *addr;                                                                         \
        ret(*fn) params;                                                                           \
        void *p = __atomic_load_n(&addr, __ATOMIC_ACQUIRE);                                        \
        if (!p && (p = sym(&lib, opener, #name))) __atomic_store_n(&addr, p, __ATOMIC_RELEASE);    \
        *(void **)&fn = p;                                                                         \
        return fn ? fn args : (fail);                                                              \
    }

FORWARD(cufft, open_cufft, cufftResult, cufftPlan2d, CUFFT_INTERNAL_ERROR,
        (cufftHandle * plan, int nx, int ny, cufftType type), (plan, nx, ny, type))
FORWARD(cufft, open_cufft, cufftResult, cufftSetStream, CUFFT_INTERNAL_ERROR,
        (cufftHandle plan, cudaStream_t stream), (plan, stream))
FORWARD(cufft, open_cufft, cufftResult, cufftExecC2C, CUFFT_INTERNAL_ERROR,
        (cufftHandle plan, cufftComplex *in, cufftComplex *out, int dir), (plan, in, out, dir))
FORWARD(cufft, open_cufft, cufftResult, cufftDestroy, CUFFT_INTERNAL_ERROR, (cufftHandle plan),
        (plan))

FORWARD(nvrtc, open_nvrtc, nvrtcResult, nvrtcGetNumSupportedArchs, NVRTC_ERROR_INTERNAL_ERROR,
        (int *n), (n))
FORWARD(nvrtc, open_nvrtc, nvrtcResult, nvrtcGetSupportedArchs, NVRTC_ERROR_INTERNAL_ERROR,
        (int *archs), (archs))
FORWARD(nvrtc, open_nvrtc, nvrtcResult, nvrtcCreateProgram, NVRTC_ERROR_INTERNAL_ERROR,
        (nvrtcProgram * prog, const char *src, const char *name, int nheaders,
         const char *const *headers, const char *const *include_names),
        (prog, src, name, nheaders, headers, include_names))
FORWARD(nvrtc, open_nvrtc, nvrtcResult, nvrtcCompileProgram, NVRTC_ERROR_INTERNAL_ERROR,
        (nvrtcProgram prog, int nopts, const char *const *opts), (prog, nopts, opts))
FORWARD(nvrtc, open_nvrtc, nvrtcResult, nvrtcGetProgramLogSize, NVRTC_ERROR_INTERNAL_ERROR,
        (nvrtcProgram prog, size_t *size), (prog, size))
FORWARD(nvrtc, open_nvrtc, nvrtcResult, nvrtcGetProgramLog, NVRTC_ERROR_INTERNAL_ERROR,
        (nvrtcProgram prog, char *log), (prog, log))
FORWARD(nvrtc, open_nvrtc, nvrtcResult, nvrtcGetCUBINSize, NVRTC_ERROR_INTERNAL_ERROR,
        (nvrtcProgram prog, size_t *size), (prog, size))
FORWARD(nvrtc, open_nvrtc, nvrtcResult, nvrtcGetCUBIN, NVRTC_ERROR_INTERNAL_ERROR,
        (nvrtcProgram prog, char *cubin), (prog, cubin))
FORWARD(nvrtc, open_nvrtc, nvrtcResult, nvrtcDestroyProgram, NVRTC_ERROR_INTERNAL_ERROR,
        (nvrtcProgram * prog), (prog))
FORWARD(nvrtc, open_nvrtc, const char *, nvrtcGetErrorString,
        "NVRTC could not be loaded (see the message above)", (nvrtcResult r), (r))
