import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { assemble, disassemble, disassembleWord } from './index.ts';

/** Asserts that `fn` throws a BadInput AxsimError at line:col whose message contains `text`. */
function throwsAt(
  fn: () => unknown,
  line: number,
  col: number,
  text: string | RegExp,
  hint?: string | RegExp,
  category = 'BadInput',
) {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof AxsimError, `not an AxsimError: ${String(e)}`);
    assert.equal(e.category, category, e.format());
    assert.equal(e.location?.line, line, e.format());
    assert.equal(e.location?.col, col, e.format());
    if (typeof text === 'string') assert.ok(e.message.includes(text), e.format());
    else assert.match(e.message, text);
    if (hint !== undefined) {
      if (typeof hint === 'string') assert.ok(e.hint?.includes(hint), e.format());
      else assert.match(e.hint ?? '', hint);
    }
    return true;
  });
}

const hexes = (w: Uint32Array) => [...w].map((x) => `0x${x.toString(16).padStart(8, '0')}`);

describe('tt-llk macro forms', () => {
  // Our own loop body in tt-llk's macro style: negative lanes are scaled by L2, then 1.0 is added
  // to every lane (tt-llk's leaky ReLU, ckernel_sfpu_relu.h _calculate_lrelu_, has the same shape).
  // Expected words by hand from ckernel_ops.h: TT_OP(op, params) = (op << 24) + params.
  const scaleNeg = `
        TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 4); // x
        TTI_SFPSETCC(0, p_sfpu::LREG1, 0, 0); // lanes where x < 0
        TTI_SFPMUL(p_sfpu::LREG1, p_sfpu::LREG2, p_sfpu::LCONST_0, p_sfpu::LREG1, 0);
        TTI_SFPENCC(0, 0, 0, 0); // every lane again
        TTI_SFPADD(p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG3, p_sfpu::LREG1, 0);
        TTI_SFPSTORE(p_sfpu::LREG1, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 4);
`;
  it('assembles a kernel body on Wormhole', () => {
    const r = assemble(scaleNeg, 'wormhole');
    assert.deepEqual(hexes(r.words), [
      '0x7010c004', // SFPLOAD: lreg_ind 1 <<20, mod0 0 <<16, addr_mode 3 <<14, addr 4
      '0x7b000100', // SFPSETCC: lreg_c 1 <<8
      '0x86012910', // SFPMUL: a=1 <<16, b=2 <<12, c=LCONST_0=9 <<8, d=1 <<4
      '0x8a000000',
      '0x850a1310', // SFPADD: a=LCONST_1=10 <<16, b=1 <<12, c=3 <<8, d=1 <<4
      '0x7210c004',
    ]);
    assert.deepEqual(r.lines, [2, 3, 4, 5, 6, 7]);
    assert.deepEqual(r.warnings, []);
  });
  it('uses the Blackhole macro layout (sfpu_addr_mode << 13)', () => {
    const r = assemble(scaleNeg, 'blackhole');
    assert.deepEqual(hexes(r.words), [
      '0x70106004',
      '0x7b000100',
      '0x86012910',
      '0x8a000000',
      '0x850a1310',
      '0x72106004',
    ]);
  });

  it('assembles lines of ckernel_sfpu_exp.h, multi-line calls included', () => {
    // tt_llk_wormhole_b0/common/inc/sfpu/ckernel_sfpu_exp.h, lines 409-414, 433-438, 552, 644.
    const src = `TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);
TTI_SFPSWAP(0, p_sfpu::LREG14, p_sfpu::LREG0, 9);
TTI_SFPMAD(p_sfpu::LREG12, p_sfpu::LREG0, p_sfpu::LREG13, p_sfpu::LREG0, 0);
TTI_SFP_STOCH_RND(0, 0, 0, p_sfpu::LREG0, p_sfpu::LREG0, sfpi::SFPSTOCHRND_MOD1_FP32_TO_UINT16);
TTI_SFPSHFT(15, p_sfpu::LREG0, p_sfpu::LREG0, 1);
TTI_SFPSTORE(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);
        TTI_SFPLOADMACRO(
            4,
            0,
            3,
            0);     // a call split over lines
        TTI_SFPNOP; // a trailing comment
TTI_SFPSHFT2(p_sfpu::LREG2, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPCONFIG(0, 14, 0);
`;
    const r = assemble(src, 'wormhole');
    assert.deepEqual(hexes(r.words), [
      '0x7000c000',
      '0x92000e09', // SFPSWAP imm12 0, lreg_src_c 14 <<8, dest 0, mod1 9
      '0x840c0d00', // SFPMAD a=12 <<16, b=0, c=13 <<8, d=0
      '0x8e000006', // SFP_STOCH_RND ... mod1 = SFPSTOCHRND_MOD1_FP32_TO_UINT16 = 6 (sfpi_constants.h)
      '0x7a00f001', // SFPSHFT imm12 15 <<12, mod1 1
      '0x7200c000',
      '0x9340c000', // SFPLOADMACRO lreg_ind 4 <<20, addr_mode 3 <<14
      '0x8f000000',
      '0x94002e45', // SFPSHFT2 imm12 2 <<12, c 14 <<8, d 4 <<4, mod1 5
      '0x910000e0', // SFPCONFIG imm16 0, config_dest 14 <<4
    ]);
    assert.deepEqual(r.lines, [1, 2, 3, 4, 5, 6, 7, 12, 13, 14]);
  });

  it('assembles ckernel_sfpu_reduce.h int-average lines with kernel constants defined', () => {
    // tt_llk_wormhole_b0/common/inc/sfpu/ckernel_sfpu_reduce.h perform_int_average(); the two
    // constants are that file's (AVG_SHIFT_AMOUNT = 5, AVG_SHIFT_MASK = 0xfff).
    const src = `constexpr std::uint32_t AVG_SHIFT_AMOUNT = 5;
#define AVG_SHIFT_MASK 0xfff
TTI_SFPSHFT(-AVG_SHIFT_AMOUNT & AVG_SHIFT_MASK, p_sfpu::LREG0, p_sfpu::LREG0, 0b01);
TTI_SFPSETCC(0, p_sfpu::LREG1, 0, 4);
TTI_SFPCOMPC(0, 0, 0, 0);
TTI_SFPIADD(0, p_sfpu::LCONST_0, p_sfpu::LREG0, 6);
TTI_SFPTRANSP(0, 0, 0, 0);
`;
    const r = assemble(src, 'wormhole');
    // -5 & 0xfff = 0xffb; SFPSHFT: 0xffb << 12 = 0xffb000.
    assert.deepEqual(hexes(r.words), ['0x7affb001', '0x7b000104', '0x8b000000', '0x79000906', '0x8c000000']);
    assert.deepEqual(r.lines, [3, 4, 5, 6, 7]);
  });

  it('accepts TT_ and TT_OP_ forms, sfpi constants, casts and the ckernel:: prefix', () => {
    const r = assemble(
      `TT_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_UPPER, (std::uint16_t)(0x3f800000 >> 16));
TT_OP_SFPLOADI(ckernel::p_sfpu::LREG1, SFPLOADI_MOD0_LOWER, static_cast<uint16_t>(-1));
TTI_SFPIADD((-16) & 0xFFF, p_sfpu::LREG1, p_sfpu::LREG2, sfpi::SFPIADD_MOD1_ARG_IMM | sfpi::SFPIADD_MOD1_CC_NONE)`,
      'wormhole',
    );
    // SFPLOADI_MOD0_UPPER = 8, SFPLOADI_MOD0_LOWER = 10, SFPIADD_MOD1_ARG_IMM = 1, CC_NONE = 4.
    assert.deepEqual(hexes(r.words), ['0x71083f80', '0x711affff', '0x79ff0125']);
  });

  it('takes TT_OP_… calls as values inside expressions', () => {
    // ckernel_sfpu_exp.h (WH, lines 670-672) programs LoadMacroConfig template 0 with the word of
    // TTI_SFPSWAP(0, 0, 14, 1) = 0x920000e1 (lreg_dest 14 << 4, mod1 1), written there by hand as
    // TTI_SFPLOADI(0, 0xA, 0x00E1); TTI_SFPLOADI(0, 0x8, 0x9200); TTI_SFPCONFIG(0, 0, 0).
    const r = assemble(
      `TTI_SFPLOADI(0, 0xA, TT_OP_SFPSWAP(0, 0, 14, 1) & 0xffff);
TTI_SFPLOADI(0, 0x8, TT_OP_SFPSWAP(0, 0, 14, 1) >> 16);
.word TT_OP_SFPNOP, TT_OP_SFPMAD(1, 2, 3, 4, 0) | 1`,
      'wormhole',
    );
    assert.deepEqual(hexes(r.words), ['0x710a00e1', '0x71089200', '0x8f000000', '0x84012341']);
    throwsAt(() => assemble('.word TT_OP_SFPMAD(1, 2)', 'wormhole'), 1, 24, 'takes 5 argument(s)');
  });
  it('assembles Tensix (non-SFPU) macros kernels use around SFPU code', () => {
    // TT_OP_SETRWC(clear_ab_vld, rwc_cr, rwc_d, rwc_b, rwc_a, BitMask) = TT_OP(0x37, ...)
    const r = assemble(
      'TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);',
      'wormhole',
    );
    // rwc_cr 4 << 18 = 0x100000, rwc_d 8 << 14 = 0x20000, BitMask 4.
    assert.deepEqual(hexes(r.words), ['0x37120004']);
  });

  it('evaluates constant expressions with C precedence', () => {
    const word = (e: string) => assemble(`TTI_SFPLOADI(0, 0, ${e});`, 'wormhole').words[0]! & 0xffff;
    assert.equal(word('1 + 2 * 3'), 7);
    assert.equal(word('(1 + 2) * 3'), 9);
    assert.equal(word('1 << 4 | 1'), 17);
    assert.equal(word('0xF0 & 0x3C ^ 0x01'), 0x31);
    assert.equal(word('~0 & 0xff'), 0xff);
    assert.equal(word('(-16) & 0xFFF'), 0xff0);
    assert.equal(word('-(-3)'), 3);
    assert.equal(word('0b1010 + 010 + 0x10 + 10u'), 10 + 8 + 16 + 10);
    assert.equal(word('100 / 7 % 4'), 2);
    assert.equal(word('1 ? 5 : 6'), 5);
    assert.equal(word('(int16_t)0x8000 & 0xffff'), 0x8000);
    assert.equal(word('(uint8_t)0x1ff'), 0xff);
    assert.equal(word('0x100 >> 4 >> 1'), 8);
  });
});

describe('kernel functions: for, if constexpr, dst_reg++', () => {
  // Our own kernel function in tt-llk's style (template line, call parameters, #pragma, a counted
  // loop, dst_reg++): |x| * scale over `count` row groups.
  const scaledAbs = `template <bool APPROX>
inline void scaled_abs(const int count, std::uint32_t scale)
{
    TT_SFPLOADI(p_sfpu::LREG3, 10, scale & 0xFFFF);
    TT_SFPLOADI(p_sfpu::LREG3, 8, scale >> 16);
#pragma GCC unroll 4
    for (int i = 0; i < count; i++)
    {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
        TTI_SFPABS(0, p_sfpu::LREG0, p_sfpu::LREG1, 1); // float mode
        TTI_SFPMUL(p_sfpu::LREG1, p_sfpu::LREG3, p_sfpu::LCONST_0, p_sfpu::LREG1, 0);
        TTI_SFPNOP;
        TTI_SFPSTORE(p_sfpu::LREG1, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
        sfpi::dst_reg++;
    }
}`;
  it('assembles a whole kernel function given its parameters', () => {
    const r = assemble(scaledAbs, 'wormhole', { defines: { count: 4, scale: 0x40490fdb } });
    // SFPLOADI: LREG3 << 20 | mod0 << 16 | imm16; SFPABS: c 0 <<8, d 1 <<4, mod1 1;
    // SFPMUL: a=1 <<16, b=3 <<12, c=9 <<8, d=1 <<4; dst_reg++ = TTI_INCRWC(0, 2, 0, 0) = 0x38 << 24 | 2 << 14
    const body = ['0x7000c000', '0x7d000011', '0x86013910', '0x8f000000', '0x7210c000', '0x38008000'];
    assert.deepEqual(hexes(r.words), ['0x713a0fdb', '0x71384049', ...Array(4).fill(body).flat()]);
    assert.deepEqual(r.lines.slice(0, 8), [4, 5, 9, 10, 11, 12, 13, 14]);
    assert.deepEqual(r.warnings, []);
    throwsAt(() => assemble(scaledAbs, 'wormhole', { defines: { scale: 1 } }), 7, 25, "unknown name 'count'");
  });
  it('assembles a kernel with static_assert (skipped), to_underlying and a constexpr choice', () => {
    // Our own kernel (shifts x left by a per-lane amount; lanes with a negative amount get 0), in
    // the style of tt-llk's ckernel_sfpu_shift.h _calculate_binary_left_shift_.
    const src = `template <int ITERATIONS, InstrModLoadStore MODE, bool USE_2S_COMP>
inline void masked_shift(const std::uint32_t in_tile, const std::uint32_t amount_tile, const std::uint32_t out_tile)
{
    static_assert(ITERATIONS > 0, "at least one row group");
    constexpr int load_mode = USE_2S_COMP ? INT32_2S_COMP : to_underlying(MODE);
    for (int d = 0; d < ITERATIONS; d++)
    {
        constexpr std::uint32_t rows_per_tile = 64;
        TT_SFPLOAD(p_sfpu::LREG0, load_mode, ADDR_MOD_3, in_tile * rows_per_tile);
        TT_SFPLOAD(p_sfpu::LREG1, load_mode, ADDR_MOD_3, amount_tile * rows_per_tile);
        TTI_SFPSETCC(0, p_sfpu::LREG1, p_sfpu::LREG0, 0); // amount < 0
        TTI_SFPIADD((-32) & 0xFFF, p_sfpu::LREG1, p_sfpu::LREG2, 1);
        TTI_SFPCOMPC(0, p_sfpu::LREG0, p_sfpu::LREG0, 0);
        TTI_SFPMOV(0, p_sfpu::LCONST_0, p_sfpu::LREG0, 0);
        TTI_SFPENCC(0, p_sfpu::LREG0, p_sfpu::LREG0, 0);
        TTI_SFPSHFT(0, p_sfpu::LREG1, p_sfpu::LREG0, 0);
        TT_SFPSTORE(p_sfpu::LREG0, load_mode, ADDR_MOD_3, out_tile * rows_per_tile);
        sfpi::dst_reg++;
    }
}`;
    const defines = {
      ITERATIONS: 2,
      MODE: 4,
      USE_2S_COMP: 0,
      in_tile: 0,
      amount_tile: 1,
      out_tile: 2,
    };
    const r = assemble(src, 'wormhole', { defines });
    const once = [
      '0x7004c000', // SFPLOAD L0, mod0 4 (INT32), ADDR_MOD_3, 0
      '0x7014c040', // SFPLOAD L1, ..., 1 * 64
      '0x7b000100', // SFPSETCC lreg_c 1, mod1 0
      '0x79fe0121', // SFPIADD imm 0xfe0, c 1, d 2, mod1 1
      '0x8b000000',
      '0x7c000900', // SFPMOV c = LCONST_0 (9)
      '0x8a000000',
      '0x7a000100', // SFPSHFT c 1
      '0x7204c080', // SFPSTORE L0, mod0 4, ADDR_MOD_3, 2 * 64
      '0x38008000', // dst_reg++
    ];
    assert.deepEqual(hexes(r.words), [...once, ...once]);
  });
  it('turns sfpi lltt::record / lltt::replay into REPLAY words', () => {
    // Our own transpose/replay sequence (tt-llk's ckernel_sfpu_reduce.h sum_columns uses the same calls);
    // lltt.h: replay(start, len) = TT_OP_REPLAY(start, len, 0, 0) = 0x04 << 24 | start << 14 | len << 4.
    const src = `lltt::record<lltt::Exec>(0, 6);
template <std::uint32_t n>
inline void transpose_and_replay()
{
    TTI_SFPTRANSP(0, 0, 0, 0);
    lltt::replay(2, n);
    TTI_SFPTRANSP(0, 0, 0, 0);
    lltt::replay(0, n - 2);
}
.word lltt::replay_insn(3, 2)`;
    const r = assemble(src, 'wormhole', { defines: { n: 6 } });
    // record<Exec>: execute_while_loading 1 << 1, load_mode 1
    assert.deepEqual(hexes(r.words), [
      '0x04000063',
      '0x8c000000',
      '0x04008060',
      '0x8c000000',
      '0x04000040',
      '0x0400c020',
    ]);
    assert.equal(assemble('lltt::record(2, 1);', 'wormhole').words[0], 0x04008011);
    throwsAt(
      () => assemble('lltt::replay(0, 1024);', 'wormhole'),
      1,
      17,
      'argument 2 (len) = 1024 does not fit',
    );
  });
  it('calls functions with template and call arguments, reads constant arrays, runs an entry', () => {
    // Our own kernel: adds row-group pairs of two Dst regions through functions with template and
    // call arguments, constant arrays and if constexpr (the features tt-llk's ckernel_sfpu_reduce.h uses).
    const src = `constexpr std::uint32_t NUM_GROUPS = 2;
constexpr std::uint32_t SRC_ADDRS[NUM_GROUPS] = {0, 8};
constexpr std::uint32_t DST_ADDRS[NUM_GROUPS] = {32, 40};
constexpr std::uint32_t COLS[NUM_GROUPS] = {0, 2};
constexpr std::uint32_t STEP = 4;
template <InstrModLoadStore MODE>
inline void load_pair(std::uint32_t src, std::uint32_t col)
{
    TT_SFPLOAD(p_sfpu::LREG0, MODE, ADDR_MOD_3, src + col);
    TT_SFPLOAD(p_sfpu::LREG1, MODE, ADDR_MOD_3, src + col + STEP);
}

template <std::uint32_t len>
inline void transpose_twice()
{
    TTI_SFPTRANSP(0, 0, 0, 0);
    lltt::replay(0, len);
    TTI_SFPTRANSP(0, 0, 0, 0);
}

template <PoolType kind, InstrModLoadStore MODE>
inline void add_pairs()
{
    constexpr bool integer = (MODE == InstrModLoadStore::INT32 || MODE == InstrModLoadStore::LO16);
    for (std::uint32_t g = 0; g < NUM_GROUPS; g++)
    {
        const std::uint32_t col = COLS[g];
        load_pair<MODE>(SRC_ADDRS[g], col);
        if constexpr (integer)
        {
            transpose_twice<4>();
            TTI_SFPIADD(0, p_sfpu::LREG1, p_sfpu::LREG0, 4);
        }
        else
        {
            transpose_twice<8>();
            TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG0, 0);
            TTI_SFPNOP;
        }
        if constexpr (kind == AVG)
        {
            divide_by_count();
        }
        TTI_SFPSTORE(p_sfpu::LREG0, MODE, ADDR_MOD_3, DST_ADDRS[g] + col);
    }
}`;
    // PoolType (llk_defs.h): SUM 0, AVG 1; kind and MODE (FP32 = 3) are the entry's template arguments.
    const r = assemble(src, 'wormhole', {
      entry: 'add_pairs',
      defines: { SUM: 0, AVG: 1, kind: 0, MODE: 3 },
    });
    // Expected from the macro definitions: SFPLOAD r, mod0 3, ADDR_MOD_3, addr = 0x7003c000 | r << 20 | addr;
    // REPLAY(0, 8) = 0x04000080; SFPADD(0, 10, 1, 0, 0) = 0x8500a100; SFPSTORE = 0x7203c000 | addr.
    const want: number[] = [];
    [0, 1].forEach((g) => {
      const col = [0, 2][g]!;
      const src0 = [0, 8][g]! + col;
      want.push((0x7003c000 | src0) >>> 0, (0x7013c000 | (src0 + 4)) >>> 0);
      want.push(0x8c000000, 0x04000080, 0x8c000000, 0x8500a100, 0x8f000000);
      want.push((0x7203c000 | ([32, 40][g]! + col)) >>> 0);
    });
    assert.deepEqual(hexes(r.words), hexes(Uint32Array.from(want)));
    // without an entry every function runs as it is read, so its parameters must be defined
    throwsAt(() => assemble(src, 'wormhole'), 9, 31, "unknown name 'MODE'", /load_pair runs as it is read/);
    assert.throws(
      () => assemble(src, 'wormhole', { entry: 'reduce' }),
      (e: unknown) =>
        e instanceof AxsimError &&
        e.category === 'BadInput' &&
        e.message === "no function 'reduce' in the source" &&
        e.hint === 'the functions are: load_pair, transpose_twice, add_pairs',
    );
    throwsAt(
      () => assemble('constexpr int A[2] = {1, 2};\n.word A[2]', 'wormhole'),
      2,
      9,
      'index 2 is outside A[0..1]',
      undefined,
      'UndefinedBehaviour',
    );
  });
  it('unrolls nested loops, takes if constexpr / else, scopes loop variables', () => {
    const src = `constexpr bool is_integer_mode = INSTRUCTION_MODE == InstrModLoadStore::INT32;
for (std::uint32_t i = 0; i < 2; i++) {
  for (int j = 3; j > 1; --j) TTI_SFPLOADI(i, 0, j);
  if constexpr (is_integer_mode) {
    TTI_SFPIADD(0, p_sfpu::LREG4, p_sfpu::LREG0, 4);
  } else if (i == 1) TTI_SFPNOP;
  else {
    TTI_SFPTRANSP(0, 0, 0, 0);
    TTI_SFPLOADMACRO(0, 0, 0, 0) // no ';' before the brace
  }
}
dst_reg += 4;`;
    const r = assemble(src, 'wormhole', { defines: { INSTRUCTION_MODE: 3 } });
    assert.deepEqual(hexes(r.words), [
      '0x71000003',
      '0x71000002',
      '0x8c000000',
      '0x93000000',
      '0x71100003',
      '0x71100002',
      '0x8f000000',
      '0x38020000', // INCRWC rwc_d = 2 * 4 = 8, << 14
    ]);
    const i = assemble(src, 'wormhole', { defines: { INSTRUCTION_MODE: 4 } });
    assert.deepEqual(hexes(i.words).filter((w) => w === '0x79000404').length, 2);
    throwsAt(
      () => assemble('for (int k = 0; k < 1; k++) SFPNOP\n.word k', 'wormhole'),
      2,
      7,
      "unknown name 'k'",
    );
    throwsAt(
      () => assemble('namespace ckernel { TTI_SFPNOP;', 'wormhole'),
      1,
      19,
      "'{' without a matching '}'",
    );
  });
});

describe('canonical form and .word', () => {
  it('assembles ttsim field order and the printed order alike', () => {
    const a = assemble('SFPMAD instr_mod1=0 lreg_dest=6 lreg_src_c=5 lreg_src_b=7 lreg_src_a=6', 'wormhole');
    const b = assemble('SFPMAD lreg_src_a=6 lreg_src_b=7 lreg_src_c=5 lreg_dest=6 instr_mod1=0;', 'wormhole');
    // SFPU-FORMAT.md example record: words ["0x84067560"].
    assert.deepEqual(hexes(a.words), ['0x84067560']);
    assert.deepEqual(hexes(b.words), ['0x84067560']);
  });
  it('prints every field, highest bits first', () => {
    assert.equal(
      disassembleWord(0x84067560, 'wormhole'),
      'SFPMAD lreg_src_a=6 lreg_src_b=7 lreg_src_c=5 lreg_dest=6 instr_mod1=0',
    );
    assert.equal(disassembleWord(0x71083f80, 'wormhole'), 'SFPLOADI lreg_ind=0 instr_mod0=8 imm16=0x3f80');
    assert.equal(disassembleWord(0x8f000000, 'blackhole'), 'SFPNOP');
  });
  it('shows SFPLOADMACRO with the combined VD', () => {
    // TT_SFPLOADMACRO((MacroIndex << 2) + VDLo, Mod0, AddrMod, (Imm9 << 1) + VDHi) with MacroIndex 1,
    // VD 5 (VDHi 1, VDLo 1), Imm9 8 -> lreg_ind 5, dest_reg_addr 17.
    const w = assemble('TTI_SFPLOADMACRO((1 << 2) + 1, 0, 3, (8 << 1) + 1);', 'wormhole').words[0]!;
    assert.equal(w, 0x9350c011);
    const text = disassembleWord(w, 'wormhole');
    assert.equal(text, 'SFPLOADMACRO macro_index=1 vd=5 instr_mod0=0 sfpu_addr_mode=3 imm9=8');
    assert.equal(assemble(text, 'wormhole').words[0], w);
    // the raw ttsim fields are accepted too, and the doc's names in any case
    assert.equal(
      assemble('SFPLOADMACRO dest_reg_addr=17 sfpu_addr_mode=3 instr_mod0=0 lreg_ind=5', 'wormhole').words[0],
      w,
    );
    assert.equal(
      assemble('SFPLOADMACRO MacroIndex=1 VD=5 Imm9=8 instr_mod0=0 sfpu_addr_mode=3', 'wormhole').words[0],
      w,
    );
    // Blackhole: AddrMod is 3 bits at 15:13
    const bh = assemble(
      'SFPLOADMACRO macro_index=0 vd=4 instr_mod0=2 sfpu_addr_mode=7 imm9=0x1ff',
      'blackhole',
    );
    assert.deepEqual(hexes(bh.words), ['0x9302e3ff']);
  });
  it('takes .word and .ttinsn', () => {
    const r = assemble('.word 0x84067560, 2164260864\n.ttinsn -1', 'wormhole');
    assert.deepEqual(hexes(r.words), ['0x84067560', '0x81000000', '0xffffffff']);
    assert.deepEqual(r.lines, [1, 1, 2]);
    assert.equal(r.warnings.length, 1);
    assert.equal(r.warnings[0]!.category, 'Unsupported');
  });
  it('warns about macro words with bits outside the fields the decoder knows', () => {
    // SFPLUT's dest_reg_addr macro argument lands in bits the encoding table marks unused.
    const r = assemble('TTI_SFPLUT(p_sfpu::LREG3, 4, 1);', 'wormhole');
    assert.deepEqual(hexes(r.words), ['0x73340001']);
    assert.equal(r.warnings.length, 1);
    assert.equal(r.warnings[0]!.category, 'UndefinedBehaviour');
    assert.equal(r.warnings[0]!.location?.line, 1);
    assert.equal(
      disassembleWord(0x73340001, 'wormhole', { comments: false }),
      'SFPLUT lreg_ind=3 instr_mod0=4 unused_bits=0x1',
    );
    assert.equal(assemble('SFPLUT lreg_ind=3 instr_mod0=4 unused_bits=0x1', 'wormhole').words[0], 0x73340001);
    throwsAt(
      () => assemble('SFPLUT lreg_ind=3 instr_mod0=4 unused_bits=0x10000', 'wormhole'),
      1,
      44,
      'not within its unused bits',
    );
  });
  it('repeats with .rept/.endr, nested, and skips .rept 0', () => {
    const r = assemble(
      '.rept 2\n.rept 2\nSFPNOP\n.endr\nTTI_SFPTRANSP(0, 0, 0, 0);\n.endr\n.rept 0\nSFPNOP\n.endr',
      'wormhole',
    );
    assert.deepEqual(hexes(r.words), [
      '0x8f000000',
      '0x8f000000',
      '0x8c000000',
      '0x8f000000',
      '0x8f000000',
      '0x8c000000',
    ]);
    assert.deepEqual(r.lines, [3, 3, 5, 3, 3, 5]);
    throwsAt(() => assemble('SFPNOP\n.endr', 'wormhole'), 2, 1, "'.endr' without a '.rept'");
    throwsAt(() => assemble('.rept 2\nSFPNOP', 'wormhole'), 1, 1, '.rept without a matching .endr');
    throwsAt(() => assemble('.rept 0\nSFPNOP', 'wormhole'), 1, 1, '.rept without a matching .endr');
    throwsAt(() => assemble('.rept -1\n.endr', 'wormhole'), 1, 7, 'out of range');
    throwsAt(
      () => assemble('.reptt 2', 'wormhole'),
      1,
      1,
      "unknown directive '.reptt'",
      'did you mean .rept?',
    );
  });
  it('prints the tt-llk macro call on request', () => {
    const text = disassemble([0x84010b10, 0x7000c000, 0x8f000000, 0x9350c011, 0x37120004], 'wormhole', {
      style: 'macro',
    });
    assert.deepEqual(text, [
      'TTI_SFPMAD(p_sfpu::LREG1, p_sfpu::LREG0, p_sfpu::LREG11, p_sfpu::LREG1, 0);',
      'TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);',
      'TTI_SFPNOP;',
      'TTI_SFPLOADMACRO(5, 0, ADDR_MOD_3, 0x11);',
      'TTI_SETRWC(0, 4, 8, 0, 0, 4);',
    ]);
    // INCRWC's lowest argument is at bit 6, so a word with bit 0 set has no macro form
    assert.match(
      disassembleWord(0x38000001, 'wormhole', { style: 'macro' }),
      /^INCRWC .*unused_bits=0x1 +\/\/ no tt-llk macro/,
    );
  });
  it('notes template loads', () => {
    assert.match(disassembleWord(0x840123d0, 'wormhole'), /^SFPMAD .* lreg_dest=13 .*template 1/);
  });
});

describe('errors', () => {
  it('names the nearest instruction for unknown ones', () => {
    throwsAt(
      () => assemble('\n  TTI_SFPMAAD(0, 0, 0, 0, 0);', 'wormhole'),
      2,
      3,
      "unknown instruction 'TTI_SFPMAAD'",
      'TTI_SFPMAD',
    );
    throwsAt(
      () => assemble('SFPMAAD lreg_dest=0', 'wormhole'),
      1,
      1,
      "unknown instruction 'SFPMAAD'",
      'SFPMAD',
    );
  });
  it('rejects Blackhole-only instructions on Wormhole', () => {
    throwsAt(
      () => assemble('SFPGT instr_mod1=0 lreg_dest=0 lreg_c=0', 'wormhole'),
      1,
      1,
      'not a wormhole instruction',
      'blackhole',
    );
    throwsAt(() => assemble('TTI_SFPARECIP(0, 0, 0, 0);', 'wormhole'), 1, 1, 'TTI_SFPARECIP');
  });
  it('names the nearest constant for unknown names', () => {
    throwsAt(
      () =>
        assemble(
          'TTI_SFPMAD(p_sfpu::LREG1, p_sfpu::LREG0, p_sfpu::LCONST_neg, p_sfpu::LREG1, 0);',
          'wormhole',
        ),
      1,
      42,
      "unknown name 'p_sfpu::LCONST_neg'",
      'p_sfpu::LCONST_neg1',
    );
  });
  it('reports immediates that do not fit, naming instruction and field', () => {
    throwsAt(
      () => assemble('// x\nTTI_SFPIADD(-16, p_sfpu::LREG1, p_sfpu::LREG2, 5);', 'wormhole'),
      2,
      13,
      'TTI_SFPIADD argument 1 (imm12_math) = -16 does not fit in its 12 bit(s) 23:12',
      '(-16) & 0xfff',
    );
    throwsAt(() => assemble('TTI_SFPLOADI(0, 0, 0x10000);', 'wormhole'), 1, 20, 'imm16) = 65536');
    // tt_llk_blackhole/common/inc/sfpu/ckernel_sfpu_reduce_custom.h line 79 masks with 0x3fff, but
    // Blackhole's dest_reg_addr argument has 13 bits (sfpu_addr_mode << 13): C silently carries.
    throwsAt(
      () =>
        assemble(
          'TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP16B, ADDR_MOD_3, -128 & 0x3fff);',
          'blackhole',
        ),
      1,
      67,
      'TTI_SFPSTORE argument 4 (dest_reg_addr) = 16256 does not fit in its 13 bit(s) 12:0',
      'carry into sfpu_addr_mode',
    );
    assert.equal(
      assemble(
        'TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP16B, ADDR_MOD_3, -128 & 0x3fff);',
        'wormhole',
      ).words[0],
      0x7202ff80, // on Wormhole the argument has 14 bits: 0x3f80 fits (2 << 16 | 3 << 14 | 0x3f80)
    );
    throwsAt(
      () => assemble('SFPMAD lreg_src_a=16 lreg_src_b=0 lreg_src_c=0 lreg_dest=0 instr_mod1=0', 'wormhole'),
      1,
      19,
      'SFPMAD field lreg_src_a = 16 does not fit in 4 bit(s)',
    );
    throwsAt(() => assemble('.word 0x100000000', 'wormhole'), 1, 7, 'does not fit in 32 bits');
  });
  it('reports argument count mismatches', () => {
    throwsAt(() => assemble('TTI_SFPMAD(1, 2, 3, 4);', 'wormhole'), 1, 22, 'takes 5 argument(s)');
    throwsAt(() => assemble('TTI_SFPMAD(1, 2, 3, 4, 5, 6);', 'wormhole'), 1, 27, 'but got 6');
    throwsAt(() => assemble('TTI_SFPMAD(1, 2 3, 4, 5);', 'wormhole'), 1, 17, "expected ',' or ')'");
  });
  it('reports canonical field problems', () => {
    throwsAt(
      () => assemble('SFPMAD lreg_src_a=1', 'wormhole'),
      1,
      1,
      'missing field(s) lreg_src_b, lreg_src_c, lreg_dest, instr_mod1',
    );
    throwsAt(
      () => assemble('SFPMAD lreg_src_a=1 lreg_src_b=0 lreg_src_c=0 lreg_dst=0 instr_mod1=0', 'wormhole'),
      1,
      47,
      "no field 'lreg_dst'",
      'did you mean lreg_dest?',
    );
    // names compare without case and underscores (so the documentation's VD, MacroIndex work)
    assert.equal(
      assemble('SFPMAD LREG_SRC_A=6 lregsrcb=7 lreg_src_c=5 lreg_dest=6 instr_mod1=0', 'wormhole').words[0],
      0x84067560,
    );
    throwsAt(() => assemble('SFPMAD lreg_src_a=1 lreg_src_a=1', 'wormhole'), 1, 21, 'given twice');
    throwsAt(
      () =>
        assemble(
          'SFPLOADMACRO vd=1 lreg_ind=0 macro_index=0 instr_mod0=0 sfpu_addr_mode=0 imm9=0',
          'wormhole',
        ),
      1,
      19,
      "no field 'lreg_ind' in this form",
    );
  });
  it('reports syntax errors with position', () => {
    throwsAt(() => assemble('TTI_SFPNOP; /* open', 'wormhole'), 1, 13, 'unterminated /* comment');
    throwsAt(() => assemble('TTI_SFPLOADI(0, 0, 1.5f);', 'wormhole'), 1, 20, "floating-point literal '1.5f'");
    // C++ around instructions is the front end's (src/cfront/): an undeclared function, an open block
    throwsAt(() => assemble('TTI_SFPLOADI(0, 0, lo16(x));', 'wormhole'), 1, 20, "unknown name 'lo16'");
    throwsAt(() => assemble('while (1) {', 'wormhole'), 1, 11, "'{' without a matching '}'");
    throwsAt(
      () => assemble('for (int i = 0; i < 8; i++) {', 'wormhole'),
      1,
      29,
      "'{' without a matching '}'",
    );
    // any loop step C allows: i = 1, 2, 4
    assert.equal(assemble('for (int i = 1; i < 8; i *= 2) SFPNOP', 'wormhole').words.length, 3);
    throwsAt(() => assemble('#include "x.h"', 'wormhole'), 1, 2, 'cannot find "x.h"');
    throwsAt(() => assemble('SFPNOP SFPNOP', 'wormhole'), 1, 8, 'expected end of statement');
    // C++ undefined behaviour in constant expressions
    throwsAt(
      () => assemble('TTI_SFPLOADI(0, 0, 1 << 64);', 'wormhole'),
      1,
      22,
      'shift by 64',
      undefined,
      'UndefinedBehaviour',
    );
    throwsAt(
      () => assemble('TTI_SFPLOADI(0, 0, 1 / 0);', 'wormhole'),
      1,
      22,
      'division by zero',
      undefined,
      'UndefinedBehaviour',
    );
  });
  it('takes CRLF line ends, a byte-order mark and backslash continuations', () => {
    const r = assemble('\ufeffTTI_SFPNOP;\r\nTTI_SFPMAD(1, 2, \\\r\n  3, 4, 0);\r\nSFPNOP\r\n', 'wormhole');
    assert.deepEqual(hexes(r.words), ['0x8f000000', '0x84012340', '0x8f000000']);
    assert.deepEqual(r.lines, [1, 2, 4]);
    throwsAt(() => assemble('\ufeffSFPNOP\r\n  bogus', 'wormhole'), 2, 3, "unknown instruction 'bogus'");
    throwsAt(() => assemble('\ufeffbogus', 'wormhole'), 1, 1, "unknown instruction 'bogus'");
  });
  it('puts the file name in locations', () => {
    assert.throws(
      () => assemble('\nbogus', 'wormhole', { file: 'k.cpp' }),
      (e: unknown) => e instanceof AxsimError && e.format().startsWith('k.cpp:2:1: BadInput'),
    );
  });
  it('disassemble rejects only non-words, with the index', () => {
    assert.throws(
      () => disassemble([0x8f000000, -1], 'wormhole'),
      (e: unknown) => e instanceof AxsimError && e.category === 'BadInput' && e.location?.index === 1,
    );
  });
  it('normalises or rejects the arch name (for JavaScript callers)', () => {
    const wh = 'wh' as unknown as 'wormhole';
    assert.deepEqual(hexes(assemble('TTI_SFPLOAD(0, 0, 3, 0);', wh).words), ['0x7000c000']);
    assert.equal(
      disassembleWord(0x7000c000, 'bh' as unknown as 'blackhole', { comments: false }),
      'SFPLOAD lreg_ind=0 instr_mod0=0 sfpu_addr_mode=6 dest_reg_addr=0',
    );
    for (const f of [
      () => assemble('SFPNOP', 'quasar' as unknown as 'wormhole'),
      () => disassemble([0], 'x' as unknown as 'wormhole'),
    ]) {
      assert.throws(
        f,
        (e: unknown) =>
          e instanceof AxsimError && e.category === 'BadInput' && /architecture/.test(e.message),
      );
    }
  });
  it('takes options.defines', () => {
    const r = assemble('TTI_SFPLOAD(p_sfpu::LREG0, INSTRUCTION_MODE, ADDR_MOD_3, offset);', 'wormhole', {
      defines: { INSTRUCTION_MODE: 4, offset: 2n },
    });
    assert.deepEqual(hexes(r.words), ['0x7004c002']);
    assert.throws(
      () => assemble('SFPNOP', 'wormhole', { defines: { X: 1.5 } }),
      (e: unknown) =>
        e instanceof AxsimError && e.category === 'BadInput' && /X = 1.5 is not an integer/.test(e.message),
    );
  });
});
