/**
 * axsim's own AMX header for C kernels. It defines the instruction names AMX C code is written
 * with — those of corsix/amx's `aarch64.h` (`AMX_LDX(operand)` … `AMX_GENLUT`, `AMX_SET()`,
 * `AMX_CLR()`) and the `AMX_START()` / `AMX_STOP()` pair of BLIS's aaplmx `amx.h` — as calls to
 * the builtin `__axsim_amx(opcode, operand)`, which issues the instruction to the exact emulator in
 * program order. The text is axsim's; it is served for `#include "aarch64.h"`, `"amx.h"` and
 * `<axsim/amx.h>` (docs/amx-c.md).
 */

/** Opcode of each instruction name (the A64 word is 0x00201000 | op << 5 | register). */
export const AMX_C_NAMES: readonly [string, number][] = [
  ['LDX', 0],
  ['LDY', 1],
  ['STX', 2],
  ['STY', 3],
  ['LDZ', 4],
  ['STZ', 5],
  ['LDZI', 6],
  ['STZI', 7],
  ['EXTRX', 8],
  ['EXTRY', 9],
  ['FMA64', 10],
  ['FMS64', 11],
  ['FMA32', 12],
  ['FMS32', 13],
  ['MAC16', 14],
  ['FMA16', 15],
  ['FMS16', 16],
  ['VECINT', 18],
  ['VECFP', 19],
  ['MATINT', 20],
  ['MATFP', 21],
  ['GENLUT', 22],
];

function headerText(): string {
  const lines = [
    '/* axsim: AMX instructions for C kernels (see docs/amx-c.md). Each name issues one',
    '   instruction, with its 64-bit operand, to the emulator in program order. */',
    '#pragma once',
    '#include <stdint.h>',
    '#define AMX_SET() __axsim_amx(17, 0)',
    '#define AMX_CLR() __axsim_amx(17, 1)',
    '#define AMX_START() __axsim_amx(17, 0)',
    '#define AMX_STOP() __axsim_amx(17, 1)',
  ];
  for (const [name, op] of AMX_C_NAMES)
    lines.push(`#define AMX_${name}(operand) __axsim_amx(${op}, (uint64_t)(operand))`);
  return `${lines.join('\n')}\n`;
}

export const AMX_HEADER = headerText();

/**
 * The virtual files a C kernel sees: the AMX header under the names kernels include, and the
 * standard headers AMX kernels include (their integer types are built into the front end; run.ts
 * provides `memcpy`, `memset`, `abort` and the failure of `assert`).
 */
export const AMX_VIRTUAL_FILES: Readonly<Record<string, string>> = {
  'aarch64.h': AMX_HEADER,
  'amx.h': AMX_HEADER,
  'axsim/amx.h': AMX_HEADER,
  'stdint.h': '',
  'stddef.h': '',
  'stdbool.h': '',
  'stdlib.h': '',
  'string.h': '',
  'stdio.h': '',
  'assert.h': '#pragma once\n#define assert(e) ((e) ? (void)0 : __axsim_assert_fail(#e))\n',
};
