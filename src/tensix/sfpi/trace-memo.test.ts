/**
 * The trace memo (trace-memo.ts): a flushed trace that is the previous one with every value id moved
 * by one constant reuses the previous compile. Checked three ways: shiftEquivalent's rules on hand-made
 * traces; the claim it rests on (the passes give the same instructions for a trace whose ids are all
 * moved by any constant) as a property over hand-written traces of every op kind the passes read ids
 * from; and whole LLK runs (four faces: four flushes) with the memo on and off giving the same words,
 * source lines and Dst, plus a kernel whose faces differ (a call counter) getting each face's own code.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Arch } from '../encoding.ts';
import { f32ToBits } from '../llk/checks.ts';
import { compileTrace } from './passes.ts';
import { runOnTile, tileInput } from './testkit.ts';
import type { Cond, TraceOp } from './trace.ts';
import { setSfpiTraceMemo, sfpiTraceMemoHits, shiftEquivalent } from './trace-memo.ts';

const at = { file: 'k.h', line: 3, col: 5 };

/** Every id field moved by d (ids < 0 mean none and stay), written out per op kind (not the memo's walk). */
function shift(ops: readonly TraceOp[], d: number): TraceOp[] {
  const id = (x: number) => (x < 0 ? x : x + d);
  const cond = (c: Cond): Cond =>
    c.k === 'fcmp'
      ? { ...c, a: id(c.a), b: id(c.b) }
      : c.k === 'icmp'
        ? { ...c, a: id(c.a), b: id(c.b), ...(c.fold ? { fold: cond(c.fold) } : {}) }
        : c.k === 'not'
          ? { k: 'not', a: cond(c.a) }
          : { k: c.k, a: cond(c.a), b: cond(c.b) };
  return ops.map((o): TraceOp => {
    switch (o.k) {
      case 'load':
      case 'fimm':
      case 'iimm':
      case 'creg':
      case 'lreg':
      case 'loadi':
        return { ...o, id: id(o.id) };
      case 'store':
      case 'lwrite':
        return { ...o, src: id(o.src) };
      case 'op':
        return { ...o, id: id(o.id), a: id(o.a), b: id(o.b), ...(o.c !== undefined ? { c: id(o.c) } : {}) };
      case 'opi':
        return { ...o, id: id(o.id), a: id(o.a) };
      case 'cmov':
        return { ...o, id: id(o.id), old: id(o.old), src: id(o.src) };
      case 'cond':
        return { ...o, cond: cond(o.cond) };
      case 'condval':
        return { ...o, id: id(o.id), cond: cond(o.cond) };
      case 'swap':
        return { ...o, ida: id(o.ida), idb: id(o.idb), a: id(o.a), b: id(o.b) };
      case 'transp':
        return { ...o, ids: o.ids.map(id), srcs: o.srcs.map(id) };
      case 'lut':
        return { ...o, id: id(o.id), v: id(o.v), l: [id(o.l[0]), id(o.l[1]), id(o.l[2])] };
      case 'lut2':
        return { ...o, id: id(o.id), v: id(o.v), l: o.l.map(id) };
      default:
        return { ...o };
    }
  });
}

/** Hand-written traces reading ids through every field the passes use. */
const TRACES: Record<string, TraceOp[]> = {
  'mad and store': [
    { k: 'load', id: 0, addr: 0, at },
    { k: 'fimm', id: 1, bits: 0x3fc00000, at },
    { k: 'op', id: 2, op: 'mul', a: 0, b: 1, at },
    { k: 'fimm', id: 3, bits: 0x3e800000, at },
    { k: 'op', id: 4, op: 'add', a: 2, b: 3, at },
    { k: 'store', addr: 0, src: 4, at },
  ],
  'v_if / v_elseif / v_else with conditional assignments': [
    { k: 'load', id: 10, addr: 0, at },
    { k: 'fimm', id: 11, bits: 0x3f800000, at },
    { k: 'if', depth: 0, at },
    { k: 'cond', cond: { k: 'fcmp', cmp: 'lt', a: 10, b: -1, at }, at },
    { k: 'cmov', id: 12, old: 10, src: 11, at },
    { k: 'elseif', depth: 0, at },
    { k: 'iimm', id: 13, value: 5, signed: true, cmp: true, at },
    {
      k: 'cond',
      cond: {
        k: 'and',
        a: { k: 'icmp', cmp: 'ge', a: 10, b: -1, imm: 3, at },
        b: { k: 'not', a: { k: 'fcmp', cmp: 'lt', a: 10, b: 11, at } },
      },
      at,
    },
    { k: 'opi', id: 14, op: 'setsgn', a: 12, imm: 1, at },
    { k: 'cmov', id: 15, old: 12, src: 14, at },
    { k: 'else', depth: 0, at },
    { k: 'op', id: 16, op: 'exexp', a: 15, b: -1, at },
    { k: 'cmov', id: 17, old: 15, src: 16, at },
    { k: 'endif', depth: 0, pops: 1, at },
    { k: 'store', addr: 2, src: 17, at },
  ],
  'condition as a value, swap, l_reg': [
    { k: 'load', id: 20, addr: 0, fmt: 12, at },
    { k: 'load', id: 21, addr: 2, fmt: 12, at },
    { k: 'condval', id: 22, cond: { k: 'icmp', cmp: 'lt', a: 20, b: 21, imm: 0, at }, at },
    { k: 'swap', ida: 23, idb: 24, a: 20, b: 21, mod: 1, at },
    { k: 'lreg', id: 25, lreg: 4, at },
    { k: 'op', id: 26, op: 'iadd', a: 22, b: 25, at },
    { k: 'store', addr: 0, src: 23, fmt: 12, at },
    { k: 'store', addr: 2, src: 24, fmt: 12, at },
    { k: 'lwrite', lreg: 5, src: 26, at },
  ],
  lut: [
    { k: 'load', id: 30, addr: 0, at },
    { k: 'lreg', id: 31, lreg: 0, at },
    { k: 'lreg', id: 32, lreg: 1, at },
    { k: 'lreg', id: 33, lreg: 2, at },
    { k: 'lut', id: 34, mod: 0, v: 30, l: [31, 32, 33], at },
    { k: 'store', addr: 0, src: 34, at },
  ],
};

describe('sfpi trace memo: shiftEquivalent', () => {
  const base = TRACES['v_if / v_elseif / v_else with conditional assignments']!;
  it('a trace is shift-equivalent to itself and to itself with every id moved by one constant', () => {
    assert.ok(shiftEquivalent(base, base));
    assert.ok(shiftEquivalent(base, shift(base, 608)));
  });
  it('not when one id moves by another amount, or a "none" (-1) becomes an id', () => {
    const s = shift(base, 7);
    const off = s.map((o) => (o.k === 'cmov' && o.id === 19 ? { ...o, src: o.src + 1 } : o));
    assert.ok(!shiftEquivalent(base, off));
    const none = s.map((o) => (o.k === 'op' && o.b === -1 ? { ...o, b: 3 } : o));
    assert.ok(!shiftEquivalent(base, none));
  });
  it('not when an immediate, address, operation, kind or source location differs, even by the shift', () => {
    const d = 7;
    const s = shift(base, d);
    const variants: TraceOp[][] = [
      s.map((o) => (o.k === 'iimm' ? { ...o, value: o.value + d } : o)), // immediate moved by the shift
      s.map((o) => (o.k === 'fimm' ? { ...o, bits: o.bits + d } : o)),
      s.map((o) => (o.k === 'store' ? { ...o, addr: o.addr + d } : o)),
      s.map((o) => (o.k === 'opi' ? { ...o, imm: o.imm + d } : o)),
      s.map((o) => (o.k === 'op' ? { ...o, op: 'abs' } : o)),
      s.map((o) => (o.k === 'endif' ? { ...o, pops: o.pops + 1 } : o)),
      s.map((o) => (o.k === 'store' ? { ...o, at: { ...o.at, line: o.at.line + 1 } } : o)),
      s.map((o) =>
        o.k === 'cond' && o.cond.k === 'and' ? { ...o, cond: { ...o.cond, k: 'or' as const } } : o,
      ),
      s.slice(1),
    ];
    for (const v of variants) assert.ok(!shiftEquivalent(base, v));
  });
  it('raw words and TTI_ register masks compare exactly', () => {
    const raw: TraceOp[] = [
      { k: 'load', id: 1, addr: 0, at },
      { k: 'raw', word: 0x8a000000, at, tti: { reads: 1, writes: 2, stallReads: 0 } },
      { k: 'store', addr: 0, src: 1, at },
    ];
    const s = shift(raw, 1);
    assert.ok(shiftEquivalent(raw, s));
    assert.ok(
      !shiftEquivalent(
        raw,
        s.map((o) => (o.k === 'raw' ? { ...o, word: o.word + 1 } : o)),
      ),
    );
    assert.ok(
      !shiftEquivalent(
        raw,
        s.map((o) => (o.k === 'raw' ? { ...o, tti: { reads: 2, writes: 4, stallReads: 0 } } : o)),
      ),
    );
  });
});

describe('sfpi trace memo: the passes do not depend on where the ids start', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    for (const [name, ops] of Object.entries(TRACES)) {
      it(`${name} (${arch}): the same instructions for the trace shifted by any amount`, () => {
        const want = compileTrace(ops, arch);
        fc.assert(
          fc.property(fc.integer({ min: 1, max: 1_000_000 }), (d) => {
            assert.deepEqual(compileTrace(shift(ops, d), arch), want);
          }),
          { numRuns: 40 },
        );
      });
    }
  }
});

const FILE = join(import.meta.dirname, '../../../test/fixtures/sfpi/basic.h');
const SOURCE = readFileSync(FILE, 'utf8');
const input = tileInput;

async function runWith(memo: boolean, arch: Arch, source: string, file: string, entry: string) {
  const was = setSfpiTraceMemo(memo);
  try {
    const { r, out } = await runOnTile(arch, source, file, entry, { includeCache: false });
    return { words: Array.from(r.words), sources: r.sources, dst: out };
  } finally {
    setSfpiTraceMemo(was);
  }
}

describe('sfpi trace memo: whole runs', () => {
  const entries = [
    'axsim_sfpi::calculate_relu<false, 8>',
    'axsim_sfpi::calculate_bands<8>',
    'axsim_sfpi::calculate_clamp_m2_3<8>',
    'axsim_sfpi::calculate_and_block<8>',
    'axsim_sfpi::calculate_tti_across<8>',
    'axsim_sfpi::calculate_bool_tree<8>',
    'axsim_sfpi::calculate_leaves_under_pressure<8>',
    'axsim_sfpi::calculate_cond_value<8>',
  ];
  for (const arch of ['wormhole', 'blackhole'] as const) {
    for (const entry of entries) {
      it(`${entry} (${arch}): words, source lines and Dst the same with the memo on and off; the memo was used`, async () => {
        const off = await runWith(false, arch, SOURCE, FILE, entry);
        const h0 = sfpiTraceMemoHits();
        const on = await runWith(true, arch, SOURCE, FILE, entry);
        assert.ok(sfpiTraceMemoHits() >= h0 + 3, 'four faces: three flushes answered by the memo');
        assert.deepEqual(on, off);
      });
    }
    it(`a kernel whose faces differ gets each face's own code (${arch})`, async () => {
      // the kernel adds the number of calls so far: face f (0..3) adds f + 1 to each of its 256 elements
      const src = [
        '#include "sfpi.h"',
        'int calls = 0;',
        'inline void k() {',
        '  calls++;',
        '  for (int d = 0; d < 8; d++) {',
        '    sfpi::vFloat v = sfpi::dst_reg[0];',
        '    sfpi::dst_reg[0] = v + float(calls);',
        '    sfpi::dst_reg++;',
        '  }',
        '}',
      ].join('\n');
      const on = await runWith(true, arch, src, 'faces.h', 'k');
      const added = new Map<number, number>();
      on.dst.forEach((b, i) => {
        const bits = f32ToBits(input(i) + 1);
        const k = [1, 2, 3, 4].find((a) => f32ToBits(input(i) + a) === b);
        assert.ok(k !== undefined, `element ${i}: ${b >>> 0} is x + 1..4 (x + 1 = ${bits})`);
        added.set(k, (added.get(k) ?? 0) + 1);
      });
      assert.deepEqual(
        [...added].sort((a, b) => a[0] - b[0]),
        [
          [1, 256],
          [2, 256],
          [3, 256],
          [4, 256],
        ],
      );
    });
  }
});
