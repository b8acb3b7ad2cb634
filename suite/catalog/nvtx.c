/* nvtx: NVTX ranges through libcupti's injection (see nvtx.h). */
#define _GNU_SOURCE
#include "nvtx.h"

#include <cupti.h>
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <stdlib.h>

static const char *const names[] = {
#define X(id, text) text,
    VB_PHASES(X)
#undef X
};

const char *vb_phase_name(enum vb_phase p)
{
    return p < VB_PHASE_COUNT ? names[p] : "?";
}

static const char *user_path; /* NVTX_INJECTION64_PATH as varbench found it */

const char *vb_nvtx_user_injection(void)
{
    return user_path;
}

const char *vb_nvtx_setup(void)
{
    static char path[4096];
    Dl_info info;
    const char *set = getenv("NVTX_INJECTION64_PATH");
    if (set && *set) return user_path = set;
    if (!dladdr((void *)cuptiActivityEnable, &info) || !info.dli_fname) return NULL;
    if (!realpath(info.dli_fname, path)) return NULL;
    setenv("NVTX_INJECTION64_PATH", path, 1);
    return path;
}

void vb_nvtx_phase_begin(enum vb_phase p)
{
    nvtxRangePushA(vb_phase_name(p));
}

void vb_nvtx_phase_end(void)
{
    nvtxRangePop();
}

void vb_nvtx_push(const char *text)
{
    nvtxRangePushA(text);
}

void vb_nvtx_pop(void)
{
    nvtxRangePop();
}
