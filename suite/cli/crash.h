/*
 * crash: what a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) in `varbench run` says
 * before the process dies: the case it was in and the return addresses of the stack (resolve
 * them with `addr2line -f -e varbench ADDR` on the binary that crashed), on stderr, then the
 * signal's default action (a core where core dumps are on). The run's parent (a --device all
 * run) then names the device and stores the run as failed; the cases stored before are kept.
 */
#ifndef VB_CRASH_H
#define VB_CRASH_H

/* vb_crash_install sets the handlers (once per process). */
void vb_crash_install(void);
/* vb_crash_case notes the case running now ("ufunc/fft-mask height=720,width=1280"); NULL:
 * none. Copied; a label longer than 255 bytes is cut. */
void vb_crash_case(const char *label);

#endif
