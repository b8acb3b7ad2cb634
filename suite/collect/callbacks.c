/* callbacks: the process's one CUPTI subscriber, shared (see callbacks.h). */
#include "callbacks.h"

#include <stdint.h>

static CUpti_SubscriberHandle subscriber;
static vb_cb_handler handlers[VB_CB_USERS];
static vb_cb_resource_handler on_resource;
/* each user's switches, per domain (0 runtime, 1 driver) and callback id */
static uint8_t on_rt[VB_CB_USERS][CUPTI_RUNTIME_TRACE_CBID_SIZE];
static uint8_t on_drv[VB_CB_USERS][CUPTI_DRIVER_TRACE_CBID_SIZE];

static void CUPTIAPI dispatch(void *arg, CUpti_CallbackDomain dom, CUpti_CallbackId cbid,
                              const void *data)
{
    int u;
    (void)arg;
    if (dom == CUPTI_CB_DOMAIN_RESOURCE) {
        if (on_resource) on_resource(cbid, data);
        return;
    }
    for (u = 0; u < VB_CB_USERS; u++)
        if (handlers[u]) handlers[u](dom, cbid, data);
}

/* subscribe: the process's subscriber, made at first use */
static int subscribe(struct vb_err *err)
{
    if (!subscriber && VB_CUPTI(err, cuptiSubscribe(&subscriber, dispatch, NULL))) {
        subscriber = NULL;
        return -1;
    }
    return 0;
}

int vb_cb_resource(vb_cb_resource_handler h, CUpti_CallbackId cbid, struct vb_err *err)
{
    if (subscribe(err)) return -1;
    on_resource = h;
    return VB_CUPTI(err, cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, cbid)) ? -1
                                                                                             : 0;
}

int vb_cb_enable(enum vb_cb_user user, vb_cb_handler h, CUpti_CallbackDomain dom,
                 CUpti_CallbackId cbid, int on, struct vb_err *err)
{
    int driver = dom == CUPTI_CB_DOMAIN_DRIVER_API, u, any = 0;
    uint32_t size = driver ? CUPTI_DRIVER_TRACE_CBID_SIZE : CUPTI_RUNTIME_TRACE_CBID_SIZE;
    if ((!driver && dom != CUPTI_CB_DOMAIN_RUNTIME_API) || cbid >= size)
        return vb_err_set(err, VB_E_CUDA, "internal: callback %d of domain %d", (int)cbid,
                          (int)dom);
    if (subscribe(err)) return -1;
    handlers[user] = h;
    (driver ? on_drv[user] : on_rt[user])[cbid] = (uint8_t) !!on;
    for (u = 0; u < VB_CB_USERS; u++)
        any |= (driver ? on_drv[u] : on_rt[u])[cbid];
    return VB_CUPTI(err, cuptiEnableCallback((uint32_t)any, subscriber, dom, cbid)) ? -1 : 0;
}
