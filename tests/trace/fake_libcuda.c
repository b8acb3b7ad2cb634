/* fake_libcuda: a libcuda.so.1 that finds no GPU (cuInit returns CUDA_ERROR_NO_DEVICE), so the
 * tests see how `varbench trace` reports a program whose CUDA could not start, on any machine. */
#define NO_DEVICE 100 /* CUDA_ERROR_NO_DEVICE */

int cuInit(unsigned flags)
{
    (void)flags;
    return NO_DEVICE;
}

int cuGetErrorName(int rc, const char **s)
{
    *s = rc == NO_DEVICE ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_UNKNOWN";
    return 0;
}

int cuGetErrorString(int rc, const char **s)
{
    *s = rc == NO_DEVICE ? "no CUDA-capable device is detected" : "unknown error";
    return 0;
}
