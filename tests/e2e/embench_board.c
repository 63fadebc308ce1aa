/* Board support for Embench-IoT (tests/e2e/test_embench_power10.py) and the few
   C library functions its programs call, for a freestanding static ELF. */
#include <stddef.h>
void initialise_board(void) {}
void start_trigger(void) {}
void stop_trigger(void) {}
void *memcpy(void *d, const void *s, size_t n) { unsigned char *dp = d; const unsigned char *sp = s; while (n--) *dp++ = *sp++; return d; }
void *memmove(void *d, const void *s, size_t n) { unsigned char *dp = d; const unsigned char *sp = s; if (dp < sp) while (n--) *dp++ = *sp++; else while (n--) dp[n] = sp[n]; return d; }
void *memset(void *d, int c, size_t n) { unsigned char *dp = d; while (n--) *dp++ = (unsigned char)c; return d; }
int memcmp(const void *a, const void *b, size_t n) { const unsigned char *x = a, *y = b; for (; n; n--, x++, y++) if (*x != *y) return *x - *y; return 0; }
size_t strlen(const char *s) { size_t n = 0; while (s[n]) n++; return n; }
int strcmp(const char *a, const char *b) { while (*a && *a == *b) a++, b++; return (unsigned char)*a - (unsigned char)*b; }
int strncmp(const char *a, const char *b, size_t n) { for (; n; n--, a++, b++) { if (*a != *b) return (unsigned char)*a - (unsigned char)*b; if (!*a) return 0; } return 0; }
char *strcpy(char *d, const char *s) { char *r = d; while ((*d++ = *s++)) ; return r; }
char *strchr(const char *s, int c) { for (;; s++) { if (*s == (char)c) return (char *)s; if (!*s) return 0; } }
/* <ctype.h> as functions (the programs are built with __NO_CTYPE) */
int isdigit(int c) { return c >= '0' && c <= '9'; }
int isalpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
int isalnum(int c) { return isdigit(c) || isalpha(c); }
int isspace(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
int isxdigit(int c) { return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int isupper(int c) { return c >= 'A' && c <= 'Z'; }
int islower(int c) { return c >= 'a' && c <= 'z'; }
int tolower(int c) { return isupper(c) ? c + 32 : c; }
int toupper(int c) { return islower(c) ? c - 32 : c; }
double sqrt(double x) { return __builtin_sqrt(x); }  /* fsqrt (-fno-math-errno) */
