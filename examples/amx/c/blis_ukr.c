// A BLIS-style sgemm micro-kernel: C := beta * C + A * B for a 32 x 32 tile from packed panels
// (a: k x 32, column i of A at a[32 p + i]; b: k x 32, row j of B at b[32 p + j]), C with row
// stride rs_c and column stride cs_c, beta 0 or 1, alpha 1. The K loop runs four steps at a time
// then one at a time (as BLIS kernels do); edges (m < 32 or n < 32, or a non-unit row stride) go
// through the 32 x 32 buffer `ct` and only m x n elements are written.
// Z holds C^T's tile: element (i, j) of C is lane i % 16 of Z row 4 (j % 16) + 2 (j / 16) + i / 16.
// Order per element: z = 0 (or C when beta = 1 and the tile is full), then
// z = fma(a[p][i], b[p][j], z) for p = 0 .. k-1; with beta = 1 on an edge tile, C + z in f32.
#include <stdint.h>
#include "amx.h"

// This kernel's own wrappers, in the style of BLIS's amx_ext.h.
#define AMX_ROW(OP, PTR, ROW) AMX_##OP((uint64_t)(PTR) | ((uint64_t)(ROW) << 56))
#define FMA32_XYZ(XR, YR, ACC) AMX_FMA32(((uint64_t)(YR) << 6) | ((uint64_t)(XR) << 16) | ((uint64_t)(ACC) << 20))
#define FMA32_ZERO(ACC) AMX_FMA32((1ull << 27) | (1ull << 28) | (1ull << 29) | ((uint64_t)(ACC) << 20))

void bli_sgemm_axsim_32x32(int m, int n, int k, const float *alpha, const float *a, const float *b,
                           const float *beta, float *c, int rs_c, int cs_c, float *ct) {
    int full = m == 32 && n == 32 && rs_c == 1;
    AMX_START();
    for (int acc = 0; acc < 4; acc++) FMA32_ZERO(acc);
    if (*beta == 1.0f && full) {
        for (int j = 0; j < 16; j++) {
            AMX_ROW(LDZ, c + j * cs_c, 4 * j + 0);
            AMX_ROW(LDZ, c + j * cs_c + 16, 4 * j + 1);
            AMX_ROW(LDZ, c + (j + 16) * cs_c, 4 * j + 2);
            AMX_ROW(LDZ, c + (j + 16) * cs_c + 16, 4 * j + 3);
        }
    }
    for (; k >= 4; k -= 4) {
        for (int p = 0; p < 4; p++) {
            AMX_ROW(LDX, a + 32 * p, 2 * p);
            AMX_ROW(LDX, a + 32 * p + 16, 2 * p + 1);
            AMX_ROW(LDY, b + 32 * p, 2 * p);
            AMX_ROW(LDY, b + 32 * p + 16, 2 * p + 1);
        }
        for (int p = 0; p < 4; p++) {
            FMA32_XYZ(2 * p, 2 * p, 0);
            FMA32_XYZ(2 * p + 1, 2 * p, 1);
            FMA32_XYZ(2 * p, 2 * p + 1, 2);
            FMA32_XYZ(2 * p + 1, 2 * p + 1, 3);
        }
        a += 4 * 32;
        b += 4 * 32;
    }
    while (k > 0) {
        AMX_ROW(LDX, a, 0);
        AMX_ROW(LDX, a + 16, 1);
        AMX_ROW(LDY, b, 0);
        AMX_ROW(LDY, b + 16, 1);
        FMA32_XYZ(0, 0, 0);
        FMA32_XYZ(1, 0, 1);
        FMA32_XYZ(0, 1, 2);
        FMA32_XYZ(1, 1, 3);
        a += 32;
        b += 32;
        k--;
    }
    if (full) {
        for (int j = 0; j < 16; j++) {
            AMX_ROW(STZ, c + j * cs_c, 4 * j + 0);
            AMX_ROW(STZ, c + j * cs_c + 16, 4 * j + 1);
            AMX_ROW(STZ, c + (j + 16) * cs_c, 4 * j + 2);
            AMX_ROW(STZ, c + (j + 16) * cs_c + 16, 4 * j + 3);
        }
    } else {
        for (int j = 0; j < 16; j++) {
            AMX_ROW(STZ, ct + 32 * j, 4 * j + 0);
            AMX_ROW(STZ, ct + 32 * j + 16, 4 * j + 1);
            AMX_ROW(STZ, ct + 32 * (j + 16), 4 * j + 2);
            AMX_ROW(STZ, ct + 32 * (j + 16) + 16, 4 * j + 3);
        }
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                float v = ct[32 * j + i];
                c[i * rs_c + j * cs_c] = *beta == 1.0f ? c[i * rs_c + j * cs_c] + v : v;
            }
    }
    AMX_STOP();
}

// Plain reference with the same interface (for --ref): the k loop in order, in float.
void bli_sgemm_ref_32x32(int m, int n, int k, const float *alpha, const float *a, const float *b,
                         const float *beta, float *c, int rs_c, int cs_c, float *ct) {
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            float s = 0.0f;
            for (int p = 0; p < k; p++) s += a[32 * p + i] * b[32 * p + j];
            c[i * rs_c + j * cs_c] = *beta == 1.0f ? c[i * rs_c + j * cs_c] + s : s;
        }
}
