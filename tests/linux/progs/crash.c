/* A glibc program killed by SIGSEGV with output pending in stdio's buffers:
 * what reaches stdout and stderr, in which order, depends on each stream's
 * buffering (a pipe's stdout is fully buffered and lost, stderr unbuffered).
 * argv[1] picks the buffering; argv[2] the access: "read" of address 0,
 * "write" to it, "field" reads the member at offset 0x18 of a NULL struct. */
#include <stdio.h>
#include <string.h>

struct record { long a, b, c, field; };

/* the faulting access is the first instruction of each (a leaf: no prologue),
 * so the trap's pc is the function's address */
__attribute__((noinline)) int load_from(volatile int *p) { return *p; }
__attribute__((noinline)) void store_to(volatile int *p) { *p = 1; }
__attribute__((noinline)) long field_of(volatile struct record *r) { return r->field; }

volatile void *null_pointer;   /* 0, out of the compiler's sight */

int main(int argc, char **argv)
{
    const char *buffering = argc > 1 ? argv[1] : "full";
    const char *access = argc > 2 ? argv[2] : "read";
    if (!strcmp(buffering, "line"))
        setvbuf(stdout, 0, _IOLBF, 0);
    else if (!strcmp(buffering, "none"))
        setvbuf(stdout, 0, _IONBF, 0);
    printf("stdout line 1\n");
    fprintf(stderr, "stderr line 1\n");
    if (!strcmp(buffering, "flushed"))
        fflush(stdout);
    printf("stdout partial");
    fprintf(stderr, "stderr partial");
    if (!strcmp(access, "write"))
        store_to(null_pointer);
    else if (!strcmp(access, "field"))
        return (int)field_of(null_pointer);
    else
        return load_from(null_pointer);
    printf("not reached\n");
    return 0;
}
