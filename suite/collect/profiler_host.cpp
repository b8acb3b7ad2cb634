/* profiler_host: the CUPTI profiler host API in C clothing (see profiler_host.h). */
#include "profiler_host.h"

#include <cupti_profiler_host.h>
#include <stdlib.h>
#include <string.h>

struct vb_prof_host {
    CUpti_Profiler_Host_Object *obj;
    uint8_t *config;
    size_t config_size;
};

/* bad_metric finds which of the names the host object does not know; NULL when all are known. */
static const char *bad_metric(CUpti_Profiler_Host_Object *obj, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        CUpti_Profiler_Host_GetMetricProperties_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE;
        p.pHostObject = obj;
        p.pMetricName = names[i];
        if (cuptiProfilerHostGetMetricProperties(&p) != CUPTI_SUCCESS) return names[i];
    }
    return NULL;
}

int vb_prof_host_open(const char *chip, const uint8_t *avail, const char *const *names, size_t n,
                      struct vb_prof_host **out, size_t *passes, struct vb_err *err)
{
    struct vb_prof_host *h = (struct vb_prof_host *)calloc(1, sizeof *h);
    CUpti_Profiler_Host_Initialize_Params ip;
    CUpti_Profiler_Host_ConfigAddMetrics_Params ap;
    CUpti_Profiler_Host_GetConfigImageSize_Params sp;
    CUpti_Profiler_Host_GetConfigImage_Params gp;
    CUpti_Profiler_Host_GetNumOfPasses_Params np;
    *out = NULL;
    if (!h) return vb_err_set(err, VB_E_SYS, "out of memory");
    memset(&ip, 0, sizeof ip);
    ip.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
    ip.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    ip.pChipName = chip;
    ip.pCounterAvailabilityImage = avail;
    if (VB_CUPTI(err, cuptiProfilerHostInitialize(&ip))) goto fail;
    h->obj = ip.pHostObject;
    memset(&ap, 0, sizeof ap);
    ap.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
    ap.pHostObject = h->obj;
    ap.ppMetricNames = (const char **)names;
    ap.numMetrics = n;
    if (VB_CUPTI(err, cuptiProfilerHostConfigAddMetrics(&ap))) {
        const char *bad = bad_metric(h->obj, names, n);
        if (bad) {
            vb_err_set(err, VB_E_USAGE, "metric '%s' is not known on this GPU (chip %s)", bad,
                       chip);
            vb_err_hint(err, "'ncu --query-metrics' lists this GPU's metrics; 'varbench list "
                             "--metrics' the nvprof names varbench maps");
        }
        goto fail;
    }
    memset(&sp, 0, sizeof sp);
    sp.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
    sp.pHostObject = h->obj;
    if (VB_CUPTI(err, cuptiProfilerHostGetConfigImageSize(&sp))) goto fail;
    h->config_size = sp.configImageSize;
    if (!(h->config = (uint8_t *)calloc(1, h->config_size ? h->config_size : 1))) {
        vb_err_set(err, VB_E_SYS, "out of memory for a %zu-byte configuration", h->config_size);
        goto fail;
    }
    memset(&gp, 0, sizeof gp);
    gp.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
    gp.pHostObject = h->obj;
    gp.configImageSize = h->config_size;
    gp.pConfigImage = h->config;
    if (VB_CUPTI(err, cuptiProfilerHostGetConfigImage(&gp))) goto fail;
    memset(&np, 0, sizeof np);
    np.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
    np.configImageSize = h->config_size;
    np.pConfigImage = h->config;
    if (VB_CUPTI(err, cuptiProfilerHostGetNumOfPasses(&np))) goto fail;
    *passes = np.numOfPasses;
    *out = h;
    return 0;
fail:
    vb_prof_host_close(h);
    return -1;
}

const uint8_t *vb_prof_host_config(const struct vb_prof_host *h, size_t *size)
{
    *size = h->config_size;
    return h->config;
}

int vb_prof_host_eval(struct vb_prof_host *h, const uint8_t *data, size_t size, size_t range,
                      const char *const *names, size_t n, double *values, struct vb_err *err)
{
    CUpti_Profiler_Host_EvaluateToGpuValues_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
    p.pHostObject = h->obj;
    p.pCounterDataImage = data;
    p.counterDataImageSize = size;
    p.rangeIndex = range;
    p.ppMetricNames = (const char **)names;
    p.numMetrics = n;
    p.pMetricValues = values;
    return VB_CUPTI(err, cuptiProfilerHostEvaluateToGpuValues(&p));
}

void vb_prof_host_close(struct vb_prof_host *h)
{
    if (!h) return;
    if (h->obj) {
        CUpti_Profiler_Host_Deinitialize_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
        p.pHostObject = h->obj;
        cuptiProfilerHostDeinitialize(&p);
    }
    free(h->config);
    free(h);
}
