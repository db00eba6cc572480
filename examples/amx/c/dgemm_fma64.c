// fma64 GEMM, corsix style: A is K x 16, B is K x 16, C is 16 x 16 (row-major f64),
//   C[n][m] = sum over k of A[k][m] * B[k][n].
// fma64 matrix mode writes Z rows 8j + acc, so four of the eight f64 accumulators hold the four
// 8 x 8 quarters of C: acc = 2 * (n >= 8) + (m >= 8).
// Order per element: z = 0 (AMX_SET zeroes Z), then z = fma(A[k][m], B[k][n], z) for k = 0 .. K-1.
#include <stdint.h>
#include "aarch64.h"

void dgemm16(int K, const double *A, const double *B, double *C) {
    AMX_SET();
    for (int k = 0; k < K; k++) {
        AMX_LDX((uint64_t)(A + 16 * k) | (1ull << 62));         // x0, x1: a pair (128-byte aligned)
        AMX_LDY((uint64_t)(B + 16 * k) | (1ull << 62));
        for (uint64_t acc = 0; acc < 4; acc++) {
            uint64_t xo = (acc & 1) * 64, yo = (acc >> 1) * 64;
            AMX_FMA64(yo | xo << 10 | acc << 20);
        }
    }
    for (int n = 0; n < 16; n++) {
        uint64_t acc_hi = (uint64_t)(n / 8) * 2;
        uint64_t row = 8 * (uint64_t)(n % 8);
        AMX_STZ((uint64_t)(C + 16 * n) | (row + acc_hi) << 56);
        AMX_STZ((uint64_t)(C + 16 * n + 8) | (row + acc_hi + 1) << 56);
    }
    AMX_CLR();
}

void dgemm16_ref(int K, const double *A, const double *B, double *C) {
    for (int n = 0; n < 16; n++)
        for (int m = 0; m < 16; m++) {
            double s = 0;
            for (int k = 0; k < K; k++) s += A[16 * k + m] * B[16 * k + n];
            C[16 * n + m] = s;
        }
}
