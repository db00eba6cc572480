import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatReport, readJsonl, runConformance } from '../conformance/index.ts';
import { requireConformanceFile } from '../conformance/shared.ts';
import type { AxsimError } from '../errors.ts';
import { loadCaseState, makeSfpuRunner, runRejectRecord } from './conformance.ts';
import { parseArch } from './encoding.ts';
import { TensixState } from './state.ts';
import { getL, hex } from './testutil.ts';

for (const name of ['sfpu-wh.jsonl.gz', 'sfpu-bh.jsonl.gz']) {
  test(`every vector of ${name} passes bit-exactly`, async (t) => {
    const f = requireConformanceFile(name);
    if (!f.path) return t.skip(f.skip);
    const rep = await runConformance([f.path], makeSfpuRunner(), { keepPassing: 0 });
    assert.equal(rep.failed, 0, formatReport(rep, 5));
    assert.ok(rep.passed > 5000, `only ${rep.passed} cases ran`);
  });
}

type Reject = {
  id: string;
  arch: string;
  words: string[];
  in: Record<string, unknown>;
  error: { category: string; message: string };
};

/** The record ran and L0-L7 still hold their `in` values. */
function ranWithoutLRegChange(st: TensixState, rec: Reject, raised: AxsimError | undefined): void {
  assert.equal(raised, undefined);
  const lreg = rec.in.lreg as number[][];
  for (let r = 0; r < 8; r++)
    assert.deepEqual(
      getL(st, r),
      lreg[r]!.map((v) => v >>> 0),
      `LReg[${r}]`,
    );
}

/**
 * Records whose result the ISA documents define, with the values worked by hand from them
 * (ttsim refuses all of these; SFPU-NOTES.md D lists why).
 */
const DOC_EXPECTED: Record<string, (st: TensixState, rec: Reject, raised: AxsimError | undefined) => void> = {
  // SFPADD is "as per SFPMAD" for any operands (spec 003; WormholeB0 SFPADD.md): VD=1 = L2*L3 + L4.
  // Lane 2: 255 * -1.5 + 1.0078125 = -381.4921875, exact in FP32 = 0xc3bebf00. Lane 0: a denormal
  // (zero) times NaN is NaN, whose mantissa LSB the docs guarantee to be set.
  'wh-REJECT-2200': (st, _rec, raised) => {
    assert.equal(raised, undefined);
    const l1 = getL(st, 1);
    assert.equal(hex(l1[2]!), '0xc3bebf00');
    assert.equal(l1[0]! & 0x7f800001, 0x7f800001);
  },
  // SFPSETMAN immediate form: VD = {VC.Sign, VC.Exponent, Imm12 << 11} (spec 003); Imm12 = 0x800 puts
  // 0x400000 in the mantissa. L2 lanes 0..3 = 0xc0800000 0x7fa00000 0x00800000 0x3f7ffffe.
  'wh-REJECT-2205': (st, _rec, raised) => {
    assert.equal(raised, undefined);
    assert.deepEqual(getL(st, 1).slice(0, 4).map(hex), [
      '0xc0c00000',
      '0x7fc00000',
      '0x00c00000',
      '0x3f400000',
    ]);
  },
  // SFPCONFIG with config_dest 10 "does nothing" (WormholeB0 SFPCONFIG.md): no LReg changes.
  'wh-REJECT-2164': ranWithoutLRegChange,
  // SFPLOADI to VD 8 (a fixed constant): the write does nothing (LReg.md); L0-L7 keep their values.
  'wh-REJECT-0064': ranWithoutLRegChange,
  // SFP_STOCH_RND with instr_mod1 bit 3 (UseImm5) on a float flavour: Mod1 = bits 2:0, bit 3 unread
  // (docs/tensix.md). VD 8 drops the write. bh-1664: 14 = FP32_TO_UINT16, nearest: -0.5 -> 1 (tie
  // away, sign dropped), 0x40000001 -> 2, 0x387fe000 and 0x37800000 (Exp < -1) -> 0.
  'wh-REJECT-1690': ranWithoutLRegChange,
  'bh-REJECT-1636': ranWithoutLRegChange,
  'bh-REJECT-1651': ranWithoutLRegChange,
  'bh-REJECT-1666': ranWithoutLRegChange,
  'bh-REJECT-1671': ranWithoutLRegChange,
  'bh-REJECT-1664': (st, _rec, raised) => {
    assert.equal(raised, undefined);
    assert.deepEqual(getL(st, 1).slice(0, 4), [1, 2, 0, 0]);
  },
  // bh-1640: 9 = FP32_TO_FP16B, stochastic; lanes 0-3 have PRNG state 0, so PRNGBits = 0 and every
  // lane with a non-zero exponent rounds up (BH: Discarded >= PRNGBits >> 7): 0xbfc00000 ->
  // 0xbfc10000, -0 -> 0, 0x3f800001 -> 0x3f810000, 0x387fe000 -> 0x38800000.
  'bh-REJECT-1640': (st, _rec, raised) => {
    assert.equal(raised, undefined);
    assert.deepEqual(getL(st, 1).slice(0, 4).map(hex), [
      '0xbfc10000',
      '0x00000000',
      '0x3f810000',
      '0x38800000',
    ]);
  },
  // A ninth SFPPUSHC: the flag stack holds eight entries and the docs call overflow undefined.
  'wh-REJECT-2123': (_st, _rec, raised) => assert.equal(raised?.category, 'UndefinedBehaviour'),
  'bh-REJECT-2421': (_st, _rec, raised) => assert.equal(raised?.category, 'UndefinedBehaviour'),
};

/**
 * SFPSWAP Mod1 10-15 (ttsim: NonContractualBehavior "instr_mod1=N"): axsim runs them as Mod1 9 on
 * both arches (docs/tensix.md): VD gets the max and VC the min in the sign-magnitude total order,
 * in every enabled lane, and only LRegs below 8 are written. Expected values computed here from
 * the record's input (LReg[8] = 0.8373 = 0x3f56594b, LReg.md).
 */
function swapHighMod1(rec: Reject): boolean {
  if (rec.words.length !== 1) return false;
  const word = Number(rec.words[0]) >>> 0;
  return word >>> 24 === 0x92 && (word & 15) >= 10;
}
function checkSwapHighMod1(st: TensixState, rec: Reject, raised: AxsimError | undefined): void {
  assert.equal(raised, undefined, rec.id);
  const word = Number(rec.words[0]) >>> 0;
  const vd = (word >>> 4) & 15;
  const vc = (word >>> 8) & 15;
  const lreg = rec.in.lreg as number[][];
  const enabled = (l: number) => !rec.in.cc_en || ((Number(rec.in.cc) >>> l) & 1) === 1;
  const value = (r: number, l: number) => (r < 8 ? lreg[r]![l]! >>> 0 : r === 8 ? 0x3f56594b : undefined);
  // sign-magnitude order as a number: negative values reversed below the positive ones
  const key = (x: number) => (x >= 0x80000000 ? -(x - 0x80000000) - 1 : x);
  for (let l = 0; l < 32; l++) {
    const d = value(vd, l);
    const c = value(vc, l);
    assert.ok(d !== undefined && c !== undefined, `${rec.id}: operand register outside the check`);
    const [max, min] = key(d) >= key(c) ? [d, c] : [c, d];
    if (vd < 8) assert.equal(getL(st, vd)[l], enabled(l) ? max : d, `${rec.id} VD lane ${l}`);
    if (vc < 8) assert.equal(getL(st, vc)[l], enabled(l) ? min : c, `${rec.id} VC lane ${l}`);
  }
}

/** The index of the word ttsim refused. */
const stepOf = (rec: Reject & { error: { step?: number } }) => rec.error.step;

/** ttsim's reason is SFP_STOCH_RND with instr_mod1 bit 3 on a float flavour (BH rnd_mode 3 stays undefined). */
function stochFloatWithImm8(rec: Reject & { error: { step?: number } }): boolean {
  const word = Number(rec.words[rec.error.step ?? 0]) >>> 0;
  if (rec.error.category !== 'UndefinedBehavior' || word >>> 24 !== 0x8e) return false;
  if (rec.arch === 'bh' && ((word >>> 21) & 3) === 3) return false;
  const mod1 = word & 15;
  return mod1 >= 8 && (mod1 & 7) !== 4 && (mod1 & 7) !== 5;
}

test('sfpu-rejects.jsonl.gz: documented results, UndefinedBehaviour where undefined, only AxsimError', async (t) => {
  const f = requireConformanceFile('sfpu-rejects.jsonl.gz');
  if (!f.path) return t.skip(f.skip);
  const machines = new Map<string, TensixState>();
  const byCategory = new Map<string, Map<string, number>>();
  const checked = new Set<string>();
  let n = 0;
  let swapChecked = 0;
  for await (const { value } of readJsonl(f.path)) {
    const rec = value as Reject;
    const arch = parseArch(rec.arch);
    let st = machines.get(arch);
    if (!st) machines.set(arch, (st = new TensixState(arch)));
    loadCaseState(st, rec.in);
    // anything but an AxsimError propagates out of runRejectRecord and fails the test
    const raised = runRejectRecord(st, rec);
    assert.notEqual(raised?.category, 'Internal', `${rec.id}: ${raised?.message}`);
    const outcome = raised ? raised.category : 'ran';
    // ttsim refuses SFP_STOCH_RND instr_mod1 8-11/14/15 as UndefinedBehavior; the documents define
    // them (the float flavours with UseImm5 set, which they do not read), so they run.
    const stochImm8 = stochFloatWithImm8(rec);
    const cat = stochImm8 ? 'UndefinedBehavior (SFP_STOCH_RND mod1 bit 3)' : rec.error.category;
    const m = byCategory.get(cat) ?? new Map<string, number>();
    byCategory.set(cat, m);
    m.set(outcome, (m.get(outcome) ?? 0) + 1);
    // (in a longer record it runs too: whatever axsim raises comes from a later word)
    if (stochImm8)
      assert.ok((raised?.location?.index ?? Number.POSITIVE_INFINITY) > (stepOf(rec) ?? 0), rec.id);
    // ttsim's other UndefinedBehavior records are the flag-stack overflow/underflow (undefined in
    // the docs), reserved SFPLOADI/SFPSHFT2 modes and set bits outside the fields.
    else if (rec.error.category === 'UndefinedBehavior') assert.equal(outcome, 'UndefinedBehaviour', rec.id);
    // Reserved Mod1 bits (SFPU-FORMAT.md mode matrix): the docs give them no meaning.
    if (rec.error.category === 'NonContractualBehavior' && rec.error.message.startsWith('reserved bit set')) {
      assert.equal(outcome, 'NonContractual', rec.id);
    }
    if (swapHighMod1(rec)) {
      checkSwapHighMod1(st, rec, raised);
      swapChecked++;
    }
    const expect = DOC_EXPECTED[rec.id];
    if (expect) {
      expect(st, rec, raised);
      checked.add(rec.id);
    }
    n++;
  }
  assert.ok(n > 500, `only ${n} reject records`);
  assert.ok(swapChecked >= 6, `only ${swapChecked} SFPSWAP Mod1 10-15 records`);
  assert.deepEqual([...checked].sort(), Object.keys(DOC_EXPECTED).sort(), 'hand-checked records missing');
  // every ttsim category of the file occurs and the undefined ones were all raised
  for (const c of [
    'UndefinedBehavior',
    'NonContractualBehavior',
    'UnimplementedFunctionality',
    'UnsupportedFunctionality',
  ]) {
    assert.ok(byCategory.has(c), `no ${c} records`);
  }
  assert.deepEqual([...byCategory.get('UndefinedBehavior')!.keys()], ['UndefinedBehaviour']);
  // the runner reports rejects honestly: never passed, each skipped with what axsim did
  const rep = await runConformance([f.path], makeSfpuRunner(), { keepPassing: 0 });
  assert.equal(rep.passed, 0);
  assert.equal(rep.failed, 0);
  assert.equal(rep.skipped, n);
});

test('the SFPU runner reports a reject record as skipped, with the reason', () => {
  const run = makeSfpuRunner();
  const lreg = Array.from({ length: 8 }, () => new Array<number>(32).fill(0));
  const input = { lreg, prgm_consts: [0, 0, 0, 0], cc_en: false, cc: 0, flag_stack: [], lane_config: 0 };
  const ran = run({
    arch: 'wh',
    words: ['0x8f000000'],
    in: input,
    error: { category: 'UnsupportedFunctionality' },
  });
  assert.equal(ran.pass, false);
  assert.equal(ran.skip, 'ran; no reference output (ttsim: UnsupportedFunctionality)');
  // SFPPOPC on an empty flag stack: undefined (flag stack underflow)
  const raised = run({
    arch: 'wh',
    words: ['0x88000000'],
    in: input,
    error: { category: 'UndefinedBehavior' },
  });
  assert.equal(raised.skip, 'raised UndefinedBehaviour (ttsim: UndefinedBehavior)');
});

test('reject records run their words in order: an earlier run-time error beats a later word that cannot compile', () => {
  const st = new TensixState('wormhole');
  const lreg = Array.from({ length: 8 }, (_, r) => Array.from({ length: 32 }, (_, l) => (r << 8) | l));
  const input = {
    lreg,
    prgm_consts: [0, 0, 0, 0],
    cc_en: true,
    cc: 0xffffffff,
    flag_stack: [],
    lane_config: 0,
  };
  // SFPPOPC on an empty stack, then SFPEXMAN with reserved instr_mod1 bits (12).
  // expected: ttsim v1.10.0 tensix_sfppopc, step 0 UndefinedBehavior "CC stack underflow".
  let rec = { arch: 'wh', words: ['0x88000000', '0x7800021c'], in: input };
  loadCaseState(st, input);
  let raised = runRejectRecord(st, rec);
  assert.equal(raised?.category, 'UndefinedBehaviour');
  assert.equal(raised?.location?.index, 0);
  // SFPIADD L3 += 1 (instr_mod1=5: immediate, no flags), then the same SFPEXMAN.
  // expected: ttsim v1.10.0 tensix_sfpexman, step 1 NonContractualBehavior "reserved bit set";
  // the SFPIADD before it ran (hand-derived: L3[l] = 0x300 + l + 1).
  rec = { arch: 'wh', words: ['0x79001335', '0x7800021c'], in: input };
  loadCaseState(st, input);
  raised = runRejectRecord(st, rec);
  assert.equal(raised?.category, 'NonContractual');
  assert.equal(raised?.location?.index, 1);
  assert.deepEqual(
    getL(st, 3),
    lreg[3]!.map((v) => v + 1),
  );
  // The same SFPEXMAN inside a REPLAY load of 3 (executed while loading): the words before it do not
  // compile on their own (the load is cut short), so its own error is reported.
  // expected: ttsim v1.10.0 tensix_sfpexman, step 2 NonContractualBehavior "reserved bit set".
  rec = { arch: 'wh', words: ['0x04000033', '0x79001335', '0x7800021c', '0x8f000000'], in: input };
  loadCaseState(st, input);
  raised = runRejectRecord(st, rec);
  assert.equal(raised?.category, 'NonContractual');
  assert.equal(raised?.location?.index, 2);
});
