/*
 * inject_exit: how the injection catches the end of a traced process (see inject_int.h), so that
 * its records are committed however it stops:
 *   - exit() and returning from main, an uncaught Python exception (Python exits normally with
 *     status 1): the atexit handler.
 *   - Python's Ctrl-C: an uncaught KeyboardInterrupt finalises Python, then kills the process
 *     with SIGINT, past every atexit handler; Python's own low-level exit hook (Py_AtExit, run
 *     at the end of finalisation) commits first.
 *   - SIGINT, SIGTERM, SIGHUP with the default action (a C program): a handler holds the
 *     program where the signal found it and wakes a helper thread that commits, restores the
 *     default action and re-raises, so the program still dies of its signal, its trace stored.
 *     Signals the program handles itself are left alone.
 *   - SIGKILL, a crash, _exit: nothing runs; the run says the trace is lost.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "inject_int.h"

static void (*finish)(const char *how); /* what each ending calls (vb_inject_catch_exits) */

static void at_exit(void)
{
    finish("exit");
}

static void at_python_exit(void)
{
    finish("python exit");
}

/* hook_python registers at_python_exit with the Python interpreter of this process, if there is
 * one: it runs at the end of Py_FinalizeEx, also before Python re-raises an unhandled SIGINT. */
static void hook_python(void)
{
    int (*is_init)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "Py_IsInitialized");
    int (*at)(void (*)(void)) = (int (*)(void (*)(void)))dlsym(RTLD_DEFAULT, "Py_AtExit");
    if (is_init && at && is_init() && at(at_python_exit))
        fprintf(stderr,
                "varbench trace: pid %d: Py_AtExit is full: a Ctrl-C that ends Python "
                "loses the trace\n",
                (int)getpid());
}

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
static sem_t wake;
static volatile sig_atomic_t pending;
static pid_t owner; /* the process whose helper thread waits on wake */

/* on_signal holds the thread the signal found (where the default action would have ended the
 * program) while the helper commits and re-raises; if that takes over 20 s (the helper waits on a
 * lock this thread holds, say), or at a second signal, or in a fork, the default action now. */
static void on_signal(int sig)
{
    struct timespec pause = {0, 50 * 1000 * 1000};
    int saved = errno, k;
    if (getpid() == owner && !pending) {
        pending = sig;
        sem_post(&wake);
        for (k = 0; k < 400; k++)
            nanosleep(&pause, NULL);
    }
    signal(sig, SIG_DFL);
    raise(sig);
    errno = saved;
}

/* signal_thread waits for a caught signal, commits, then dies of it with its default action. */
static void *signal_thread(void *arg)
{
    struct sigaction dfl;
    sigset_t set;
    char how[32];
    int sig;
    (void)arg;
    while (sem_wait(&wake) != 0 && errno == EINTR) {
    }
    sig = pending;
    snprintf(how, sizeof how, "signal %d", sig);
    finish(how);
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig); /* not reached: the default action of these signals ends the process */
}

/* catch_signals takes over SIGINT, SIGTERM and SIGHUP where the program left them at the
 * default action (or at on_signal: a fork's inherited handler, whose helper is gone); the helper
 * thread blocks every signal so that none of the program's lands there. */
static void catch_signals(pid_t pid)
{
    struct sigaction sa, old;
    sigset_t all, prev;
    pthread_t th;
    size_t i;
    int any = 0;
    owner = pid;
    pending = 0;
    if (sem_init(&wake, 0, 0) == 0) {
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &prev);
        if (pthread_create(&th, NULL, signal_thread, NULL) == 0) {
            pthread_detach(th);
            any = 1;
        }
        pthread_sigmask(SIG_SETMASK, &prev, NULL);
    }
    if (!any) {
        fprintf(stderr,
                "varbench trace: pid %d: no helper thread (%s): a signal that ends the "
                "program loses its trace\n",
                (int)pid, strerror(errno));
        return;
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART | SA_NODEFER; /* a second Ctrl-C ends the program at once */
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof caught / sizeof caught[0]; i++)
        if (sigaction(caught[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
            (old.sa_handler == SIG_DFL || old.sa_handler == on_signal))
            sigaction(caught[i], &sa, NULL);
}

void vb_inject_exit_late(void)
{
    static int late;
    if (!late && finish) late = atexit(at_exit) == 0;
}

void vb_inject_catch_exits(pid_t pid, void (*fin)(const char *how))
{
    static int hooked; /* atexit and Py_AtExit: once an address space, a fork keeps them */
    finish = fin;
    if (!hooked) {
        hooked = 1;
        if (atexit(at_exit))
            fprintf(stderr,
                    "varbench trace: pid %d: atexit failed: the trace is stored only if Python "
                    "ends the process or a signal does\n",
                    (int)pid);
        hook_python();
    }
    catch_signals(pid);
}
