/* CRC-32 (IEEE, reflected, table driven) and Adler-32 over a generated buffer. */
#include "rt.h"

static u32 table[256];
static u8 data[2000];

static void make_table(void)
{
    for (u32 n = 0; n < 256; n++) {
        u32 c = n;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[n] = c;
    }
}

static u32 crc32(const u8 *p, u64 n)
{
    u32 c = 0xFFFFFFFFu;
    while (n--)
        c = table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static u32 adler32(const u8 *p, u64 n)
{
    u32 a = 1, b = 0;
    while (n--) {
        a = (a + *p++) % 65521u;
        b = (b + a) % 65521u;
    }
    return (b << 16) | a;
}

int main(void)
{
    make_table();
    const char *msg = "123456789";
    u32 check = crc32((const u8 *)msg, 9);
    for (u64 i = 0; i < sizeof data; i++)
        data[i] = (u8)(rng_next() >> 24);
    put_str("crc32(123456789) = ");
    put_hex(check);
    put_str("\ncrc32(data) = ");
    put_hex(crc32(data, sizeof data));
    put_str("\nadler32(data) = ");
    put_hex(adler32(data, sizeof data));
    put_str("\n");
    return check == 0xCBF43926u ? 0 : 3;
}
