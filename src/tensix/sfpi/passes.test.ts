/**
 * The SFPI compiler's passes, each on a hand-written trace. Expected instruction sequences follow
 * the headers and compiler sources cited in passes.ts / docs/sfpi.md: tt-llk macro argument order
 * (SFPMAD a, b, c, dest, mod1 = a*b+c; SFPLOADI lreg, mod0, imm16; SFPSETCC imm12, lreg_c,
 * lreg_dest, mod1), sfpi_constants.h values (SFPLOADI_MOD0_FLOATB 0, SHORT 4, USHORT 2, UPPER 8;
 * SFPSETCC_MOD1_LREG_LT0 0 / NE0 2 / GTE0 4 / EQ0 6; SFPLOAD_ADDR_MODE_NOINC 3 on WH, 7 on BH).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { combine, compileTrace, lower, nops, regalloc } from './passes.ts';
import type { Cond, TraceOp } from './trace.ts';

const at = { file: 'k.h', line: 1, col: 1 };
const L = (line: number) => ({ file: 'k.h', line, col: 1 });
const listing = (ops: TraceOp[], arch: 'wormhole' | 'blackhole') =>
  compileTrace(ops, arch).map((i) => `${i.name} ${i.args.join(',')}`.trim());

describe('sfpi combine', () => {
  it('a*b+c with the product used once becomes one mad', () => {
    const ops: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'fimm', id: 1, bits: 0x3fc00000, at },
      { k: 'op', id: 2, op: 'mul', a: 0, b: 1, at },
      { k: 'fimm', id: 3, bits: 0x3e800000, at },
      { k: 'op', id: 4, op: 'add', a: 2, b: 3, at },
      { k: 'store', addr: 0, src: 4, at },
    ];
    const c = combine(ops);
    assert.deepEqual(
      c.map((o) => (o.k === 'op' ? `${o.op}(${o.a},${o.b},${o.c})` : o.k)),
      ['load', 'fimm', 'fimm', 'mad(0,1,3)', 'store'],
    );
  });
  it('no fusion when the product is used twice, or a CC change lies between', () => {
    const twice: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'op', id: 1, op: 'mul', a: 0, b: 0, at },
      { k: 'op', id: 2, op: 'add', a: 1, b: 0, at },
      { k: 'store', addr: 0, src: 2, at },
      { k: 'store', addr: 2, src: 1, at },
    ];
    assert.ok(combine(twice).some((o) => o.k === 'op' && o.op === 'mul'));
    const cc: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'op', id: 1, op: 'mul', a: 0, b: 0, at },
      { k: 'if', depth: 0, at },
      { k: 'cond', cond: { k: 'fcmp', cmp: 'lt', a: 0, b: -1, at }, at },
      { k: 'op', id: 2, op: 'add', a: 1, b: 0, at },
      { k: 'cmov', id: 3, old: 0, src: 2, at },
      { k: 'endif', depth: 0, pops: 0, at },
      { k: 'store', addr: 0, src: 3, at },
    ];
    assert.ok(combine(cc).some((o) => o.k === 'op' && o.op === 'mul'));
  });
  it('unread constants are dropped (and then their inputs); Dst reads and arithmetic stay, as in sfpi-gcc', () => {
    // rvtt-wh.md: SFPLOAD and the arithmetic patterns are unspec_volatile (never deleted); sfpxloadi's
    // expander is a plain unspec (deleted when unused)
    const ops: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'op', id: 1, op: 'fabs', a: 0, b: -1, at },
      { k: 'fimm', id: 3, bits: 0x3f800000, at },
      { k: 'load', id: 2, addr: 2, at },
      { k: 'store', addr: 4, src: 2, at },
    ];
    assert.deepEqual(
      combine(ops).map((o) => o.k),
      ['load', 'op', 'load', 'store'], // gold coverage.S test_load_store / test_shft
    );
  });
});

describe('sfpi lower', () => {
  it('SFPLOADI: one FLOATB load when the low half is zero, else UPPER + LOWER; SHORT for small ints', () => {
    const { insns } = lower(
      [
        { k: 'fimm', id: 0, bits: 0x3fc00000, at }, // 1.5f
        { k: 'fimm', id: 1, bits: 0x3dcccccd, at }, // 0.1f
        { k: 'iimm', id: 2, value: -5, at },
      ],
      'wormhole',
    );
    const r = (v: number) => v;
    assert.deepEqual(
      insns.map((i) => [i.name, ...i.args(r)]),
      [
        ['SFPLOADI', 0, 0, 0x3fc0],
        ['SFPLOADI', 1, 8, 0x3dcc], // UPPER then LOWER (gold coverage.S test_loadi: 3.1f = 16454, 8; 26214, 10)
        ['SFPLOADI', 1, 10, 0xcccd],
        ['SFPLOADI', 2, 4, 0xfffb],
      ],
    );
  });
  it('CC: no PUSHC at the outermost level, COMPC for v_else, SFPENCC 3,10 at its end; PUSHC/POPC inside', () => {
    const ops: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'if', depth: 0, at },
      { k: 'cond', cond: { k: 'fcmp', cmp: 'lt', a: 0, b: -1, at }, at },
      { k: 'else', depth: 0, at },
      { k: 'if', depth: 1, at },
      { k: 'cond', cond: { k: 'fcmp', cmp: 'gt', a: 0, b: -1, at }, at },
      { k: 'endif', depth: 1, pops: 0, at },
      { k: 'endif', depth: 0, pops: 0, at },
      { k: 'store', addr: 0, src: 0, at },
    ];
    assert.deepEqual(listing(ops, 'blackhole'), [
      'SFPLOAD 0,0,7,0',
      'SFPSETCC 0,0,0,0',
      'SFPCOMPC 0,0,0,0',
      // the inner level's PUSHC/POPC go: its pop would be followed at once by the outer end
      // (gold pushpop.S else_yes)
      'SFPSETCC 0,0,0,4', // x > 0: x >= 0 and then x != 0
      'SFPSETCC 0,0,0,2',
      'SFPENCC 3,0,0,10',
      'SFPSTORE 0,0,7,0',
    ]);
  });
  it('a compare of two values is (a - b) by MAD with -1.0 (LReg 11), then SFPSETCC; a <= b is (b - a) >= 0', () => {
    const ops: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'load', id: 1, addr: 2, at },
      { k: 'if', depth: 0, at },
      { k: 'cond', cond: { k: 'fcmp', cmp: 'ge', a: 0, b: 1, at }, at },
      { k: 'endif', depth: 0, pops: 0, at },
    ];
    assert.deepEqual(listing(ops, 'wormhole'), [
      'SFPLOAD 0,0,3,0',
      'SFPLOAD 1,0,3,2',
      'SFPMAD 1,11,0,1,0', // b * -1 + a, into b's register (its last use; gold: SFPMAD L1, L1, L11, L2)
      'SFPNOP', // WH: the next instruction reads the MAD's result
      'SFPSETCC 0,1,0,4',
      'SFPENCC 3,0,0,10',
    ]);
    const le = ops.map((o) =>
      o.k === 'cond' && o.cond.k === 'fcmp' ? { ...o, cond: { ...o.cond, cmp: 'le' } } : o,
    );
    assert.deepEqual(listing(le, 'wormhole'), [
      'SFPLOAD 0,0,3,0',
      'SFPLOAD 1,0,3,2',
      'SFPMAD 1,11,0,1,0', // a <= b as !((a - b) >= 0 && (a - b) != 0) (gold test_vhalf_conditional)
      'SFPNOP',
      'SFPSETCC 0,1,0,4',
      'SFPSETCC 0,1,0,2',
      'SFPCOMPC 0,0,0,0',
      'SFPENCC 3,0,0,10',
    ]);
  });
  it('v_elseif: SFPCOMPC, SFPPUSHC, its compare; the chain pops that level before its SFPENCC', () => {
    const ops: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'if', depth: 0, at },
      { k: 'cond', cond: { k: 'fcmp', cmp: 'le', a: 0, b: -1, at }, at },
      { k: 'elseif', depth: 0, at },
      { k: 'cond', cond: { k: 'fcmp', cmp: 'eq', a: 0, b: -1, at }, at },
      { k: 'else', depth: 0, at },
      { k: 'endif', depth: 0, pops: 1, at },
      { k: 'store', addr: 0, src: 0, at },
    ];
    assert.deepEqual(listing(ops, 'blackhole'), [
      'SFPLOAD 0,0,7,0',
      'SFPSETCC 0,0,0,4', // x <= 0 as !(x >= 0 && x != 0), at the top of the level
      'SFPSETCC 0,0,0,2',
      'SFPCOMPC 0,0,0,0',
      'SFPCOMPC 0,0,0,0',
      'SFPPUSHC 0,0,0,0',
      'SFPSETCC 0,0,0,6',
      'SFPCOMPC 0,0,0,0',
      'SFPPOPC 0,0,0,0',
      'SFPENCC 3,0,0,10',
      'SFPSTORE 0,0,7,0',
    ]);
  });
  it('add / sub / mul / neg / abs', () => {
    const ops: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'load', id: 1, addr: 2, at },
      { k: 'op', id: 2, op: 'add', a: 0, b: 1, at },
      { k: 'op', id: 3, op: 'sub', a: 2, b: 1, at },
      { k: 'op', id: 4, op: 'mul', a: 3, b: 1, at },
      { k: 'op', id: 5, op: 'neg', a: 4, b: -1, at },
      { k: 'op', id: 6, op: 'fabs', a: 5, b: -1, at },
      { k: 'store', addr: 0, src: 6, at },
    ];
    assert.deepEqual(listing(ops, 'blackhole'), [
      'SFPLOAD 0,0,7,0',
      'SFPLOAD 1,0,7,2',
      'SFPADD 10,0,1,0,0', // 1.0 * a + b (gold: SFPADD L0, L10, L0, L1)
      'SFPMAD 11,1,0,0,0', // -1.0 * b + a (gold test_sub: SFPMAD L0, L11, L0, L1)
      'SFPMUL 0,1,9,0,0', // a * b + 0.0 (b's last use: L1 is free after)
      'SFPMOV 0,0,0,1', // SFPMOV_MOD1_COMPSIGN
      'SFPABS 0,0,0,1', // SFPABS_MOD1_FLOAT
      'SFPSTORE 0,0,7,0',
    ]);
  });
});

describe('sfpi regalloc and nops', () => {
  it('a conditional write goes into the register of the value it replaces', () => {
    const ops: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'if', depth: 0, at },
      { k: 'cond', cond: { k: 'fcmp', cmp: 'lt', a: 0, b: -1, at }, at },
      { k: 'fimm', id: 1, bits: 0, at },
      { k: 'cmov', id: 2, old: 0, src: 1, at },
      { k: 'endif', depth: 0, pops: 0, at },
      { k: 'store', addr: 0, src: 2, at },
    ];
    assert.deepEqual(listing(ops, 'wormhole'), [
      'SFPLOAD 0,0,3,0',
      'SFPSETCC 0,0,0,0',
      'SFPLOADI 0,0,0', // the value is loaded straight into the variable's register, under the CC
      'SFPENCC 3,0,0,10',
      'SFPSTORE 0,0,3,0',
    ]);
  });
  it('a conditional write to a value still read later writes a copy made before the v_if', () => {
    const ops: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'if', depth: 0, at },
      { k: 'cond', cond: { k: 'fcmp', cmp: 'lt', a: 0, b: -1, at }, at },
      { k: 'fimm', id: 1, bits: 0, at },
      { k: 'cmov', id: 2, old: 0, src: 1, at: L(9) },
      { k: 'endif', depth: 0, pops: 0, at },
      { k: 'store', addr: 0, src: 2, at },
      { k: 'store', addr: 2, src: 0, at },
    ];
    assert.deepEqual(listing(ops, 'wormhole'), [
      'SFPLOAD 0,0,3,0',
      'SFPMOV 0,0,1,0', // the variable's own copy, all lanes enabled
      'SFPSETCC 0,0,0,0',
      'SFPLOADI 1,0,0', // the conditional write goes into the copy
      'SFPENCC 3,0,0,10',
      'SFPSTORE 1,0,3,0',
      'SFPSTORE 0,0,3,2', // the old value, unchanged in every lane
    ]);
  });
  it('8 live values fit, the 9th is the register-spill error at its line', () => {
    const loads = (n: number): TraceOp[] =>
      Array.from({ length: n }, (_, i) => ({ k: 'load', id: i, addr: 2 * i, at: L(i + 1) }) as TraceOp);
    const sum = (n: number): TraceOp[] => {
      const ops = loads(n);
      let acc = 0;
      for (let i = 1; i < n; i++) {
        ops.push({ k: 'op', id: 100 + i, op: 'add', a: acc, b: i, at });
        acc = 100 + i;
      }
      ops.push({ k: 'store', addr: 0, src: acc, at });
      return ops;
    };
    const { insns, fixed } = lower(combine(sum(8)), 'blackhole');
    const { phys } = regalloc(insns, fixed);
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6, 7].map((v) => phys.get(v)),
      [0, 1, 2, 3, 4, 5, 6, 7],
    );
    assert.throws(
      () => listing(sum(9), 'blackhole'),
      (e: unknown) => e instanceof AxsimError && /register spill/.test(e.message) && e.location?.line === 9,
    );
  });
  it('Wormhole: SFPNOP only when the next instruction reads the MAD result; Blackhole: none', () => {
    const dependent: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'op', id: 1, op: 'mul', a: 0, b: 0, at },
      { k: 'store', addr: 0, src: 1, at },
    ];
    assert.deepEqual(listing(dependent, 'wormhole'), [
      'SFPLOAD 0,0,3,0',
      'SFPMUL 0,0,9,0,0',
      'SFPNOP',
      'SFPSTORE 0,0,3,0',
    ]);
    assert.deepEqual(listing(dependent, 'blackhole'), [
      'SFPLOAD 0,0,7,0',
      'SFPMUL 0,0,9,0,0',
      'SFPSTORE 0,0,7,0',
    ]);
    const independent: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'op', id: 1, op: 'mul', a: 0, b: 0, at },
      { k: 'load', id: 2, addr: 2, at },
      { k: 'store', addr: 2, src: 2, at },
      { k: 'store', addr: 0, src: 1, at },
    ];
    const lowered = lower(combine(independent), 'wormhole');
    const { phys, insns } = regalloc(lowered.insns, lowered.fixed);
    assert.deepEqual(
      nops(insns, phys, 'wormhole').map((i) => i.name),
      ['SFPLOAD', 'SFPMUL', 'SFPLOAD', 'SFPSTORE', 'SFPSTORE'],
    );
  });
});

describe('sfpi condition trees', () => {
  const x = 0;
  const eq = (): Cond => ({ k: 'fcmp', cmp: 'eq', a: x, b: -1, at });
  const ne = (): Cond => ({ k: 'fcmp', cmp: 'ne', a: x, b: -1, at });
  const prog = (cond: Cond): TraceOp[] => [
    { k: 'load', id: 0, addr: 0, at },
    { k: 'if', depth: 0, at },
    { k: 'cond', cond, at },
    { k: 'endif', depth: 0, pops: 0, at },
  ];
  it('(a && b) || (c && d): !(!(a && b) && !(c && d)) — COMPC at the top, a flag register below it', () => {
    const or: Cond = { k: 'or', a: { k: 'and', a: eq(), b: eq() }, b: { k: 'and', a: eq(), b: eq() } };
    assert.deepEqual(listing(prog(or), 'blackhole'), [
      'SFPLOAD 0,0,7,0',
      'SFPSETCC 0,0,0,6', // a && b
      'SFPSETCC 0,0,0,6',
      'SFPCOMPC 0,0,0,0', // !(a && b), at the top of the level
      'SFPLOADI 1,4,1', // flag = 1 where !(a && b)
      'SFPPUSHC 0,0,0,0',
      'SFPSETCC 0,0,0,6', // c && d
      'SFPSETCC 0,0,0,6',
      'SFPCOMPC 0,0,0,0', // !(c && d) within the pushed level
      'SFPLOADI 1,4,0', // flag = 0 there
      'SFPPOPC 0,0,0,0',
      'SFPSETCC 0,1,0,6', // flag == 0: !(a && b) && !(c && d)
      'SFPCOMPC 0,0,0,0', // the outer !
      'SFPENCC 3,0,0,10',
    ]);
  });
  it('!(a || b) is !a && !b: the leaves invert, no complement', () => {
    const c: Cond = { k: 'not', a: { k: 'or', a: eq(), b: ne() } };
    assert.deepEqual(listing(prog(c), 'blackhole'), [
      'SFPLOAD 0,0,7,0',
      'SFPSETCC 0,0,0,2', // !(x == 0)
      'SFPSETCC 0,0,0,6', // !(x != 0)
      'SFPENCC 3,0,0,10',
    ]);
  });
  it('a && (b || c): the OR below the top of the level goes through a flag', () => {
    const c: Cond = { k: 'and', a: ne(), b: { k: 'or', a: eq(), b: ne() } };
    assert.deepEqual(listing(prog(c), 'blackhole'), [
      'SFPLOAD 0,0,7,0',
      'SFPSETCC 0,0,0,2', // a
      'SFPLOADI 1,4,1',
      'SFPPUSHC 0,0,0,0',
      'SFPSETCC 0,0,0,2', // !b
      'SFPSETCC 0,0,0,6', // !c
      'SFPCOMPC 0,0,0,0', // b || c within the pushed level
      'SFPLOADI 1,4,0',
      'SFPPOPC 0,0,0,0',
      'SFPSETCC 0,1,0,6', // a && (b || c)
      'SFPENCC 3,0,0,10',
    ]);
  });
});

describe('sfpi register pressure', () => {
  it('out of LRegs, constants are reloaded at each use instead of kept live (a 9th live value still spills)', () => {
    const tenth = 0x3dcccccd; // 0.1f: an UPPER + LOWER pair
    const ops: TraceOp[] = [
      ...Array.from({ length: 7 }, (_, i) => ({ k: 'load', id: i, addr: 2 * i, at }) as TraceOp),
      { k: 'fimm', id: 10, bits: tenth, at },
      { k: 'fimm', id: 11, bits: tenth + 1, at },
      { k: 'op', id: 20, op: 'mul', a: 0, b: 10, at },
      { k: 'op', id: 21, op: 'mul', a: 1, b: 11, at },
      { k: 'op', id: 22, op: 'mul', a: 2, b: 10, at },
      { k: 'op', id: 23, op: 'mul', a: 3, b: 11, at },
      ...[20, 21, 22, 23, 4, 5, 6].map((src, i) => ({ k: 'store', addr: 40 + 2 * i, src, at }) as TraceOp),
    ];
    // kept live, the two constants and seven loads need nine LRegs
    assert.throws(
      () => regalloc(lower(combine(ops), 'blackhole').insns, new Map()),
      (e: unknown) => e instanceof AxsimError && /register spill/.test(e.message),
    );
    const l = listing(ops, 'blackhole');
    // each of the four products loads its constant (two SFPLOADI each) right before it
    assert.equal(l.filter((x) => x.startsWith('SFPLOADI')).length, 8);
    const firstMul = l.findIndex((x) => x.startsWith('SFPMUL'));
    assert.deepEqual(
      l.slice(firstMul - 2, firstMul).map((x) => x.split(',')[1]),
      ['8', '10'], // UPPER, LOWER of 0.1f just before the product
    );
  });
});

describe('sfpi condition leaves: operands made next to their compare', () => {
  // sfpi-gcc leaves each compare where the C++ evaluated it (gimple-rvtt-expand.cc process_tree_node),
  // so a literal or a dst_reg[] read that only one compare uses is loaded right before it; gold
  // coverage.S stupid_example: SFPLOADI L1, c; SFPMAD L1, L1, L11, L0 (c * -1.0 + a); SFPSETCC L1.
  const c12 = 0x41400000; // 12.0f: FLOATB 0x4140
  const c14 = 0x41600000; // 14.0f: FLOATB 0x4160
  it('the literals of v >= 12 && v < 14 are each loaded before their own compare', () => {
    const ops: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'if', depth: 0, at },
      { k: 'fimm', id: 1, bits: c12, cmp: true, at },
      { k: 'fimm', id: 2, bits: c14, cmp: true, at },
      {
        k: 'cond',
        cond: {
          k: 'and',
          a: { k: 'fcmp', cmp: 'ge', a: 0, b: 1, at },
          b: { k: 'fcmp', cmp: 'lt', a: 0, b: 2, at },
        },
        at,
      },
      { k: 'store', addr: 2, src: 0, at },
      { k: 'endif', depth: 0, pops: 0, at },
    ];
    assert.deepEqual(listing(ops, 'blackhole'), [
      'SFPLOAD 0,0,7,0',
      'SFPLOADI 1,0,16704', // 12.0
      'SFPMAD 1,11,0,1,0', // 12 * -1 + v, into the literal's register
      'SFPSETCC 0,1,0,4', // >= 0
      'SFPLOADI 1,0,16736', // 14.0
      'SFPMAD 1,11,0,1,0',
      'SFPSETCC 0,1,0,0', // < 0
      'SFPSTORE 0,0,7,2',
      'SFPENCC 3,0,0,10',
    ]);
  });
  it('nine dst_reg[0] == c leaves need two LRegs: each load and literal is made at its compare', () => {
    const ops: TraceOp[] = [{ k: 'if', depth: 0, at }];
    let cond: Cond | undefined;
    for (let i = 0; i < 9; i++) {
      ops.push(
        { k: 'load', id: 2 * i, addr: 0, at },
        { k: 'fimm', id: 2 * i + 1, bits: 0x3f800000 + (i << 20), cmp: true, at },
      );
      const leaf: Cond = { k: 'fcmp', cmp: 'ne', a: 2 * i, b: 2 * i + 1, at };
      cond = cond ? { k: 'and', a: cond, b: leaf } : leaf;
    }
    ops.push({ k: 'cond', cond: cond!, at }, { k: 'fimm', id: 99, bits: 0x42800000, at });
    ops.push({ k: 'store', addr: 2, src: 99, at }, { k: 'endif', depth: 0, pops: 0, at });
    const l = listing(ops, 'wormhole');
    // load, literal, difference, NOP (Wormhole: the SETCC reads the MAD result), test — nine times
    for (let i = 0; i < 9; i++)
      assert.deepEqual(
        l.slice(5 * i, 5 * i + 5),
        [
          'SFPLOAD 0,0,3,0',
          `SFPLOADI 1,0,${(0x3f800000 + (i << 20)) >>> 16}`,
          'SFPMAD 1,11,0,1,0',
          'SFPNOP',
          'SFPSETCC 0,1,0,2',
        ],
        `leaf ${i}`,
      );
  });
  it('a vector variable made before the v_if stays where it is (gold combine.S iadd_i_no1)', () => {
    const ops: TraceOp[] = [
      { k: 'fimm', id: 0, bits: 0x40000000, at }, // vFloat x = 2.0f
      { k: 'load', id: 1, addr: 2, at },
      { k: 'store', addr: 4, src: 1, at },
      { k: 'if', depth: 0, at },
      { k: 'cond', cond: { k: 'fcmp', cmp: 'lt', a: 0, b: -1, at }, at },
      { k: 'store', addr: 6, src: 0, at },
      { k: 'endif', depth: 0, pops: 0, at },
    ];
    assert.equal(listing(ops, 'blackhole')[0], 'SFPLOADI 0,0,16384');
  });
  it('a dst_reg[] read stays before a store to Dst that lies between it and its compare', () => {
    const ops: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'fimm', id: 1, bits: 0x40000000, at },
      { k: 'store', addr: 0, src: 1, at }, // overwrites the row the load read
      { k: 'if', depth: 0, at },
      { k: 'cond', cond: { k: 'fcmp', cmp: 'lt', a: 0, b: -1, at }, at },
      { k: 'store', addr: 2, src: 1, at },
      { k: 'endif', depth: 0, pops: 0, at },
    ];
    const l = listing(ops, 'blackhole');
    assert.ok(l.indexOf('SFPLOAD 0,0,7,0') < l.indexOf('SFPSTORE 1,0,7,0'), l.join('\n'));
  });
});

describe('sfpi l_reg[] writes and fixed-register operands', () => {
  it('an l_reg[0] write holds LReg 0 up to itself: a later operand that must be in LReg 0 takes it', () => {
    // sfpi.h __vLReg::operator= is __builtin_rvtt_sfppreservelreg(v, 0): a use of v in LReg 0 at that
    // point (rvtt-wh.md: the "Q0" operand constraint), after which the register is free again
    const ops: TraceOp[] = [
      { k: 'load', id: 0, addr: 0, at },
      { k: 'lwrite', lreg: 0, src: 0, at },
      { k: 'iimm', id: 1, value: 0x4000, signed: false, at },
      { k: 'iimm', id: 2, value: 0x4200, signed: false, at },
      { k: 'iimm', id: 3, value: 0x4400, signed: false, at },
      { k: 'fimm', id: 4, bits: 0x3f800000, at },
      { k: 'lut2', id: 5, mod: 14, v: 4, l: [1, 2, 3], at },
      { k: 'store', addr: 2, src: 5, at },
    ];
    const l = listing(ops, 'blackhole');
    // the loaded value goes to LReg 0 (the l_reg write), then LReg 0 is reloaded with the table's l0
    assert.deepEqual(l.slice(0, 2), ['SFPLOAD 0,0,7,0', 'SFPLOADI 0,2,16384']);
    const lut = l.findIndex((x) => x.startsWith('SFPLUTFP32'));
    // the table dies there: the result takes l0's register (sfplutfp32_3r's operand order l0, l1, l2, v;
    // gold coverage.S test_lut2a's second call, SFPLUTFP32 L0), and LReg 7 says so
    assert.equal(l[lut], 'SFPLUTFP32 0,14');
    assert.equal(l[lut - 1], 'SFPLOADI 7,2,0');
  });
});
