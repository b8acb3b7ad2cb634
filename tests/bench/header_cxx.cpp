// varbench.h compiles as C++17 under -Wall -Wextra -pedantic -Werror (the public header's promise:
// C11 and C++17 clean); a benchmark declared the way a .cu file declares one.
#include <varbench.h>

static int run(void *, vb_err *err)
{
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    return vb_phase_wait(cudaSuccess, 0, err);
}

static void traffic(const vb_point *p, vb_traffic *t)
{
    *t = vb_traffic{};
    t->gmem_read_bytes = 4 * (uint64_t)vb_axis_int(p, "n");
}

static const vb_axis axes[] = {{"n", "elements", {1024}, 1, 1, 1L << 30, nullptr, nullptr,
                                nullptr, VB_AXIS_INT, {}, 0, 0}};
static const vb_problem problem = {"p", "a problem", axes, 1, nullptr, nullptr, 0, 0, nullptr,
                                   nullptr};
static const vb_variant variants[] = {{"v", "a variant", VB_GPU, 0, run, traffic, &problem}};
extern const vb_family header_cxx_family;
const vb_family header_cxx_family = {"cxx", "C++", nullptr, nullptr, variants, 1};
