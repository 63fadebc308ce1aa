/* Sorting: insertion sort and an iterative quicksort of pseudo-random signed
 * 64-bit and 32-bit keys; prints checksums and a few elements. */
#include "rt.h"

#define N 300

static i64 a[N];
static i32 b[N];

static void insertion_sort(i64 *v, int n)
{
    for (int i = 1; i < n; i++) {
        i64 key = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > key) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = key;
    }
}

static void quick_sort(i32 *v, int n)
{
    int stack[64];
    int top = 0;
    stack[top++] = 0;
    stack[top++] = n - 1;
    while (top) {
        int hi = stack[--top];
        int lo = stack[--top];
        if (lo >= hi)
            continue;
        i32 pivot = v[(lo + hi) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                i32 t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                j--;
            }
        }
        stack[top++] = lo;
        stack[top++] = j;
        stack[top++] = i;
        stack[top++] = hi;
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = (i64)rng_next();
        b[i] = (i32)(rng_next() >> 17) - (1 << 20);
    }
    insertion_sort(a, N);
    quick_sort(b, N);
    int bad = 0;
    u64 sum = 0;
    for (int i = 0; i < N; i++) {
        if (i && (a[i - 1] > a[i] || b[i - 1] > b[i]))
            bad++;
        sum = sum * 31 + (u64)a[i] + (u64)(i64)b[i];
    }
    put_str("sorted: ");
    put_dec(a[0]);
    put_str(" ");
    put_dec(a[N - 1]);
    put_str(" ");
    put_dec(b[0]);
    put_str(" ");
    put_dec(b[N / 2]);
    put_str("\nchecksum ");
    put_hex(sum);
    put_str("\nout of order: ");
    put_dec(bad);
    put_str("\n");
    return bad ? 1 : (int)(sum & 0x3f) + 2;
}
