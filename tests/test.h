/*
 * test: the one assert header of varbench's tests (libuv style). A test is a function
 * returning 0 on success; ASSERT_* print both operands with file and line and return 1.
 * Exit code 77 marks a skip (ctest SKIP_RETURN_CODE), used by gpu tests without a GPU.
 */
#ifndef VB_TEST_H
#define VB_TEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#define VB_TEST_SKIP 77

#define TEST_FAIL_(fmt, ...)                                                                       \
    do {                                                                                           \
        fprintf(stderr, "%s:%d: " fmt "\n", __FILE__, __LINE__, __VA_ARGS__);                      \
        return 1;                                                                                  \
    } while (0)

#define ASSERT(c)                                                                                  \
    do {                                                                                           \
        if (!(c)) TEST_FAIL_("assertion failed: %s", #c);                                          \
    } while (0)

#define ASSERT_INT_EQ(a, b)                                                                        \
    do {                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                        \
        if (a_ != b_) TEST_FAIL_("%s == %s failed: %lld != %lld", #a, #b, a_, b_);                 \
    } while (0)

#define ASSERT_STR_EQ(a, b)                                                                        \
    do {                                                                                           \
        const char *a_ = (a), *b_ = (b);                                                           \
        if (strcmp(a_, b_)) TEST_FAIL_("%s == %s failed: \"%s\" != \"%s\"", #a, #b, a_, b_);       \
    } while (0)

#define ASSERT_CONTAINS(hay, needle)                                                               \
    do {                                                                                           \
        const char *h_ = (hay), *n_ = (needle);                                                    \
        if (!strstr(h_, n_)) TEST_FAIL_("\"%s\" does not contain \"%s\"", h_, n_);                 \
    } while (0)

/* |a - b| <= tol, printing both with full precision */
#define ASSERT_NEAR(a, b, tol)                                                                     \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= (tol)))                                                             \
            TEST_FAIL_("%s ~= %s failed: %.17g vs %.17g (tol %g)", #a, #b, a_, b_, (double)(tol)); \
    } while (0)

/* a call returning 0 on success and filling a struct vb_err named err */
#define ASSERT_OK(call)                                                                            \
    do {                                                                                           \
        if ((call) != 0) TEST_FAIL_("%s failed: %s", #call, err.msg);                              \
    } while (0)

struct vb_test {
    const char *name;
    const char *label; /* "cpu" or "gpu" */
    int (*fn)(const char *arg);
    const char *arg; /* passed to fn when the command line gives none */
};

#endif
