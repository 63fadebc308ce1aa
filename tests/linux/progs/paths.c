/* For each argument "r:PATH", "w:PATH" or "l:PATH": open PATH for reading,
 * create/truncate it for writing, or readlink it; print the result (a file
 * descriptor >= 3 prints as "fd", errors as -errno). */
#include "lx.h"

long cmain(long *sp)
{
    long argc = sp[0];
    char **argv = (char **)(sp + 1);
    char buf[512];
    for (long i = 1; i < argc; i++) {
        char *a = argv[i];
        long r;
        if (a[0] == 'l') {
            r = sysc(85, (long)(a + 2), (long)buf, sizeof buf - 1, 0, 0, 0);
            puts1(a);
            puts1(" -> ");
            if (r >= 0) {
                buf[r] = 0;
                puts1(buf);
                puts1("\n");
                continue;
            }
        } else {
            long flags = a[0] == 'w' ? (01 | 0100 | 01000) : 0;
            r = sysc(286, -100, (long)(a + 2), flags, 0644, 0, 0);
            puts1(a);
            puts1(" -> ");
            if (r >= 3) {
                puts1("fd\n");
                if (a[0] == 'w')
                    sysc(4, r, (long)"x", 1, 0, 0, 0);
                sysc(6, r, 0, 0, 0, 0, 0);
                continue;
            }
        }
        putdec(r);
        puts1("\n");
    }
    show("clone", sysc(120, 17, 0, 0, 0, 0, 0));
    show("fork", sysc(2, 0, 0, 0, 0, 0, 0));
    show("execve", sysc(11, (long)"/bin/sh", 0, 0, 0, 0, 0));
    show("socket", sysc(326, 2, 1, 0, 0, 0, 0));
    return 0;
}
