// fma32 GEMM written the way corsix/amx's aarch64.h users write AMX (axsim's own header supplies
// the AMX_* names). Layout: A is K x M, B is K x N, C is N x M, all row-major f32, and
//   C[n][m] = sum over k of A[k][m] * B[k][n].
// M and N are multiples of 32, K >= 1. Each 32 x 32 tile of C lives in the four f32 Z accumulators
// (fma32 matrix mode writes Z rows 4j + acc): acc 0/1 = columns m0..m0+15 / m0+16..m0+31 of rows
// n0..n0+15, acc 2/3 the same for rows n0+16..n0+31.
// Order of operations per element: z = round(A[0][m] * B[0][n]) (skip_z, bit 27), then for
// k = 1 .. K-1 z = fma(A[k][m], B[k][n], z) with one rounding each.
#include <stdint.h>
#include "aarch64.h"

#define PTR_ROW(ptr, row) ((uint64_t)(ptr) | ((uint64_t)(row) << 56))

static inline uint64_t fma32_operand(uint64_t x_offset, uint64_t y_offset, uint64_t acc) {
    return (y_offset & 0x1ff) | ((x_offset & 0x1ff) << 10) | (acc << 20);
}

void sgemm(int M, int N, int K, const float *A, const float *B, float *C) {
    AMX_SET();
    for (int n0 = 0; n0 < N; n0 += 32) {
        for (int m0 = 0; m0 < M; m0 += 32) {
            for (int k = 0; k < K; k++) {
                const float *a = A + (int64_t)k * M + m0;
                const float *b = B + (int64_t)k * N + n0;
                AMX_LDX(PTR_ROW(a, 0));
                AMX_LDX(PTR_ROW(a + 16, 1));
                AMX_LDY(PTR_ROW(b, 0));
                AMX_LDY(PTR_ROW(b + 16, 1));
                uint64_t first = k == 0 ? 1ull << 27 : 0;   // z = x * y on the first step
                AMX_FMA32(fma32_operand(0, 0, 0) | first);
                AMX_FMA32(fma32_operand(64, 0, 1) | first);
                AMX_FMA32(fma32_operand(0, 64, 2) | first);
                AMX_FMA32(fma32_operand(64, 64, 3) | first);
            }
            for (int j = 0; j < 16; j++) {
                float *c = C + (int64_t)(n0 + j) * M + m0;
                AMX_STZ(PTR_ROW(c, 4 * j + 0));
                AMX_STZ(PTR_ROW(c + 16, 4 * j + 1));
                AMX_STZ(PTR_ROW(c + 16 * M, 4 * j + 2));
                AMX_STZ(PTR_ROW(c + 16 * M + 16, 4 * j + 3));
            }
        }
    }
    AMX_CLR();
}

// The scalar reference for `--ref`: the same layout, a plain triple loop.
void sgemm_ref(int M, int N, int K, const float *A, const float *B, float *C) {
    for (int n = 0; n < N; n++) {
        for (int m = 0; m < M; m++) {
            float s = 0.0f;
            for (int k = 0; k < K; k++) s += A[k * M + m] * B[k * N + n];
            C[n * M + m] = s;
        }
    }
}
