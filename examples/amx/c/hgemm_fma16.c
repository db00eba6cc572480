// fma16 GEMM with f32 accumulation (fma16 matrix mode, operand bit 62): A is K x 32, B is K x 32
// (f16, as uint16_t bit patterns), C is 32 x 32 f32, C[n][m] = sum over k of A[k][m] * B[k][n].
// In this mode Z holds one f32[32][32] accumulator in all 64 rows with interleaved pairs:
// element (n, m) is lane m / 2 of Z row 2n + (m & 1) (fma.md "Mixed lane widths"). The kernel
// stores the 64 rows to `zbuf` (64 x 16 f32) and de-interleaves them in C.
// Order per element: z = 0, then z = fma(f32(A[k][m]), f32(B[k][n]), z), one f32 rounding per k.
#include <stdint.h>
#include "aarch64.h"

void hgemm32(int K, const uint16_t *A, const uint16_t *B, float *C, float *zbuf) {
    AMX_SET();
    for (int k = 0; k < K; k++) {
        AMX_LDX((uint64_t)(A + 32 * k));
        AMX_LDY((uint64_t)(B + 32 * k));
        AMX_FMA16(1ull << 62);
    }
    for (uint64_t r = 0; r < 64; r++) AMX_STZ((uint64_t)(zbuf + 16 * r) | r << 56);
    AMX_CLR();
    for (int n = 0; n < 32; n++)
        for (int m = 0; m < 32; m++) C[32 * n + m] = zbuf[16 * (2 * n + (m & 1)) + m / 2];
}
