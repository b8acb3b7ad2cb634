/*
 * crash: the fatal-signal report (see crash.h). The handler uses write(2) and glibc's
 * backtrace (loaded before any crash by vb_crash_install, so that it does not allocate in the
 * handler).
 */
#include "crash.h"

#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char current[256];

void vb_crash_case(const char *label)
{
    snprintf(current, sizeof current, "%s", label ? label : "");
}

static void put(const char *s)
{
    ssize_t k = write(2, s, strlen(s));
    (void)k;
}

static void on_fatal(int sig)
{
    void *frames[48];
    int n = backtrace(frames, 48);
    put("varbench: fatal signal ");
    put(strsignal(sig)); /* glibc: a static table for the signals handled here */
    if (current[0]) {
        put(" in case ");
        put(current);
    }
    put("; stack (addr2line -f -e varbench on the +0x offsets):\n");
    backtrace_symbols_fd(frames, n, 2);
    signal(sig, SIG_DFL);
    raise(sig);
}

void vb_crash_install(void)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    void *f[1];
    struct sigaction sa;
    size_t i;
    backtrace(f, 1); /* loads libgcc's unwinder now, not in the handler */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
    for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}
