/* Raw Linux system calls for the freestanding test programs: sysc() returns
 * the result, or -errno when the kernel set CR0.SO (as glibc's
 * INTERNAL_SYSCALL does). */
#ifndef LX_H
#define LX_H
typedef unsigned long u64;
typedef long i64;

static long sysc(long n, long a, long b, long c, long d, long e, long f)
{
    register long r0 __asm__("r0") = n;
    register long r3 __asm__("r3") = a;
    register long r4 __asm__("r4") = b;
    register long r5 __asm__("r5") = c;
    register long r6 __asm__("r6") = d;
    register long r7 __asm__("r7") = e;
    register long r8 __asm__("r8") = f;
    long cr;
    __asm__ volatile("sc\n\tmfcr %7"
                     : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5), "+r"(r6), "+r"(r7), "+r"(r8),
                       "=r"(cr)
                     :
                     : "memory", "cr0", "r9", "r10", "r11", "r12", "ctr", "xer");
    return (cr & 0x10000000) ? -r3 : r3;
}

void *memcpy(void *d, const void *s, u64 n)
{
    char *dp = d;
    const char *sp = s;
    while (n--)
        *dp++ = *sp++;
    return d;
}

void *memset(void *d, int c, u64 n)
{
    char *dp = d;
    while (n--)
        *dp++ = (char)c;
    return d;
}

static u64 slen(const char *s)
{
    u64 n = 0;
    while (s[n])
        n++;
    return n;
}

static void out(int fd, const char *s) { sysc(4, fd, (long)s, slen(s), 0, 0, 0); }
static void puts1(const char *s) { out(1, s); }

static void putdec(i64 v)
{
    char buf[24];
    int i = 23;
    u64 u = v < 0 ? -(u64)v : (u64)v;
    buf[i] = 0;
    do {
        buf[--i] = '0' + u % 10;
        u /= 10;
    } while (u);
    if (v < 0)
        buf[--i] = '-';
    puts1(buf + i);
}

static void show(const char *what, i64 v)
{
    puts1(what);
    puts1(" = ");
    putdec(v);
    puts1("\n");
}

static char *join(char *buf, const char *a, const char *b)
{
    u64 n = slen(a);
    memcpy(buf, a, n);
    memcpy(buf + n, b, slen(b) + 1);
    return buf;
}
#endif
