// A 16-entry table lookup with genlut (lookup mode 11: 32-bit lanes, 4-bit indices; genlut.md) and
// extrh (move a Z row to X; extr_h.md): out[16 g + t] = table[index t of group g], where group g's
// 16 indices are packed two per byte in idx[8 g .. 8 g + 7], lane 0 in the low nibble.
// `idx` holds 8 * groups + 56 bytes (the load reads 64). No arithmetic: results are table entries.
#include <stdint.h>
#include "aarch64.h"

#define GENLUT_LOOKUP_U4_32 (11ull << 53)
#define GENLUT_TABLE_IN_Y (1ull << 59)
#define GENLUT_DEST_Z (1ull << 26)

void lut16(int groups, const float *table, const uint8_t *idx, float *out) {
    AMX_SET();
    AMX_LDY((uint64_t)table);                                  // y0 = the table
    for (int g = 0; g < groups; g++) {
        AMX_LDX((uint64_t)(idx + 8 * g));                      // x0 = this group's indices
        uint64_t zrow = (uint64_t)(g & 63);
        AMX_GENLUT(GENLUT_LOOKUP_U4_32 | GENLUT_TABLE_IN_Y | GENLUT_DEST_Z | zrow << 20);
        AMX_EXTRX(zrow << 20 | (uint64_t)2 << 16);             // z row -> x2 (x offset 128)
        AMX_STX((uint64_t)(out + 16 * g) | 2ull << 56);
    }
    AMX_CLR();
}
