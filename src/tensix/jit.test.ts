/**
 * The compiled path (jit.ts) against the reference interpreter (exec.ts runInterpreted): the same
 * final state, bit for bit, and the same error (category, message, location) on every SFPU
 * conformance vector and on 10^5 random programs from random states.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatReport, readJsonl, runConformance } from '../conformance/index.ts';
import { requireConformanceFile } from '../conformance/shared.ts';
import { AxsimError } from '../errors.ts';
import { caseArch, caseWords, loadCaseState, makeSfpuRunner } from './conformance.ts';
import { type Arch, encode, instructionSet } from './encoding.ts';
import { JIT_MAX_RECORDS, JIT_MIN_RUNS_PER_RECORD, JIT_THRESHOLD, type RunMode, run } from './exec.ts';
import { isCompiled, programSource } from './jit.ts';
import { compile, compileWord, type Program } from './program.ts';
import { LANES, LC_BITS, LC_SPLIT, TensixState } from './state.ts';

function sameBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
}

/** Every architectural field of the two states, compared (first difference named). */
function assertSameState(a: TensixState, b: TensixState, what: string): void {
  const arrays: [string, ArrayBufferView, ArrayBufferView][] = [
    ['lreg', a.lreg.subarray(0, 17 * LANES), b.lreg.subarray(0, 17 * LANES)],
    ['dst', a.dst, b.dst],
    ['stackFlags', a.stackFlags, b.stackFlags],
    ['stackEn', a.stackEn, b.stackEn],
    ['laneCfgLanes', a.laneCfgLanes, b.laneCfgLanes],
    ['lmTemplates', a.lmTemplates, b.lmTemplates],
    ['lmSequence', a.lmSequence, b.lmSequence],
    ['lmLanes', a.lmLanes, b.lmLanes],
    ['shflVc0', a.shflVc0, b.shflVc0],
    ['prng', a.prng, b.prng],
    ['threadCfg', a.threadCfg, b.threadCfg],
    ['cfg', a.cfg, b.cfg],
  ];
  for (const [name, x, y] of arrays) assert.ok(sameBytes(x, y), `${what}: ${name} differs`);
  const scalars = [
    'laneFlags',
    'useLaneFlags',
    'stackSize',
    'laneConfig',
    'lmMisc',
    'lmSplit',
    'rwcDst',
    'rwcDstCr',
    'rwcSrcA',
    'rwcSrcACr',
    'rwcSrcB',
    'rwcSrcBCr',
    'fidelityPhase',
    'extraAddrModBit',
    'rwcSp',
    'dst16bHigh',
    'groupMask',
    'groupLanes',
  ] as const;
  for (const k of scalars) assert.equal(a[k], b[k], `${what}: ${k} differs`);
}

function runCaught(st: TensixState, prog: Program, reps: number, mode: RunMode): AxsimError | undefined {
  try {
    run(st, prog, reps, { mode });
  } catch (e) {
    if (!(e instanceof AxsimError)) throw e;
    return e;
  }
  return undefined;
}

function assertSameError(x: AxsimError | undefined, y: AxsimError | undefined, what: string): void {
  assert.equal(y?.category, x?.category, `${what}: error category`);
  assert.equal(y?.message, x?.message, `${what}: error message`);
  assert.deepEqual(y?.location, x?.location, `${what}: error location`);
}

describe('compiled SFPU programs on the conformance vectors', () => {
  for (const name of ['sfpu-wh.jsonl.gz', 'sfpu-bh.jsonl.gz', 'sfpu-rejects.jsonl.gz']) {
    it(`${name}: compiled == interpreted (state and error) on every record`, async (t) => {
      const f = requireConformanceFile(name);
      if (!f.path) return t.skip(f.skip);
      const st: Partial<Record<Arch, [TensixState, TensixState]>> = {};
      let n = 0;
      for await (const rec of readJsonl(f.path)) {
        const r = rec.value as Record<string, unknown>;
        const arch = caseArch(r);
        const [a, b] = (st[arch] ??= [new TensixState(arch), new TensixState(arch)]);
        let prog: Program;
        try {
          prog = compile(caseWords(r), arch);
        } catch (e) {
          if (e instanceof AxsimError) continue; // refused before running: no path runs anything
          throw e;
        }
        loadCaseState(a, r.in as Record<string, unknown>);
        loadCaseState(b, r.in as Record<string, unknown>);
        const ea = runCaught(a, prog, 1, 'interpreted');
        const eb = runCaught(b, prog, 1, 'compiled');
        const what = `${String(r.id)}`;
        assertSameError(ea, eb, what);
        assertSameState(a, b, what);
        n++;
      }
      assert.ok(n > (name.includes('rejects') ? 100 : 5000), `only ${n} records ran`);
    });
  }
  for (const name of ['sfpu-wh.jsonl.gz', 'sfpu-bh.jsonl.gz']) {
    it(`${name}: every vector passes bit-exactly on the compiled path`, async (t) => {
      const f = requireConformanceFile(name);
      if (!f.path) return t.skip(f.skip);
      const rep = await runConformance([f.path], makeSfpuRunner({ mode: 'compiled' }), { keepPassing: 0 });
      assert.equal(rep.failed, 0, formatReport(rep, 5));
      assert.ok(rep.passed > 5000, `only ${rep.passed} cases ran`);
    });
  }
});

/** xorshift32 for the state fill (fast-check draws only the seed). */
function rng(seed: number): () => number {
  let s = seed | 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
}

/** Operand values that exercise the special cases (zeros, denormals, Inf, NaN, sign bits, boundaries). */
const SPECIAL = [
  0, 0x80000000, 1, 0x7fffff, 0x800000, 0x80800000, 0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff,
  0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0xffffffff, 0x7fffffff, 0x00ffffff, 0x3f7fffff,
  0x33800000, 0x4b800000, 0xcb000001, 31, 32, 0xffffffe0, 0x1f,
];

const DST_FILL: Uint16Array[] = [];
{
  const r = rng(12345);
  for (let k = 0; k < 3; k++) DST_FILL.push(Uint16Array.from({ length: 1024 * 16 }, () => r() & 0xffff));
  DST_FILL.push(new Uint16Array(1024 * 16));
}

/** A random but reproducible machine state from one seed. */
function setUp(st: TensixState, seed: number, policyWrap: boolean): void {
  st.reset();
  const r = rng(seed);
  for (let i = 0; i < 8 * LANES; i++) {
    const v = r();
    st.lreg[i] =
      v % 3 === 0 ? SPECIAL[v % SPECIAL.length]! : (v & 7) === 1 ? (v & 0x807fffff) | 0x3f800000 : v;
  }
  st.dst.set(DST_FILL[seed & 3]!);
  const v = r();
  st.useLaneFlags = v & 1;
  st.laneFlags = (v & 6) === 0 ? -1 : (v & 6) === 2 ? 0 : r() | 0;
  st.stackSize = (v >>> 3) % 10;
  for (let k = 0; k < 8; k++) {
    st.stackFlags[k] = r();
    st.stackEn[k] = r() & 1;
  }
  st.flagStackPolicy = policyWrap ? 'wrap' : 'error';
  const lc = r();
  if ((v >>> 8) % 8 === 0) st.laneConfig = lc & LC_BITS;
  else if ((v >>> 8) % 8 === 1) {
    // lanes disagreeing on LaneConfig (as SFPCONFIG with differing LReg[0] lanes leaves them)
    for (let l = 0; l < LANES; l++) st.laneCfgLanes[l] = l & 1 ? lc & 0x1ff : (lc >>> 9) & 0x1ff;
    st.laneConfig = (st.laneCfgLanes[0]! & LC_BITS) | LC_SPLIT;
  }
  st.sfpuFp32 = (v >>> 12) & 1;
  st.srcBFormat = (v >>> 13) & 15;
  st.setAddrMod(0, (v >>> 17) & 3, 0, 0, 0);
  st.setAddrMod(1, 1, 0, (v >>> 19) & 1, 0);
  st.rwcDst = (v >>> 20) & 63;
}

/** The instructions the compiler specialises (drawn more often), and any other. */
const HOT = [
  'SFPIADD',
  'SFPXOR',
  'SFPAND',
  'SFPOR',
  'SFPNOT',
  'SFPSHFT',
  'SFPSETCC',
  'SFPPUSHC',
  'SFPPOPC',
  'SFPCOMPC',
  'SFPENCC',
  'SFPMAD',
  'SFPMULI',
  'SFPADDI',
  'SFPLOAD',
  'SFPSTORE',
  'SFPCONFIG',
  'SFPLOADI',
];

function wordArb(arch: Arch): fc.Arbitrary<number> {
  const defs = instructionSet(arch).filter((d) => d.name !== 'REPLAY');
  const hot = defs.filter((d) => HOT.includes(d.name));
  const scratch = new Int32Array(8);
  return fc
    .tuple(fc.boolean(), fc.nat(), fc.array(fc.nat({ max: 0xffff }), { minLength: 8, maxLength: 8 }))
    .map(([isHot, pick, vals]) => {
      const list = isHot ? hot : defs;
      const d = list[pick % list.length]!;
      const fields: Record<string, number> = {};
      d.fields.forEach((f, j) => {
        let x = vals[j]!;
        // small register numbers and modes most of the time, so that the cases that matter recur
        if (f.name.startsWith('lreg') && x & 0x100) x &= 7;
        if (f.name === 'instr_mod1' && x & 0x200) x &= 0xf & (x >>> 4);
        fields[f.name] = x & f.valueMask;
      });
      const w = encode(d.name, fields, arch);
      try {
        compileWord(w, arch, scratch, 0);
        return w;
      } catch (e) {
        if (e instanceof AxsimError) return encode('SFPNOP', {}, arch);
        throw e;
      }
    });
}

describe('compiled SFPU programs on random programs (fast-check)', () => {
  // 2 x 50,000 programs of 1..10 words: 10^5 in all
  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(`${arch}: compiled == interpreted on 50,000 random programs and states`, () => {
      const a = new TensixState(arch);
      const b = new TensixState(arch);
      fc.assert(
        fc.property(
          fc.array(wordArb(arch), { minLength: 1, maxLength: 10 }),
          fc.integer(),
          fc.integer({ min: 1, max: 3 }),
          fc.boolean(),
          (words, seed, reps, wrap) => {
            const prog = compile(words, arch);
            setUp(a, seed, wrap);
            setUp(b, seed, wrap);
            const ea = runCaught(a, prog, reps, 'interpreted');
            const eb = runCaught(b, prog, reps, 'compiled');
            assertSameError(ea, eb, 'random program');
            assertSameState(a, b, 'random program');
          },
        ),
        { numRuns: 50_000, seed: arch === 'wormhole' ? 17 : 71 },
      );
    });
  }
});

describe('the compiled form', () => {
  it('is generated from integers only: no names or text of the program appear in it', () => {
    const src = programSource(
      compile([encode('SFPIADD', { lreg_dest: 1, lreg_c: 2, imm12_math: 5, instr_mod1: 5 })], 'wormhole'),
    );
    // the only identifiers are the template's; every literal is a number
    assert.doesNotMatch(src, /["`]/);
    assert.match(src, /L\[32\] = \(?L\[64\]/);
  });

  it('long programs are split into several functions, and run the same', () => {
    const words: number[] = [];
    for (let k = 0; k < 300; k++) {
      words.push(encode('SFPIADD', { lreg_dest: k % 4, lreg_c: (k + 1) % 4, imm12_math: k, instr_mod1: 5 }));
      words.push(encode('SFPXOR', { lreg_dest: (k + 2) % 4, lreg_c: k % 4 }));
    }
    const prog = compile(words, 'wormhole');
    assert.ok((programSource(prog).match(/^function c\d+/gm) ?? []).length > 1);
    const a = new TensixState('wormhole');
    const b = new TensixState('wormhole');
    setUp(a, 5, true);
    setUp(b, 5, true);
    run(a, prog, 2, { mode: 'interpreted' });
    run(b, prog, 2, { mode: 'compiled' });
    assertSameState(a, b, 'long program');
  });

  it("'auto' interprets below the threshold and compiles from it on, with the same result", () => {
    const words = [encode('SFPIADD', { lreg_dest: 1, lreg_c: 1, imm12_math: 3, instr_mod1: 5 })];
    const prog = compile(words, 'wormhole');
    const a = new TensixState('wormhole');
    const b = new TensixState('wormhole');
    run(a, prog, JIT_THRESHOLD * 2, { mode: 'interpreted' });
    run(b, prog, JIT_THRESHOLD - 1);
    assert.ok(!isCompiled(prog), 'below the threshold');
    run(b, prog, JIT_THRESHOLD + 1);
    assert.ok(isCompiled(prog), 'from the threshold on');
    assertSameState(a, b, 'auto');
    // LReg[1] = 3 * 2 * JIT_THRESHOLD in every lane (it started at 0)
    assert.equal(b.lreg[LANES]!, 6 * JIT_THRESHOLD);
  });

  it("'auto' compiles a long program only once its records have run twice on average, and never one longer than JIT_MAX_RECORDS", () => {
    // a straight-line program run once costs more to generate and compile than to interpret (fuzz:
    // 524 224 words run once took 69 s and 3.5 GB compiled): the policy, observed through isCompiled
    const word = encode('SFPIADD', { lreg_dest: 1, lreg_c: 1, imm12_math: 1, instr_mod1: 5 });
    const long = compile(new Array(JIT_THRESHOLD * 2).fill(word), 'wormhole');
    const s = new TensixState('wormhole');
    run(s, long, 1);
    assert.ok(!isCompiled(long), 'run once: interpreted');
    for (let i = 1; i < JIT_MIN_RUNS_PER_RECORD; i++) run(s, long, 1);
    assert.ok(isCompiled(long), `compiled once each record has run ${JIT_MIN_RUNS_PER_RECORD} times`);
    const huge = compile(new Array(JIT_MAX_RECORDS + 1).fill(word), 'wormhole');
    const h = new TensixState('wormhole');
    run(h, huge, 3);
    assert.ok(!isCompiled(huge), 'longer than JIT_MAX_RECORDS: interpreted whatever the repetitions');
    // each run adds 1 per record in every lane: 2 * JIT_THRESHOLD * JIT_MIN_RUNS_PER_RECORD, and 3 * (JIT_MAX_RECORDS + 1)
    assert.equal(s.lreg[LANES]!, 2 * JIT_THRESHOLD * JIT_MIN_RUNS_PER_RECORD);
    assert.equal(h.lreg[LANES]!, 3 * (JIT_MAX_RECORDS + 1));
    // 'compiled' still compiles on request
    run(new TensixState('wormhole'), huge, 1, { mode: 'compiled' });
    assert.ok(isCompiled(huge));
  });

  it('a run-time error names the same instruction and index on both paths', () => {
    const words = [
      encode('SFPNOP', {}),
      encode('SFPIADD', { lreg_dest: 1, lreg_c: 1, imm12_math: 3, instr_mod1: 5 }),
      encode('SFPPOPC', {}),
    ];
    const prog = compile(words, 'wormhole');
    const a = new TensixState('wormhole');
    const b = new TensixState('wormhole');
    const ea = runCaught(a, prog, 1, 'interpreted');
    const eb = runCaught(b, prog, 1, 'compiled');
    assert.equal(ea?.location?.index, 2);
    assert.match(ea?.message ?? '', /^SFPPOPC/);
    assertSameError(ea, eb, 'popc');
    assertSameState(a, b, 'popc');
  });
});
