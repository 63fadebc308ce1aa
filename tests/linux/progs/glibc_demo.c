/* A glibc program for the acceptance tests: argv[1] picks what it does. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <wchar.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "printf")) {
        printf("%d %i %u %o %x %X %c %s %p %% %5d|%-5d|%05d %ld %lld %hhd %zu\n", -42, 7,
               3000000000u, 8, 255, 255, 'z', "str", (void *)0x1234, 1, 2, 3, -1L, 1LL << 40,
               (signed char)200, sizeof(long));
        printf("%f %e %g %a %.3f %10.4e %G %E\n", 3.14159, 1e-300, 0.0001, 1.5, -2.5,
               6.02e23, 1e100, 123.456);
        printf("%f %f %f\n", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0);
        return 0;
    }
    if (!strcmp(mode, "conversions")) {
        /* every conversion and flag of C11's printf, beside the ones above */
        int n1 = 0, n2 = 0;
        long double ld = 1.0L / 3.0L;
        printf("%+d % d %+i %#o %#x %#X %hd %hu %hhu %lu %llu %jd %td %zd%n|\n", 5, 6, -7, 8,
               255, 255, (short)-2, (unsigned short)65535, (unsigned char)300, ~0UL, ~0ULL,
               (intmax_t)-9, (ptrdiff_t)-10, (ssize_t)-11, &n1);
        printf("[%*d] [%-*d] [%.*d] [%08.3d] [%+05d] [%-+6d] [%x] [%.0d]%n\n", 6, 42, 6, 42,
               5, 42, 7, -3, 17, 0, 0, &n2);
        printf("n1=%d n2=%d\n", n1, n2);
        printf("%F %F %A %.2a %#.0f %#.0e %#g %g %.10g %.0e %e\n", 1.0 / 0.0, 2.5, -0.75,
               1.0 / 3.0, 3.0, 4.0, 1.0, 100000.0, 1.0 / 7.0, 15.5, -0.0);
        printf("%g %e %a %.17g %.17g %f\n", 4.9e-324, 2.2250738585072009e-308, 4.9e-324,
               0.1, 1e22, 1e15 + 0.3);
        printf("%Lf %Le %Lg %La\n", ld, ld, ld * 1e30L, ld);
        printf("[%5s] [%-5s] [%.2s] [%c%c] [%5c] [%-3c]\n", "ab", "ab", "abcdef", 'x', 'y', 'z',
               'w');
        printf("%ls %lc %5.1f%% %s\n", L"wide", (wint_t)L'W', 99.44, (char *)0);
        return 0;
    }
    if (!strcmp(mode, "malloc")) {
        size_t total = 0;
        char *p = malloc(1 << 20);
        for (int i = 0; i < 8; i++) {
            memset(p, i, (size_t)(1 << 20) << i);
            total += p[((size_t)(1 << 20) << i) - 1];
            p = realloc(p, (size_t)(1 << 20) << (i + 1));
        }
        free(p);
        void *small[100];
        for (int i = 0; i < 100; i++)
            small[i] = malloc(i * 37 + 1);
        for (int i = 0; i < 100; i += 2)
            free(small[i]);
        printf("malloc ok %zu\n", total);
        return 0;
    }
    if (!strcmp(mode, "qsort")) {
        int v[200];
        unsigned s = 1;
        for (int i = 0; i < 200; i++)
            v[i] = (int)((s = s * 1103515245u + 12345u) >> 8) % 1000;
        qsort(v, 200, sizeof v[0], cmp);
        for (int i = 0; i < 200; i += 20)
            printf("%d ", v[i]);
        printf("\n");
        return 0;
    }
    if (!strcmp(mode, "strings")) {
        char buf[100];
        strcpy(buf, "hello");
        strcat(buf, ", world");
        printf("%zu %s %d %s %s\n", strlen(buf), strchr(buf, 'w'), strcmp("a", "b"),
               strstr(buf, "lo,"), strrchr(buf, 'o'));
        printf("%ld %lu %g\n", strtol("-123x", 0, 10), strtoul("ff", 0, 16), atof("2.5e3"));
        return 0;
    }
    if (!strcmp(mode, "env")) {
        for (int i = 0; i < argc; i++)
            printf("argv[%d]=%s\n", i, argv[i]);
        printf("HOME=%s X=%s\n", getenv("HOME") ? getenv("HOME") : "(null)",
               getenv("X") ? getenv("X") : "(null)");
        return 0;
    }
    if (!strcmp(mode, "stdinfile")) {
        /* stdin redirected from a file: a regular file that seeks */
        struct stat st;
        char line[256];
        int n = 0;
        fstat(0, &st);
        off_t end = lseek(0, 0, SEEK_END);
        lseek(0, 6, SEEK_SET);
        printf("regular=%d size=%ld end=%ld\n", S_ISREG(st.st_mode), (long)st.st_size, (long)end);
        while (fgets(line, sizeof line, stdin))
            printf("%d: %s", ++n, line);
        return n;
    }
    if (!strcmp(mode, "stdin")) {
        char line[256];
        int n = 0;
        while (fgets(line, sizeof line, stdin))
            printf("%d: %s", ++n, line);
        return n;
    }
    if (!strcmp(mode, "interleave")) {
        for (int i = 0; i < 3; i++) {
            printf("out %d\n", i);
            fflush(stdout);
            fprintf(stderr, "err %d\n", i);
        }
        return 0;
    }
    if (!strcmp(mode, "file")) {
        FILE *f = fopen(argv[2], "r");
        if (!f) {
            perror("fopen");
            return 1;
        }
        char buf[256];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        printf("read %zu: %.*s", n, (int)n, buf);
        return 0;
    }
    if (!strcmp(mode, "abort")) {
        printf("aborting\n");
        fflush(stdout);
        abort();
    }
    if (!strcmp(mode, "null")) {
        volatile int *p = 0;
        return *p;
    }
    if (!strcmp(mode, "time")) {
        struct timespec a, b, req = {2, 500000000};
        struct timeval tv;
        clock_gettime(CLOCK_MONOTONIC, &a);
        nanosleep(&req, 0);
        clock_gettime(CLOCK_MONOTONIC, &b);
        gettimeofday(&tv, 0);
        printf("time=%ld tv=%ld.%06ld slept=%.9f cpu=%.9f\n", (long)time(0), (long)tv.tv_sec,
               (long)tv.tv_usec, (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9,
               (double)clock() / CLOCKS_PER_SEC);
        return 0;
    }
    if (!strcmp(mode, "exit3"))
        exit(3);
    return 99;
}
