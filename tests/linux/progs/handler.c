/* A signal the program sends itself (raise) under each action, by argv[1]:
 * "default" (SIGUSR1 ends the process), "ignore" (SIG_IGN: it carries on),
 * "handler" (a handler runs, then the program carries on). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

static void handler(int sig) { printf("handler %d\n", sig); }

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "default";
    if (!strcmp(mode, "ignore"))
        signal(SIGUSR1, SIG_IGN);
    else if (!strcmp(mode, "handler"))
        signal(SIGUSR1, handler);
    printf("before\n");
    fflush(stdout);
    raise(SIGUSR1);
    printf("after\n");
    return 0;
}
