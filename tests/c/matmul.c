/* Integer matrix multiply (32-bit and 64-bit, signed), trace and checksums. */
#include "rt.h"

#define N 12

static i32 A[N][N], B[N][N], C[N][N];
static i64 D[N][N], E[N][N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (i32)(rng_next() % 2001) - 1000;
            B[i][j] = (i32)(rng_next() % 2001) - 1000;
            D[i][j] = (i64)rng_next() >> 35;
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            i32 s = 0;
            i64 t = 0;
            for (int k = 0; k < N; k++) {
                s += A[i][k] * B[k][j];
                t += D[i][k] * (i64)B[k][j];
            }
            C[i][j] = s;
            E[i][j] = t;
        }
    i64 trace = 0;
    u64 sum = 0;
    i32 mn = C[0][0], mx = C[0][0];
    for (int i = 0; i < N; i++) {
        trace += C[i][i];
        for (int j = 0; j < N; j++) {
            sum = (sum ^ (u64)E[i][j]) * 0x100000001B3UL;
            if (C[i][j] < mn)
                mn = C[i][j];
            if (C[i][j] > mx)
                mx = C[i][j];
        }
    }
    put_str("trace ");
    put_dec(trace);
    put_str(" min ");
    put_dec(mn);
    put_str(" max ");
    put_dec(mx);
    put_str(" hash ");
    put_hex(sum);
    put_str(" div ");
    put_dec(trace / 7);
    put_str(" mod ");
    put_dec(trace % 7);
    put_str("\n");
    return (int)((u64)trace % 200);
}
