/* A glibc program for the gdb session test: main, two printf calls, argv. */
#include <stdio.h>

int main(int argc, char **argv)
{
    const char *who = argc > 1 ? argv[1] : "nobody";
    printf("hello %s\n", who);
    printf("argc %d\n", argc);
    return argc;
}
