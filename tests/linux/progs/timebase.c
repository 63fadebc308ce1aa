/* The Time Base (mfspr 268) against clock_gettime(CLOCK_MONOTONIC) across a
   busy loop and a 0.25 s sleep: ticks, nanoseconds and ticks per microsecond. */
#include <stdio.h>
#include <time.h>
static unsigned long tb(void) { unsigned long v; __asm__ volatile("mfspr %0,268" : "=r"(v)); return v; }
static long ns(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000L + t.tv_nsec; }
int main(void) {
    unsigned long t0 = tb(); long n0 = ns();
    volatile unsigned long x = 0;
    for (int i = 0; i < 100000; i++) x += i;
    struct timespec req = {0, 250000000};   /* 0.25 s asleep */
    nanosleep(&req, 0);
    unsigned long t1 = tb(); long n1 = ns();
    printf("tb %lu ns %ld ratio %.4f\n", t1 - t0, n1 - n0, (double)(t1 - t0) * 1000.0 / (double)(n1 - n0));
    return 0;
}
