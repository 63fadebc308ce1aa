/* File I/O, standard streams, memory and errors through raw system calls.
 * argv[1]: a directory holding in.txt; argv[2]: a directory to write out.txt in. */
#include "lx.h"

long cmain(long *sp)
{
    char **argv = (char **)(sp + 1);
    char path[512], buf[256];
    long fd = sysc(286, -100, (long)join(path, argv[1], "/in.txt"), 0, 0, 0, 0);
    show("open in.txt ok", fd >= 3);
    long n = sysc(3, fd, (long)buf, 5, 0, 0, 0);
    show("read", n);
    sysc(4, 1, (long)buf, n, 0, 0, 0);
    puts1("\n");
    u64 st[18];
    show("fstat", sysc(108, fd, (long)st, 0, 0, 0, 0));
    show("st_size", st[6]);
    show("lseek", sysc(19, fd, 2, 0, 0, 0, 0));
    n = sysc(3, fd, (long)buf, 3, 0, 0, 0);
    sysc(4, 1, (long)buf, n, 0, 0, 0);
    puts1("\n");
    n = sysc(179, fd, (long)buf, 4, 6, 0, 0);
    show("pread", n);
    sysc(4, 1, (long)buf, n, 0, 0, 0);
    puts1("\n");
    show("newfstatat", sysc(291, -100, (long)path, (long)st, 0, 0, 0));
    show("st_size", st[6]);
    show("close", sysc(6, fd, 0, 0, 0, 0, 0));
    show("close again", sysc(6, fd, 0, 0, 0, 0, 0));
    show("read bad fd", sysc(3, 77, (long)buf, 1, 0, 0, 0));
    show("open missing", sysc(286, -100, (long)join(path, argv[1], "/nope"), 0, 0, 0, 0));
    long w = sysc(286, -100, (long)join(path, argv[2], "/out.txt"), 01 | 0100 | 01000, 0644, 0, 0);
    show("open out.txt ok", w >= 3);
    show("write", sysc(4, w, (long)"written\n", 8, 0, 0, 0));
    show("pwrite", sysc(180, w, (long)"W", 1, 0, 0, 0));
    show("close", sysc(6, w, 0, 0, 0, 0, 0));
    struct { const char *b; u64 n; } iov[2] = {{"write", 5}, {"v\n", 2}};
    show("writev", sysc(146, 1, (long)iov, 2, 0, 0, 0));
    long d = sysc(41, 1, 0, 0, 0, 0, 0);
    show("dup", d);
    sysc(4, d, (long)"via dup\n", 8, 0, 0, 0);
    show("dup3", sysc(316, 2, 9, 0, 0, 0, 0));
    sysc(4, 9, (long)"via dup3 to stderr\n", 19, 0, 0, 0);
    int fds[2];
    show("pipe2", sysc(317, (long)fds, 0, 0, 0, 0, 0));
    show("pipe write", sysc(4, fds[1], (long)"piped", 5, 0, 0, 0));
    n = sysc(3, fds[0], (long)buf, 100, 0, 0, 0);
    show("pipe read", n);
    sysc(4, 1, (long)buf, n, 0, 0, 0);
    puts1("\n");
    long total = 0;
    while ((n = sysc(3, 0, (long)buf, sizeof buf, 0, 0, 0)) > 0) {
        sysc(4, 1, (long)buf, n, 0, 0, 0);
        total += n;
    }
    show("stdin bytes", total);
    show("ioctl TCGETS on a pipe", sysc(54, 1, 0x402c7413, (long)buf, 0, 0, 0));
    long b0 = sysc(45, 0, 0, 0, 0, 0, 0);
    long b1 = sysc(45, b0 + 100000, 0, 0, 0, 0, 0);
    show("brk grew", b1 - b0);
    ((char *)b0)[99999] = 7;
    show("brk memory", ((char *)b0)[99999]);
    char *m = (char *)sysc(90, 0, 1 << 20, 3, 0x22, -1, 0);
    show("mmap page aligned", ((u64)m & 4095) == 0);
    m[0] = 1;
    m[(1 << 20) - 1] = 2;
    show("mmap memory", m[0] + m[(1 << 20) - 1]);
    char *m2 = (char *)sysc(163, (long)m, 1 << 20, 2 << 20, 1, 0, 0);
    show("mremap kept data", m2[0] + m2[(1 << 20) - 1]);
    show("munmap", sysc(91, (long)m2, 2 << 20, 0, 0, 0, 0));
    show("munmap unaligned", sysc(91, (long)m2 + 1, 4096, 0, 0, 0, 0));
    show("mprotect", sysc(125, b0 & ~4095L, 4096, 3, 0, 0, 0));
    show("unknown call", sysc(9999, 0, 0, 0, 0, 0, 0));
    show("getrandom", sysc(359, (long)buf, 16, 0, 0, 0, 0));
    long ts[2];
    show("clock_gettime", sysc(246, 1, (long)ts, 0, 0, 0, 0));
    show("clock_gettime bad clock", sysc(246, 99, (long)ts, 0, 0, 0, 0));
    show("set_tid_address > 0", sysc(232, 0, 0, 0, 0, 0, 0) > 0);
    show("getpid == gettid", sysc(20, 0, 0, 0, 0, 0, 0) == sysc(207, 0, 0, 0, 0, 0, 0));
    u64 lim[2];
    show("prlimit64 stack", sysc(325, 0, 3, 0, (long)lim, 0, 0));
    char uts[6 * 65];
    show("uname", sysc(122, (long)uts, 0, 0, 0, 0, 0));
    puts1(uts);
    puts1(" ");
    puts1(uts + 4 * 65);
    puts1("\n");
    return 3;
}
