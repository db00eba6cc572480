import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { compileKernel } from './index.ts';

const hexes = (w: Uint32Array) => [...w].map((x) => `0x${x.toString(16).padStart(8, '0')}`);

function throwsAt(
  fn: () => unknown,
  file: string,
  line: number,
  col: number,
  text: string | RegExp,
  category = 'BadInput',
) {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof AxsimError, String(e));
    assert.equal(e.category, category, e.format());
    assert.equal(e.location?.file, file, e.format());
    assert.equal(e.location?.line, line, e.format());
    assert.equal(e.location?.col, col, e.format());
    if (typeof text === 'string') assert.ok(e.message.includes(text), e.format());
    else assert.match(e.message, text);
    return true;
  });
}

// Our own kernel in the shape of tt-llk's SFPLOADMACRO kernels: an #ifdef'd macro and plain form, an
// enum class template parameter, a helper from an included header, addr_mod_t{…}.set(…), a
// volatile configuration register write, float constants bit-cast into SFPLOADI halves.
const HELPERS = `#pragma once
#include <cstdint>
namespace ckernel {
enum class Mode : std::uint8_t { Plain = 0, Scaled = 1 };
constexpr std::uint32_t CFG_BASE = 0xFFEF0000;
inline volatile std::uint32_t *get_cfg_pointer() { return reinterpret_cast<volatile std::uint32_t *>(CFG_BASE); }
struct addr_mod_t {
  struct { std::uint8_t incr = 0; } srca, srcb, dest;
  void set(int idx) const { TTI_SETC16(28 + idx, dest.incr); }
};
inline void load_imm32(std::uint32_t lreg, float value) {
  const std::uint32_t bits = __builtin_bit_cast(std::uint32_t, value);
  TT_SFPLOADI(lreg, 10, bits & 0xFFFF);
  TT_SFPLOADI(lreg, 8, bits >> 16);
}
}
`;
const KERNEL = `#include "helpers.h"
namespace ckernel::sfpu {
template <Mode MODE, int ITERATIONS = 2>
inline void scale_rows(const float factor)
{
    addr_mod_t{.dest = {.incr = 2}}.set(7);
    if constexpr (MODE == Mode::Scaled) load_imm32(p_sfpu::LREG2, factor * 2.0f);
#ifndef DISABLE_SFPLOADMACRO
    TTI_SFPLOADMACRO(0, 0, ADDR_MOD_3, 0);
#else
    for (int d = 0; d < ITERATIONS; d++)
    {
        TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);
        sfpi::dst_reg++;
    }
#endif
    get_cfg_pointer()[0x40] = 0x1234;
}
}
`;
const files = { 'helpers.h': HELPERS };

describe('compileKernel', () => {
  it('compiles a kernel with an entry, includes, defines and both #ifdef forms', () => {
    const macro = compileKernel(KERNEL, {
      arch: 'wormhole',
      file: 'k.h',
      entry: 'ckernel::sfpu::scale_rows<ckernel::Mode::Scaled>(1.5f)',
      virtualFiles: files,
    });
    // SETC16(35, 2): 0xb2 << 24 | 35 << 16 | 2; 3.0f = 0x40400000: SFPLOADI(2, 10, 0) then (2, 8, 0x4040);
    // SFPLOADMACRO(0, 0, 3, 0): 0x93 << 24 | 3 << 14
    assert.deepEqual(hexes(macro.words), ['0xb2230002', '0x712a0000', '0x71284040', '0x9300c000']);
    assert.deepEqual(macro.lines, [6, 7, 7, 9]);
    assert.deepEqual(
      macro.sources.map((s) => `${s.file}:${s.line}:${s.col}`),
      ['k.h:6:5', 'k.h:7:41', 'k.h:7:41', 'k.h:9:5'],
    );
    // the configuration write comes after the four words, at the kernel's line 17
    assert.deepEqual(macro.events, [
      { at: 4, kind: 'cfg_write', addr: 0x40, value: 0x1234, source: { file: 'k.h', line: 17, col: 5 } },
    ]);
    const plain = compileKernel(KERNEL, {
      arch: 'wormhole',
      file: 'k.h',
      entry: 'ckernel::sfpu::scale_rows<ckernel::Mode::Plain, 3>(0.0f)',
      virtualFiles: files,
      defines: { DISABLE_SFPLOADMACRO: 1 },
    });
    // SFPLOAD(0, 0, 3, 0) = 0x7000c000, dst_reg++ = INCRWC(0, 2, 0, 0) = 0x38008000, three times
    assert.deepEqual(hexes(plain.words), [
      '0xb2230002',
      ...Array(3).fill(['0x7000c000', '0x38008000']).flat(),
    ]);
    assert.deepEqual(plain.lines, [6, 13, 14, 13, 14, 13, 14]);
  });
  it('finds a bare entry by its unqualified name and uses default template arguments', () => {
    const r = compileKernel(
      'namespace a { template <int N = 2> void k() { for (int i = 0; i < N; i++) TTI_SFPNOP; } }',
      {
        arch: 'blackhole',
        entry: 'a::k',
      },
    );
    assert.deepEqual(hexes(r.words), ['0x8f000000', '0x8f000000']);
  });
  it('names a missing entry with a hint', () => {
    assert.throws(
      () => compileKernel('void calc() {}', { arch: 'wormhole', entry: 'calk' }),
      (e: unknown) =>
        e instanceof AxsimError && /no function 'calk'/.test(e.message) && e.hint === 'did you mean calc?',
    );
  });
  it('maps words made in an included helper to the call in the main file', () => {
    const r = compileKernel('#include "h.h"\nvoid k() {\n  helper();\n}', {
      arch: 'wormhole',
      file: 'main.h',
      entry: 'k',
      virtualFiles: { 'h.h': 'inline void helper() {\n  TTI_SFPNOP;\n}' },
    });
    assert.deepEqual(r.sources, [{ file: 'main.h', line: 3, col: 3 }]);
  });
  it('refuses a load from configuration space (the registers the instruction stream sets are not visible there)', () => {
    const src =
      'void k() {\n  volatile unsigned *cfg = reinterpret_cast<volatile unsigned *>(0xFFEF0000);\n  cfg[3] = cfg[3] | 1u;\n}';
    throwsAt(
      () => compileKernel(src, { arch: 'wormhole', file: 'k.h', entry: 'k' }),
      'k.h',
      3,
      3, // the statement's column (the evaluator's current location)
      /load from configuration space at 0xffef000c/,
      'Unsupported',
    );
  });
  it("the preprocessor's warnings reach the result, first (#warning, #line not applied)", () => {
    const r = compileKernel('#warning an old kernel\n#line 40\nvoid k() { __axsim_warn("later"); }\n', {
      arch: 'wormhole',
      file: 'k.h',
      entry: 'k',
    });
    assert.deepEqual(
      r.warnings.map((w) => [w.category, w.location?.line, w.message.slice(0, 22)]),
      [
        ['BadInput', 1, '#warning an old kernel'],
        ['Unsupported', 2, '#line and line markers'],
        ['NonContractual', 3, 'later'],
      ],
    );
  });
  it('provides the __axsim_* builtins', () => {
    const r = compileKernel(
      'void k() { __axsim_emit(0x8f000000); __axsim_cfg_write(5, 0xffffffff); __axsim_warn("not modelled"); }',
      { arch: 'wormhole', file: 'k.h', entry: 'k' },
    );
    assert.deepEqual(hexes(r.words), ['0x8f000000']);
    assert.deepEqual(
      r.events.map((e) => [e.at, e.addr, e.value]),
      [[1, 5, 0xffffffff]],
    );
    assert.equal(r.warnings.length, 1);
    assert.equal(r.warnings[0]!.message, 'not modelled');
    assert.equal(r.warnings[0]!.location?.col, 72);
    throwsAt(
      () =>
        compileKernel('void k() {\n  __axsim_unsupported("SFPLOADMACRO schedule X");\n}', {
          arch: 'wormhole',
          file: 'k.h',
          entry: 'k',
        }),
      'k.h',
      2,
      3,
      'SFPLOADMACRO schedule X',
      'Unsupported',
    );
  });
  it("says an SFPI name is not defined without the SFPI library, and compiles the file's other functions", () => {
    const src = 'void v() {\n  sfpi::vFloat x = sfpi::dst_reg[0];\n}\nvoid t() { TTI_SFPNOP; }';
    throwsAt(
      () => compileKernel(src, { arch: 'wormhole', file: 'k.h', entry: 'v' }),
      'k.h',
      2,
      3,
      "SFPI: 'sfpi::vFloat' is not defined here",
      'Unsupported',
    );
    assert.equal(compileKernel(src, { arch: 'wormhole', file: 'k.h', entry: 't' }).words.length, 1);
  });
  it('reports instruction argument errors at the argument, inside templates and loops', () => {
    throwsAt(
      () =>
        compileKernel(
          'template <int S> void k() {\n  for (int i = 0; i < 3; i++)\n    TTI_SFPIADD(S * i, 0, 0, 0);\n}',
          { arch: 'wormhole', file: 'k.h', entry: 'k<-2048>' },
        ),
      'k.h',
      3,
      17,
      'TTI_SFPIADD argument 1 (imm12_math) = -2048 does not fit in its 12 bit(s) 23:12',
    );
  });
  it('lets a too-wide argument carry into the next field as C does, with a warning (tt-llk reduce.h shape)', () => {
    // WH SFPLOAD(lreg 8, mod0 3, addr_mode 6, 0): 0x70 << 24 + 8 << 20 + 3 << 16 + 6 << 14 = 0x70848000
    const r = compileKernel('void k() {\n  TTI_SFPLOAD(8, 3, ADDR_MOD_6, 0);\n}', {
      arch: 'wormhole',
      file: 'k.h',
      entry: 'k',
    });
    assert.deepEqual(hexes(r.words), ['0x70848000']);
    assert.equal(r.warnings.length, 1);
    assert.match(
      r.warnings[0]!.message,
      /argument 3 \(sfpu_addr_mode\) = 6 does not fit .* carries into instr_mod0/,
    );
    assert.equal(r.warnings[0]!.location?.line, 2);
  });
  it('clears bits no field of the instruction has, with a warning at the argument (tt-llk reduce_custom.h shape)', () => {
    // WH SFPSTORE(lreg 0, mod0 2, addr_mode 3, -128 & 0x3fff): the C sum is 0x72000000 + 2 << 16 +
    // 3 << 14 + 0x3f80 = 0x7202ff80; bits 13:10 belong to no field (Imm10 is 9:0): 0x7202c380
    const r = compileKernel('void k() {\n  TTI_SFPSTORE(0, 2, ADDR_MOD_3,\n    -128 & 0x3fff);\n}', {
      arch: 'wormhole',
      file: 'k.h',
      entry: 'k',
    });
    assert.deepEqual(hexes(r.words), ['0x7202c380']);
    assert.equal(r.warnings.length, 1);
    assert.equal(r.warnings[0]!.category, 'NonContractual');
    assert.match(r.warnings[0]!.message, /bits 0x00003c00 .* no field of SFPSTORE .*argument 4/);
    assert.equal(r.warnings[0]!.location?.line, 3);
    // Blackhole's AddrMod field is 3 bits at 15:13: 3 << 13 + 0x3f80 = 0x9f80 carries into it (ADDR_MOD 4),
    // and bits 12:10 are cleared: 0x72028380
    const b = compileKernel('void k() {\n  TTI_SFPSTORE(0, 2, ADDR_MOD_3, -128 & 0x3fff);\n}', {
      arch: 'blackhole',
      file: 'k.h',
      entry: 'k',
    });
    assert.deepEqual(hexes(b.words), ['0x72028380']);
    assert.deepEqual(
      b.warnings.map((w) => /carries into sfpu_addr_mode|bits 0x00001c00/.test(w.message)),
      [true, true],
    );
  });
});
