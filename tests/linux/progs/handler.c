/* A signal the program sends itself (raise) under each action, by argv[1]:
 * "default" (SIGUSR1 ends the process), "ignore" (SIG_IGN: it carries on),
 * "handler" (a handler runs, then the program carries on), "segv" (a
 * SIGSEGV handler runs on a NULL store and exits with status 3); with stdout
 * a pipe no one reads, "pipe" writes to it (SIGPIPE ends the process) and
 * "pipe-ignored" ignores SIGPIPE first (the write fails with EPIPE). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void handler(int sig) { printf("handler %d\n", sig); }
static void on_segv(int sig)
{
    printf("segv handler %d\n", sig);
    fflush(stdout);
    _exit(3);
}
volatile int *volatile null_pointer;

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "default";
    if (!strncmp(mode, "pipe", 4)) {
        if (!strcmp(mode, "pipe-ignored"))
            signal(SIGPIPE, SIG_IGN);
        long r = write(1, "lost\n", 5);
        fprintf(stderr, "write: %ld %s\n", r, strerror(errno));
        return 7;
    }
    if (!strcmp(mode, "ignore"))
        signal(SIGUSR1, SIG_IGN);
    else if (!strcmp(mode, "handler"))
        signal(SIGUSR1, handler);
    printf("before\n");
    fflush(stdout);
    if (!strcmp(mode, "segv")) {
        signal(SIGSEGV, on_segv);
        *null_pointer = 1;
    }
    raise(SIGUSR1);
    printf("after\n");
    return 0;
}
