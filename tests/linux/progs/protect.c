/* Memory protection: argv[1] picks the case.
 * "rodata": store into a string literal (a read-only ELF segment);
 * "readonly": mmap read-write, store, mprotect(PROT_READ), read, store again;
 * "none": mprotect(PROT_NONE), then read;
 * "restore": PROT_NONE, then PROT_READ|PROT_WRITE: the contents come back;
 * "efault": read(2) into a read-only page, write(2) from a PROT_NONE one;
 * "badrange": mprotect of a misaligned and of an unmapped range. */
#include "lx.h"

static const char literal[] = "constant";

long cmain(long *sp)
{
    char **argv = (char **)(sp + 1);
    char *mode = argv[1];
    puts1("start\n");
    if (mode[0] == 'r' && mode[1] == 'o') {
        *(volatile char *)literal = 'C';
        return 0;
    }
    char *m = (char *)sysc(90, 0, 8192, 3, 0x22, -1, 0);     /* PROT_READ|WRITE, anon */
    m[0] = 'x';
    m[4096] = 'y';
    if (mode[0] == 'r' && mode[1] == 'e' && mode[2] == 'a') {
        show("mprotect read", sysc(125, (long)m, 4096, 1, 0, 0, 0));
        show("read back", *(volatile char *)m);
        m[4096] = 'z';                                          /* the next page is writable */
        show("second page", m[4096]);
        *(volatile char *)(m + 8) = 1;
        return 0;
    }
    if (mode[0] == 'n') {
        show("mprotect none", sysc(125, (long)m + 4096, 4096, 0, 0, 0, 0));
        return *(volatile char *)(m + 4096 + 16);
    }
    if (mode[0] == 'r' && mode[2] == 's') {
        show("mprotect none", sysc(125, (long)m, 8192, 0, 0, 0, 0));
        show("mprotect rw", sysc(125, (long)m, 8192, 3, 0, 0, 0));
        show("first", m[0]);
        show("second", m[4096]);
        m[1] = 'w';
        show("written", m[1]);
        return 0;
    }
    if (mode[0] == 'e') {
        show("mprotect read", sysc(125, (long)m, 4096, 1, 0, 0, 0));
        show("read into a read-only page", sysc(3, 0, (long)m, 4, 0, 0, 0));
        show("mprotect none", sysc(125, (long)m + 4096, 4096, 0, 0, 0, 0));
        show("write from a PROT_NONE page", sysc(4, 1, (long)m + 4096, 1, 0, 0, 0));
        show("unchanged", m[0]);
        return 0;
    }
    show("misaligned", sysc(125, (long)m + 1, 4096, 1, 0, 0, 0));
    show("unmapped", sysc(125, 0x100000, 4096, 1, 0, 0, 0));
    return 0;
}
