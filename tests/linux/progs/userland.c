#define _GNU_SOURCE
/* Everyday glibc usage, compared with qemu-ppc64le byte for byte: argv[1]
 * picks the part (dir DIR, files DIR, entries DIR, poll, strtod, time, qsort,
 * math, misc). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* readdir (getdents64) of a directory, names sorted (readdir's order is the
 * file system's), with each entry's d_type and size */
static int dir(const char *path)
{
    DIR *d = opendir(path);
    if (!d) {
        perror("opendir");
        return 1;
    }
    char *names[64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 64) {
        char line[512];
        struct stat st;
        char full[1024];
        snprintf(full, sizeof full, "%s/%s", path, e->d_name);
        long size = lstat(full, &st) == 0 && S_ISREG(st.st_mode) ? (long)st.st_size : -1;
        snprintf(line, sizeof line, "%s type=%d size=%ld", e->d_name, e->d_type, size);
        names[n++] = strdup(line);
    }
    closedir(d);
    qsort(names, n, sizeof names[0], by_name);
    for (int i = 0; i < n; i++)
        printf("%s\n", names[i]);
    /* realpath asks readlink of every component, the directories above too */
    char in[1024], out[4096];
    snprintf(in, sizeof in, "%s/sub/../link", path);
    if (realpath(in, out))
        printf("realpath: %s\n", strncmp(out, path, strlen(path)) ? out : out + strlen(path));
    else
        perror("realpath");
    return 0;
}

/* stdio on files under a writable directory: write, seek, read, append, rename */
static int files(const char *path)
{
    char a[1024], b[1024], buf[256];
    snprintf(a, sizeof a, "%s/a.txt", path);
    snprintf(b, sizeof b, "%s/b.txt", path);
    FILE *f = fopen(a, "w+");
    if (!f) {
        perror("fopen w+");
        return 1;
    }
    for (int i = 0; i < 100; i++)
        fprintf(f, "line %03d %s\n", i, i % 7 ? "x" : "seven");
    printf("ftell after writing: %ld\n", ftell(f));
    fseek(f, 9 * 11, SEEK_SET);
    size_t n = fread(buf, 1, 20, f);
    printf("read %zu at 99: %.*s|\n", n, (int)n, buf);
    fseek(f, -15, SEEK_END);
    n = fread(buf, 1, sizeof buf, f);
    printf("read %zu at end-15: %.*s| eof=%d\n", n, (int)n, buf, feof(f));
    rewind(f);
    fwrite("LINE", 1, 4, f);
    fflush(f);
    fseek(f, 0, SEEK_SET);
    printf("first line now: %s", fgets(buf, sizeof buf, f));
    fclose(f);
    f = fopen(a, "a");
    fputs("appended\n", f);
    fclose(f);
    if (rename(a, b) != 0)
        perror("rename");
    f = fopen(a, "r");
    printf("old name after rename: %s (%s)\n", f ? "exists" : "gone", f ? "" : strerror(errno));
    f = fopen(b, "rb");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, -9, SEEK_END);
    n = fread(buf, 1, sizeof buf, f);
    printf("new name: size %ld, tail %.*s", size, (int)n, buf);
    fclose(f);
    struct stat st;
    stat(b, &st);
    printf("stat size %ld regular %d\n", (long)st.st_size, S_ISREG(st.st_mode));
    printf("unlink %d, then stat %d errno %d\n", unlink(b), stat(b, &st), errno);
    return 0;
}

/* directory entries under a writable directory holding "link", a symbolic
 * link to a file outside: lstat sees the link, unlink removes the link alone */
static int entries(const char *path)
{
    char p[1024], q[1024], r[1024];
    struct stat st;
    snprintf(p, sizeof p, "%s/link", path);
    printf("lstat %d link %d; stat %d\n", lstat(p, &st), S_ISLNK(st.st_mode), stat(p, &st));
    printf("unlink link %d\n", unlink(p));
    printf("lstat again %d errno %d\n", lstat(p, &st), errno);
    snprintf(p, sizeof p, "%s/d", path);
    snprintf(q, sizeof q, "%s/d/inner", path);
    printf("mkdir %d %d, again %d errno %d\n", mkdir(p, 0755), mkdir(q, 0700), mkdir(p, 0755),
           errno);
    printf("rmdir non-empty %d errno %d\n", rmdir(p), errno);
    snprintf(r, sizeof r, "%s/d/inner/f", path);
    FILE *f = fopen(r, "w");
    fputs("0123456789", f);
    fflush(f);
    printf("ftruncate %d, ", ftruncate(fileno(f), 4));
    fclose(f);
    stat(r, &st);
    printf("size %ld, truncate %d, ", (long)st.st_size, truncate(r, 100));
    stat(r, &st);
    printf("size %ld\n", (long)st.st_size);
    printf("unlink a directory %d errno %d\n", unlink(q), errno);
    snprintf(p, sizeof p, "%s/d/moved", path);
    printf("rename dir %d, ", rename(q, p));
    snprintf(r, sizeof r, "%s/d/moved/f", path);
    printf("unlink %d, rmdir %d, ", unlink(r), rmdir(p));
    snprintf(p, sizeof p, "%s/d", path);
    printf("rmdir %d, stat %d errno %d\n", rmdir(p), stat(p, &st), errno);
    snprintf(p, sizeof p, "%s/missing", path);
    printf("unlink missing %d errno %d; rename missing %d errno %d\n", unlink(p), errno,
           rename(p, q), errno);
    return 0;
}

/* poll and ppoll: stdin, stdout, a bad descriptor, a pipe as it fills, hangs
 * up and empties, and a timeout that runs out */
static int poll_part(void)
{
    struct pollfd p[4] = {{0, POLLIN, 0}, {1, POLLOUT, 0}, {-1, POLLIN, 0}, {42, POLLIN, 0}};
    int r = poll(p, 4, 0);
    printf("poll %d: stdin %x stdout %x none %x closed %x\n", r, p[0].revents, p[1].revents,
           p[2].revents, p[3].revents);
    int fds[2];
    if (pipe(fds))
        return 1;
    struct pollfd q = {fds[0], POLLIN, 0};
    printf("empty pipe, 50 ms: %d %x\n", poll(&q, 1, 50), q.revents);
    write(fds[1], "abc", 3);
    printf("written: %d %x\n", poll(&q, 1, -1), q.revents);
    close(fds[1]);
    struct timespec ts = {0, 1000};
    printf("writer closed: %d %x\n", ppoll(&q, 1, &ts, 0), q.revents);
    char buf[8];
    printf("read %zd, then %d %x\n", read(fds[0], buf, sizeof buf), poll(&q, 1, 0), q.revents);
    long lines = 0;
    char *line = 0;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0)
        lines++;
    r = poll(p, 1, 0);
    printf("stdin read out (%ld lines): %d %x\n", lines, r, p[0].revents);
    return 0;
}

static uint64_t lcg = 88172645463325252ULL;
static uint64_t next(void)
{
    lcg ^= lcg << 13;
    lcg ^= lcg >> 7;
    lcg ^= lcg << 17;
    return lcg;
}

/* strtod and printf round trips: decimal strings in, %.17g and %a out; random
 * bit patterns through %.17g back to the same double */
static int strtod_part(void)
{
    const char *in[] = {"0", "-0", "1e-320", "4.9406564584124654e-324", "2.2250738585072011e-308",
                        "1.7976931348623157e308", "1e309", "-inf", "nan", "0x1.8p3",
                        "123456789012345678901234567890", "0.1", "3.14159265358979323846",
                        "9007199254740993",
                        "1.00000000000000011102230246251565404236316680908203125",
                        "  42abc", "1e", ".5e-3", "INFINITY", "-0x0.0000000000001p-1022"};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        char *end;
        errno = 0;
        double d = strtod(in[i], &end);
        printf("%-28.28s -> %.17g %a rest=\"%s\" errno=%d\n", in[i], d, d, end, errno);
    }
    int bad = 0;
    for (int i = 0; i < 400; i++) {
        uint64_t bits = next();
        double d;
        memcpy(&d, &bits, 8);
        if (isnan(d))
            continue;
        char s[64];
        snprintf(s, sizeof s, "%.17g", d);
        double back = strtod(s, 0);
        if (memcmp(&back, &d, 8))
            bad++;
        if (i % 50 == 0)
            printf("%s %.6e %g\n", s, d, (float)d);
    }
    printf("round trips failed: %d\n", bad);
    printf("strtof %a strtold %La\n", strtof("0.1", 0), strtold("0.1", 0));
    return 0;
}

/* calendar arithmetic on fixed instants (the clock itself differs by design) */
static int time_part(void)
{
    setenv("TZ", "UTC0", 1);   /* no /etc/localtime: the same rules everywhere */
    tzset();
    time_t stamps[] = {0, 951782400, 1700000000, 2147483647, 4102444800LL, -86400};
    for (size_t i = 0; i < sizeof stamps / sizeof stamps[0]; i++) {
        struct tm tm;
        char buf[128];
        gmtime_r(&stamps[i], &tm);
        strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a %b %j %U %W %V %G %u %w %Z %z %s", &tm);
        struct tm l;
        localtime_r(&stamps[i], &l);
        time_t back = mktime(&l);
        printf("%lld: %s | %s", (long long)stamps[i], buf, asctime(&tm));
        printf("  mktime back %lld yday %d dst %d\n", (long long)back, l.tm_yday, l.tm_isdst);
    }
    struct tm t = {.tm_year = 124, .tm_mon = 1, .tm_mday = 29 + 366, .tm_hour = 25};
    time_t norm = timegm(&t);
    printf("normalised %lld %d-%d-%d %d\n", (long long)norm, t.tm_year, t.tm_mon, t.tm_mday,
           t.tm_hour);
    printf("difftime %.1f\n", difftime(1700000000, 951782400));
    return 0;
}

struct person {
    char name[16];
    int age;
    double score;
};

static int by_age_then_name(const void *a, const void *b)
{
    const struct person *x = a, *y = b;
    if (x->age != y->age)
        return x->age - y->age;
    return strcmp(x->name, y->name);
}

static int by_score(const void *a, const void *b)
{
    double x = ((const struct person *)a)->score, y = ((const struct person *)b)->score;
    return (x > y) - (x < y);
}

static int qsort_part(void)
{
    struct person p[300];
    for (int i = 0; i < 300; i++) {
        snprintf(p[i].name, sizeof p[i].name, "p%04u", (unsigned)(next() % 10000));
        p[i].age = (int)(next() % 90);
        p[i].score = (double)(next() % 100000) / 7.0;
    }
    qsort(p, 300, sizeof p[0], by_age_then_name);
    for (int i = 0; i < 300; i += 37)
        printf("%s %d %.3f\n", p[i].name, p[i].age, p[i].score);
    struct person key = p[123];
    struct person *hit = bsearch(&key, p, 300, sizeof p[0], by_age_then_name);
    printf("bsearch %ld\n", hit ? (long)(hit - p) : -1L);
    qsort(p, 300, sizeof p[0], by_score);
    printf("lowest %.6f highest %.6f\n", p[0].score, p[299].score);
    /* realloc growth: contents survive each move */
    size_t cap = 1;
    unsigned char *v = malloc(cap);
    unsigned long sum = 0;
    for (size_t len = 0; len < 300000; len++) {
        if (len == cap) {
            cap = cap * 3 / 2 + 1;
            v = realloc(v, cap);
        }
        v[len] = (unsigned char)(len * 31);
    }
    for (size_t i = 0; i < 300000; i++)
        sum += v[i] * (i % 13);
    v = realloc(v, 10);
    printf("realloc sum %lu head %u %u\n", sum, v[1], v[9]);
    free(v);
    return 0;
}

static int math_part(void)
{
    double xs[] = {0.5, 1.0, 2.0, 3.14159, 10.0, 1e-5, 100.5, -2.75, 1e10, 0.7853981633974483};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        double x = xs[i];
        printf("%a: sin %a cos %a tan %a exp %a log %a sqrt %a cbrt %a\n", x, sin(x), cos(x),
               tan(x), exp(x), log(fabs(x)), sqrt(fabs(x)), cbrt(x));
        printf("  pow %a atan2 %a hypot %a fmod %a floor %a round %a lgamma %a erf %a\n",
               pow(x, 1.5), atan2(x, 3.0), hypot(x, 4.0), fmod(x, 0.3), floor(x), round(x),
               lgamma(x), erf(x));
        printf("  sinf %a expf %a logf %a powf %a\n", sinf((float)x), expf((float)x / 8),
               logf(fabsf((float)x)), powf((float)x, 0.3f));
    }
    return 0;
}

static jmp_buf jump;
static void deep(int n)
{
    if (n == 0)
        longjmp(jump, 42);
    deep(n - 1);
}
static void bye1(void) { printf("atexit 1\n"); }
static void bye2(void) { printf("atexit 2\n"); }

static int misc_part(void)
{
    char buf[32];
    int r = snprintf(buf, 8, "%s-%d", "truncated", 12345);
    printf("snprintf %d '%s'\n", r, buf);
    int a, b;
    char word[16];
    float f;
    int got = sscanf("  17 0x1f word 2.5e1 rest", "%d %i %15s %f", &a, &b, word, &f);
    printf("sscanf %d: %d %d %s %g\n", got, a, b, word, f);
    int v = setjmp(jump);
    if (v == 0)
        deep(50);
    printf("longjmp gave %d\n", v);
    printf("strtol %ld %ld errno %d\n", strtol("-9223372036854775809", 0, 10),
           strtol("0777", 0, 0), errno);
    printf("strerror %s | %s\n", strerror(ENOENT), strerror(EACCES));
    char *line = 0;
    size_t cap = 0;
    FILE *m = fmemopen("one\ntwo\n", 8, "r");
    while (getline(&line, &cap, m) > 0)
        printf("getline %s", line);
    fclose(m);
    free(line);
    printf("getenv %s pid>0 %d\n", getenv("LANG"), getpid() > 0);
    atexit(bye1);
    atexit(bye2);
    return 5;
}

int main(int argc, char **argv)
{
    const char *part = argc > 1 ? argv[1] : "";
    if (!strcmp(part, "dir") && argc > 2)
        return dir(argv[2]);
    if (!strcmp(part, "entries") && argc > 2)
        return entries(argv[2]);
    if (!strcmp(part, "files") && argc > 2)
        return files(argv[2]);
    if (!strcmp(part, "poll"))
        return poll_part();
    if (!strcmp(part, "strtod"))
        return strtod_part();
    if (!strcmp(part, "time"))
        return time_part();
    if (!strcmp(part, "qsort"))
        return qsort_part();
    if (!strcmp(part, "math"))
        return math_part();
    if (!strcmp(part, "misc"))
        return misc_part();
    return 99;
}
