/* ioctl TCGETS and TIOCGWINSZ on file descriptors 0, 1 and 2: the result
 * (or -errno) and the structure's bytes in hex, as the kernel wrote them. */
#include "lx.h"

static void hex(const unsigned char *p, int n)
{
    char buf[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        buf[0] = "0123456789abcdef"[p[i] >> 4];
        buf[1] = "0123456789abcdef"[p[i] & 15];
        puts1(buf);
    }
    puts1("\n");
}

long cmain(long *sp)
{
    unsigned char t[44], w[8];
    for (int fd = 0; fd < 3; fd++) {
        memset(t, 0xee, sizeof t);
        memset(w, 0xee, sizeof w);
        long r = sysc(54, fd, 0x402C7413, (long)t, 0, 0, 0);      /* TCGETS */
        show("TCGETS", r);
        if (r == 0)
            hex(t, sizeof t);
        r = sysc(54, fd, 0x40087468, (long)w, 0, 0, 0);           /* TIOCGWINSZ */
        show("TIOCGWINSZ", r);
        if (r == 0)
            hex(w, sizeof w);
    }
    return 0;
}
