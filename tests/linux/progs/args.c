/* argc, argv, envp and the auxiliary vector entries QEMU and Linux agree on. */
#include "lx.h"
extern char _start[];

long cmain(long *sp)
{
    long argc = sp[0];
    char **argv = (char **)(sp + 1);
    char **envp = argv + argc + 1;
    show("argc", argc);
    for (long i = 0; i < argc; i++) {
        puts1("argv: ");
        puts1(argv[i]);
        puts1("\n");
    }
    while (*envp) {
        puts1("env: ");
        puts1(*envp++);
        puts1("\n");
    }
    u64 *aux = (u64 *)(envp + 1);
    for (; aux[0]; aux += 2) {
        if (aux[0] == 6)
            show("AT_PAGESZ", aux[1]);
        if (aux[0] == 9)
            show("AT_ENTRY is _start", aux[1] == (u64)_start);
        if (aux[0] == 31) {
            puts1("AT_EXECFN: ");
            puts1((char *)aux[1]);
            puts1("\n");
        }
        if (aux[0] == 25) {
            unsigned char *r = (unsigned char *)aux[1];
            int nonzero = 0;
            for (int i = 0; i < 16; i++)
                nonzero |= r[i];
            show("AT_RANDOM has bytes", nonzero != 0);
        }
    }
    out(2, "to stderr\n");
    return argc;
}
