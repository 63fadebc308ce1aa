/* String routines: length, copy, compare, reverse, search, integer
 * formatting and parsing, a word-frequency count. */
#include "rt.h"

static char buf[256], out[256];

static void str_copy(char *d, const char *s)
{
    while ((*d++ = *s++))
        ;
}

static int str_cmp(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

static void str_rev(char *s)
{
    u64 n = str_len(s);
    for (u64 i = 0; i < n / 2; i++) {
        char t = s[i];
        s[i] = s[n - 1 - i];
        s[n - 1 - i] = t;
    }
}

static const char *str_str(const char *h, const char *n)
{
    for (; *h; h++) {
        const char *a = h, *b = n;
        while (*a && *b && *a == *b) {
            a++;
            b++;
        }
        if (!*b)
            return h;
    }
    return 0;
}

static i64 parse_int(const char *s)
{
    i64 v = 0;
    int neg = 0;
    if (*s == '-') {
        neg = 1;
        s++;
    }
    while (*s >= '0' && *s <= '9')
        v = v * 10 + (*s++ - '0');
    return neg ? -v : v;
}

static void to_upper(char *s)
{
    for (; *s; s++)
        if (*s >= 'a' && *s <= 'z')
            *s = (char)(*s - 32);
}

int main(void)
{
    const char *text = "the quick brown fox jumps over the lazy dog the end";
    str_copy(buf, text);
    str_copy(out, buf);
    str_rev(out);
    put_str(out);
    put_str("\n");
    to_upper(buf);
    put_str(buf);
    put_str("\n");
    int words = 0, the = 0;
    for (const char *p = text; (p = str_str(p, "the")); p++)
        the++;
    for (const char *p = text; *p; p++)
        if (*p != ' ' && (p == text || p[-1] == ' '))
            words++;
    put_str("words ");
    put_dec(words);
    put_str(" the ");
    put_dec(the);
    put_str(" cmp ");
    put_dec(str_cmp("apple", "apricot") < 0);
    put_dec(str_cmp("same", "same") == 0);
    put_dec(str_cmp("zeta", "alpha") > 0);
    put_str(" parse ");
    put_dec(parse_int("-9223372036854775807") - 1);
    put_str(" ");
    put_dec(parse_int("123456789") * 3);
    put_str("\n");
    return words + the;
}
