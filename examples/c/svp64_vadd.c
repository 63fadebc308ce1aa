/* A glibc program whose hot loop is an SVP64 kernel in inline assembly:
 * out[i] = a[i] + b[i], four elements per prefixed sv.add.
 *
 *   powerpc64le-linux-gnu-gcc -O2 -static -o svp64_vadd svp64_vadd.c
 *   isa-ext run --linux svp64_vadd -- 1024        # prints: sum of 1024 = 1572352
 *
 * GNU as does not know SVP64, so the kernel's prefixed instructions are
 * written as words; `isa-ext asm` prints them from the source in the comments.
 */
#include <stdio.h>
#include <stdlib.h>

#define SETVL_4   ".long 0x580007b6\n"                 /* setvl 0,0,4,0,1,1 (VL = 4) */
#define SV_ADD    ".long 0x05402480, 0x7c443214\n"     /* sv.add *8, *16, *24 */

/* out[0..3] = a[0..3] + b[0..3]: the elements in r16..r19 and r24..r27, the sums
 * in r8..r11 */
static void vadd4(const long *a, const long *b, long *out)
{
    __asm__ volatile(
        "ld 16,0(%0)\n ld 17,8(%0)\n ld 18,16(%0)\n ld 19,24(%0)\n"
        "ld 24,0(%1)\n ld 25,8(%1)\n ld 26,16(%1)\n ld 27,24(%1)\n"
        SETVL_4
        SV_ADD
        "std 8,0(%2)\n std 9,8(%2)\n std 10,16(%2)\n std 11,24(%2)\n"
        :
        : "b"(a), "b"(b), "b"(out)
        : "r8", "r9", "r10", "r11", "r16", "r17", "r18", "r19", "r24", "r25", "r26", "r27",
          "memory");
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1024;
    if (n <= 0 || n % 4) {
        fprintf(stderr, "usage: %s N  (N a positive multiple of 4)\n", argv[0]);
        return 2;
    }
    long *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *out = malloc(n * sizeof *out);
    for (long i = 0; i < n; i++) {
        a[i] = i;
        b[i] = 2 * i + 1;
    }
    for (long i = 0; i < n; i += 4)
        vadd4(a + i, b + i, out + i);
    long sum = 0;
    for (long i = 0; i < n; i++)
        sum += out[i];
    printf("sum of %ld = %ld\n", n, sum);
    free(a);
    free(b);
    free(out);
    return 0;
}
