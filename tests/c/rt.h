/* Tiny runtime for the freestanding test programs: write/exit system calls,
 * memcpy/memset (gcc may emit calls to them), and decimal/hex output. */
#ifndef RT_H
#define RT_H

typedef unsigned long u64;
typedef long i64;
typedef unsigned int u32;
typedef int i32;
typedef unsigned char u8;

static inline long sys_write(int fd, const void *buf, u64 n)
{
    register long r0 __asm__("r0") = 4;
    register long r3 __asm__("r3") = fd;
    register long r4 __asm__("r4") = (long)buf;
    register long r5 __asm__("r5") = (long)n;
    __asm__ volatile("sc"
                     : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5)
                     :
                     : "memory", "cr0", "r6", "r7", "r8", "r9", "r10", "r11", "r12",
                       "ctr", "xer");
    return r3;
}

void *memcpy(void *d, const void *s, u64 n)
{
    u8 *dp = d;
    const u8 *sp = s;
    while (n--)
        *dp++ = *sp++;
    return d;
}

void *memset(void *d, int c, u64 n)
{
    u8 *dp = d;
    while (n--)
        *dp++ = (u8)c;
    return d;
}

static inline u64 str_len(const char *s)
{
    u64 n = 0;
    while (s[n])
        n++;
    return n;
}

static inline void put_str(const char *s)
{
    sys_write(1, s, str_len(s));
}

static inline void put_dec(i64 v)
{
    char buf[24];
    int i = 23;
    u64 u = v < 0 ? -(u64)v : (u64)v;
    buf[i] = 0;
    do {
        buf[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        buf[--i] = '-';
    put_str(buf + i);
}

static inline void put_hex(u64 v)
{
    char buf[17];
    for (int i = 15; i >= 0; i--) {
        buf[i] = "0123456789abcdef"[v & 15];
        v >>= 4;
    }
    buf[16] = 0;
    put_str(buf);
}

static u64 rng_state = 0x9E3779B97F4A7C15UL;

static inline u64 rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

#endif
