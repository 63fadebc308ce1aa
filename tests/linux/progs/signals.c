/* How a program ends on a trap, by argv[1]: "rop" runs ROP-protected calls
   (built with -mrop-protect: hashst/hashchk in every prologue and epilogue
   that saves LR); "intact"/"flip" store a hash, keep it or flip one bit, and
   check it (hashchk traps: SIGTRAP); "show" prints a hash (the key's
   witness); "trap" a trap instruction (SIGTRAP);
   "fpe" a division by zero with the exception enabled (SIGFPE); "ill" an
   illegal instruction (SIGILL). */
#define _GNU_SOURCE
#include <fenv.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static long fib(long n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static unsigned long hash_of(unsigned long rb) {
    unsigned long slot[2] = {0, 0};
    unsigned long *p = &slot[1];
    __asm__ volatile("hashst %1,-8(%0)" : : "b"(p), "r"(rb) : "memory");
    return slot[0];
}

static void check_hash(unsigned long flip) {
    unsigned long slot[2] = {0, 0};
    unsigned long *p = &slot[1];
    __asm__ volatile("hashst 0,-8(%0)\n\t"
                     "ld 10,-8(%0)\n\t"
                     "xor 10,10,%1\n\t"
                     "std 10,-8(%0)\n\t"
                     "hashchk 0,-8(%0)" : : "b"(p), "r"(flip) : "r10", "memory");
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "rop";
    printf("mode %s\n", mode);
    fflush(stdout);
    if (strcmp(mode, "rop") == 0) {
        printf("fib(16) = %ld\n", fib(16));
    } else if (strcmp(mode, "intact") == 0 || strcmp(mode, "flip") == 0) {
        check_hash(strcmp(mode, "flip") == 0 ? 1UL << 17 : 0);
    } else if (strcmp(mode, "show") == 0) {
        printf("%016lx\n", hash_of(0x1234));
    } else if (strcmp(mode, "trap") == 0) {
        __builtin_trap();
    } else if (strcmp(mode, "fpe") == 0) {
        volatile double zero = 0.0;
        feenableexcept(FE_DIVBYZERO);
        printf("%g\n", 1.0 / zero);
    } else if (strcmp(mode, "ill") == 0) {
        __asm__ volatile(".long 0");
    }
    printf("%s: survived\n", mode);
    return 0;
}
