// int8 GEMM with matint (ALU mode 8 "mac8", lane mode 10: X i8, Y i8, Z i32; matint.md):
// A is K x 64 int8, B is K x 16 int8, C is 16 x 64 int32, C[n][m] = sum over k of A[k][m] * B[k][n].
// In this mode only every fourth Y byte is read: B's row is packed into `ybuf` at bytes 0, 4, 8, ...
// X lane m of Y lane 4n accumulates into Z row 4n + (m & 3), i32 lane m / 4; the kernel stores Z to
// `zbuf` (64 x 16 int32) and rearranges it. Integer sums are exact (no order question).
#include <stdint.h>
#include "aarch64.h"

#define MATINT_I8_I32 ((1ull << 63) | (8ull << 47) | (10ull << 42) | (1ull << 26))  // signed X, Y

void igemm(int K, const int8_t *A, const int8_t *B, int32_t *C, int8_t *ybuf, int32_t *zbuf) {
    AMX_SET();
    for (int k = 0; k < K; k++) {
        for (int n = 0; n < 16; n++) ybuf[4 * n] = B[16 * k + n];
        AMX_LDX((uint64_t)(A + 64 * k));
        AMX_LDY((uint64_t)ybuf);
        AMX_MATINT(MATINT_I8_I32);
    }
    for (int r = 0; r < 64; r++) AMX_STZ((uint64_t)(zbuf + 16 * r) | (uint64_t)r << 56);
    AMX_CLR();
    for (int n = 0; n < 16; n++)
        for (int m = 0; m < 64; m++) C[64 * n + m] = zbuf[16 * (4 * n + (m & 3)) + (m >> 2)];
}

void igemm_ref(int K, const int8_t *A, const int8_t *B, int32_t *C, int8_t *ybuf, int32_t *zbuf) {
    for (int n = 0; n < 16; n++)
        for (int m = 0; m < 64; m++) {
            int32_t s = 0;
            for (int k = 0; k < K; k++) s += (int32_t)A[64 * k + m] * (int32_t)B[16 * k + n];
            C[64 * n + m] = s;
        }
}
