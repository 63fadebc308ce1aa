/* Floating point: dot product, Horner polynomial, Newton square roots, a small
 * Jacobi-style relaxation, float/int conversions; results printed as bits. */
#include "rt.h"

#define N 64

static double x[N], y[N], grid[N];
static float fx[N];

static u64 bits(double d)
{
    u64 u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double newton_sqrt(double v)
{
    double r = v > 1.0 ? v / 2.0 : 1.0;
    for (int i = 0; i < 30; i++)
        r = 0.5 * (r + v / r);
    return r;
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        x[i] = (double)(i64)(rng_next() % 20001 - 10000) / 128.0;
        y[i] = (double)(i + 1) * 0.375 - 7.0;
        fx[i] = (float)x[i] * 1.5f + 0.25f;
        grid[i] = (i == 0 || i == N - 1) ? 100.0 : 0.0;
    }
    double dot = 0.0;
    float fsum = 0.0f;
    for (int i = 0; i < N; i++) {
        dot += x[i] * y[i];
        fsum += fx[i] * fx[i];
    }
    const double c[] = {1.0, -0.5, 0.041666666666666664, -0.001388888888888889};
    double t = 0.7, p = 0.0;
    for (int i = 3; i >= 0; i--)
        p = p * (t * t) + c[i];
    for (int it = 0; it < 40; it++)
        for (int i = 1; i < N - 1; i++)
            grid[i] = 0.5 * (grid[i - 1] + grid[i + 1]);
    double roots = 0.0;
    for (int i = 1; i <= 20; i++)
        roots += newton_sqrt((double)i * 3.0);
    i64 truncated = (i64)(dot * 1000.0);
    i32 rounded = (i32)(fsum / 3.0f);
    put_str("dot ");
    put_hex(bits(dot));
    put_str("\nfsum ");
    put_hex(bits((double)fsum));
    put_str("\ncos-poly ");
    put_hex(bits(p));
    put_str("\ngrid ");
    put_hex(bits(grid[N / 2]));
    put_str("\nroots ");
    put_hex(bits(roots));
    put_str("\nint ");
    put_dec(truncated);
    put_str(" ");
    put_dec(rounded);
    put_str("\n");
    return dot < 0.0 ? 5 : 6;
}
