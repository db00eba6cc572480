/**
 * The fuzzed front ends. Each is one entry of FRONTS: where its seeds come from, how an input is
 * generated from them, and how the front end runs an input under a budget. A new front end (the
 * C front end, AMX C, …) plugs in by adding one entry here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { Budget } from '../../src/budget.ts';
import type { IncludeCache } from '../../src/cfront/include-cache.ts';
import type { ParseMemo } from '../../src/cfront/parse-memo.ts';
import { sharedConformanceFile } from '../../src/conformance/shared.ts';
import { badInput } from '../../src/errors.ts';
import { ACCEPT, AFFINE_PROGRAM, REJECT, WHILE_PROGRAM } from '../../src/pto/asm/fixtures.ts';
import {
  dictionaryOf,
  int,
  mutateBytes,
  mutateJson,
  mutateText,
  mutateTokens,
  pick,
  type Rng,
  randomBytes,
  seedTokens,
} from './mutate.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Front {
  name: string;
  description: string;
  /** Builds one input from the RNG (seeds are loaded once per process). */
  generate(r: Rng): Uint8Array;
  /** Runs the front end (and what it feeds) on one input. Returns normally or throws. */
  run(input: Uint8Array, budget: Budget): void | Promise<void>;
  /**
   * Every input pays a large fixed cost (the LLK environment: ~30 KB of C++ headers through cfront,
   * 65-100 ms): `npm run fuzz -- --heavy-n N` runs N inputs of these instead of --n (CI).
   */
  heavy?: boolean;
}

/** The budget every fuzz input runs under: small enough that no input runs for long. */
export function fuzzBudget(): Budget {
  return new Budget({
    elementOps: 20_000_000,
    liveBytes: 256 << 20,
    steps: 2_000_000,
    loops: 1_000_000,
    wallMs: 20_000,
  });
}

/**
 * The front ends' modules, imported once per process: a dynamic `import()` per input goes through
 * the TypeScript loader's resolve hook on another thread every time (a sixth of the run time).
 */
function once<T>(f: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
}
const tensixMod = once(() => import('../../src/tensix/index.ts'));
const tensixAsmMod = once(() => import('../../src/tensix/asm/index.ts'));
const llkMod = once(() => import('../../src/tensix/llk/run.ts'));
const amxMod = once(() => import('../../src/amx/index.ts'));
const amxCMod = once(() => import('../../src/amx/c/run.ts'));
const ptoAsmMod = once(() => import('../../src/pto/asm/index.ts'));
const ioMod = once(() => import('../../src/io/index.ts'));
const ptoMod = once(() => import('../../src/pto/index.ts'));
const ptoCostMod = once(() => import('../../src/pto/cost/index.ts'));

const enc = new TextEncoder();
const dec = new TextDecoder();

function filesIn(dir: string, re: RegExp): string[] {
  try {
    return readdirSync(join(ROOT, dir))
      .filter((f) => re.test(f))
      .sort()
      .map((f) => join(ROOT, dir, f));
  } catch {
    return [];
  }
}

function lazy<T>(f: () => T): () => T {
  let v: T | undefined;
  return () => (v ??= f());
}

/** FNV-1a of the input, 0..255 after folding: the variant (arch, options, entry) an input runs with. */
export function variantOf(input: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < input.length; i++) h = Math.imul(h ^ input[i]!, 0x01000193);
  return (h ^ (h >>> 8) ^ (h >>> 16) ^ (h >>> 24)) & 255;
}

/** A text front end: grammar-aware mutation of its seeds, 1 input in 10 random bytes. */
function textFront(
  name: string,
  description: string,
  seeds: () => string[],
  nesting: [string, string][],
  run: (text: string, budget: Budget, r: number) => void | Promise<void>,
): Front {
  const dict = lazy(() => dictionaryOf(seeds()));
  return {
    name,
    description,
    generate(r) {
      if (r() < 0.1) return randomBytes(r);
      const toks = seedTokens(pick(r, seeds()));
      // 3 in 10 inputs are one edit away from a seed, so the later stages (verifier, compiler,
      // engine) see inputs that survive the parser; the rest get 1-3 rounds of up to 8 edits
      const light = r() < 0.3;
      const rounds = light ? 1 : 1 + int(r, 3);
      for (let k = 0; k < rounds; k++) mutateTokens(r, toks, dict(), nesting, light ? 1 : 8);
      return enc.encode(toks.join(''));
    },
    run(input, budget) {
      // a hash of the bytes picks a variant (architecture, options, entry) so an input reproduces exactly
      return run(dec.decode(input), budget, variantOf(input));
    },
  };
}

function bytesFront(
  name: string,
  description: string,
  seeds: () => Uint8Array[],
  run: (bytes: Uint8Array, budget: Budget) => void | Promise<void>,
): Front {
  return {
    name,
    description,
    generate(r) {
      if (r() < 0.1) return randomBytes(r, 4096);
      let b = pick(r, seeds());
      const rounds = 1 + int(r, 3);
      for (let k = 0; k < rounds; k++) b = mutateBytes(r, b);
      return b;
    },
    run,
  };
}

// ---- Tensix ------------------------------------------------------------------------------

const tensixSeeds = lazy(() => filesIn('examples/tensix', /\.sfpu$/).map((f) => readFileSync(f, 'utf8')));

async function runTensixWords(
  words: number[],
  arch: 'wormhole' | 'blackhole',
  budget: Budget,
): Promise<void> {
  const { TensixMachine, compile } = await tensixMod();
  const { describeWord } = await tensixAsmMod();
  for (const w of words.slice(0, 4096)) describeWord(w, arch);
  const m = new TensixMachine(arch);
  // compile charges REPLAY expansion (loops), the records (live bytes) and the length (steps)
  m.run(compile(words, arch, { replayBuffer: m.replayBuffer, budget }));
}

const tensixAsm = textFront(
  'tensix-asm',
  'Tensix SFPU assembly text (tensix asm), then compile and run the words',
  tensixSeeds,
  [
    ['{', '}'],
    ['(', ')'],
    ['(1 ? ', ' : 0)'],
    ['if (1) {', '}'],
    ['for (int i = 0; i < 2; i++) {', '}'],
    ['namespace a {', '}'],
  ],
  async (text, budget, v) => {
    const { assemble } = await tensixAsmMod();
    const arch = v & 1 ? 'blackhole' : 'wormhole';
    const r = assemble(text, arch, { file: 'fuzz.sfpu', budget } as Parameters<typeof assemble>[2]);
    await runTensixWords([...r.words], arch, budget);
  },
);

const tensixWordsSeeds = lazy(() => {
  const out: Uint8Array[] = [];
  return out;
});

const tensixWords: Front = bytesFront(
  'tensix-words',
  'Tensix instruction words (tensix disasm / run on binary input): decode, disassemble, compile, run',
  () => {
    const s = tensixWordsSeeds();
    if (s.length === 0) s.push(...wordsSeeds());
    return s;
  },
  async (bytes, budget) => {
    const words: number[] = [];
    for (let k = 0; k + 4 <= bytes.length; k += 4)
      words.push((bytes[k]! | (bytes[k + 1]! << 8) | (bytes[k + 2]! << 16) | (bytes[k + 3]! << 24)) >>> 0);
    await runTensixWords(words, bytes.length & 1 ? 'blackhole' : 'wormhole', budget);
  },
);

function wordsSeeds(): Uint8Array[] {
  // seeds: the words of the bundled examples, assembled once (synchronously imported module cache)
  const out: Uint8Array[] = [];
  for (const text of tensixSeeds()) {
    try {
      const words = assembleSync(text);
      const b = new Uint8Array(words.length * 4);
      const dv = new DataView(b.buffer);
      for (let k = 0; k < words.length; k++) dv.setUint32(k * 4, words[k]!, true);
      out.push(b);
    } catch {
      // an example the other architecture needs: skip
    }
  }
  // REPLAY load + replay (opcode 0x04), a NOP, and a store
  out.push(Uint8Array.from([0x00, 0x00, 0x00, 0x8f, 0x01, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x8f]));
  return out;
}

let assembleSync: (text: string) => number[] = () => [];
export async function prepare(): Promise<void> {
  const { assemble } = await tensixAsmMod();
  assembleSync = (text) => [...assemble(text, 'wormhole').words];
}

// ---- Tensix C++ kernels (LLK environment) and SFPI ------------------------------------------

const CPP_NESTING: [string, string][] = [
  ['{', '}'],
  ['(', ')'],
  ['(1 ? ', ' : 0)'],
  ['if (1) {', '}'],
  ['for (int i = 0; i < 2; i++) {', '}'],
  ['namespace a {', '}'],
  ['template <int N> struct S {', '};'],
];

/**
 * The kernel functions a (mutated) C++ text defines, as entries the CLI accepts: `ns::name<targs>`
 * with `false` for a bool template parameter and 8 for any other (ITERATIONS), qualified by the
 * namespaces opened before it (`namespace ckernel { namespace sfpu {` gives `ckernel::sfpu::`).
 */
export function kernelEntries(text: string): string[] {
  const opens: { at: number; name: string }[] = [];
  const nsRe = /namespace\s+([A-Za-z_]\w*)\s*\{/g;
  for (let m = nsRe.exec(text); m && opens.length < 16; m = nsRe.exec(text))
    opens.push({ at: m.index, name: m[1]! });
  const out: string[] = [];
  const re = /(template\s*<([^<>]{0,200})>\s*)?inline\s+void\s+([A-Za-z_]\w*)\s*\(/g;
  for (let m = re.exec(text); m && out.length < 64; m = re.exec(text)) {
    const at = m.index;
    const targs = m[2]
      ?.split(',')
      .map((p) => (/\bbool\b/.test(p) ? 'false' : '8'))
      .join(', ');
    const ns = opens
      .filter((o) => o.at < at)
      .map((o) => `${o.name}::`)
      .join('');
    out.push(`${ns}${m[3]}${targs ? `<${targs}>` : ''}`);
  }
  return out;
}

/**
 * `tensix run kernel.h --entry E` (the LLK environment, src/tensix/llk) on a (mutated) kernel: the
 * variant `v` picks the entry, the arch, --bare, and whether the run is timed (the cycle model).
 * Returns the compiled words (for the include-cache check in include-cache.test.ts); `includeCache`
 * and `parseMemo` as in LlkRunOptions (default: the process's cache and memo, as the CLI uses them).
 */
export async function runLlkInput(
  text: string,
  budget: Budget,
  v: number,
  includeCache?: IncludeCache | false,
  parseMemo?: ParseMemo | false,
): Promise<Uint32Array> {
  const { TensixMachine } = await tensixMod();
  const { compileLlk, loadKernelCompiler, runCompiled, applyHwConfigure } = await llkMod();
  const entries = kernelEntries(text);
  const entry = entries.length ? entries[(v >> 3) % entries.length]! : 'kernel';
  const arch = v & 1 ? 'blackhole' : 'wormhole';
  const bare = (v & 2) !== 0;
  const m = new TensixMachine(arch);
  m.budget = budget;
  const { compiled } = compileLlk(await loadKernelCompiler(), m, {
    source: text,
    file: 'fuzz.h',
    entry,
    bare,
    budget,
    ...(includeCache === undefined ? {} : { includeCache }),
    ...(parseMemo === undefined ? {} : { parseMemo }),
  });
  if (!bare) applyHwConfigure(m, {});
  runCompiled(m, compiled, { timed: (v & 4) !== 0 });
  return compiled.words;
}

function llkFront(name: string, description: string, dir: string): Front {
  const f = textFront(
    name,
    description,
    () => filesIn(dir, /\.h$/).map((f) => readFileSync(f, 'utf8')),
    CPP_NESTING,
    async (text, budget, v) => {
      await runLlkInput(text, budget, v);
    },
  );
  return { ...f, heavy: true };
}

const tensixLlk = llkFront(
  'tensix-llk',
  'Tensix C++ kernel files (tensix run kernel.h --entry …, the LLK environment): compile through cfront, run',
  'test/fixtures/llk',
);

const sfpi = llkFront(
  'sfpi',
  'SFPI kernels (vFloat, dst_reg, v_if; tensix run kernel.h --entry …): compile (src/tensix/sfpi), run',
  'test/fixtures/sfpi',
);

// ---- AMX -----------------------------------------------------------------------------------

const amxText = textFront(
  'amx-text',
  'Apple AMX program text (amx run): assemble, then run on a fresh state',
  () => [
    ...filesIn('examples/amx', /\.amx$/).map((f) => readFileSync(f, 'utf8')),
    'set\n.data 0x1000 f32 1, 2, 3\n.space 0x2000 64\nldx address=0x1000\nAMX_LDY(0x1000)\nfma32 mode=vector z_row=1\nstz z_row=1 address=0x2000\nclr\n',
  ],
  [['AMX_LDX(', ')']],
  async (text, budget) => {
    const { assemble, AmxState, runProgram } = await amxMod();
    // the assembler charges .rept iterations, operations and .data/.space bytes to the budget
    const p = assemble(text, 'fuzz.amx', { budget });
    const s = new AmxState();
    runProgram(p, s);
  },
);

/**
 * `amx run kernel.c --entry 'f(…)' --arg …`: the entry is a function the (mutated) text defines; its
 * pointer parameters are bound to 64 KiB zero arrays, its integer parameters to 32 (or, by the
 * variant byte, 0, 1 or 64).
 */
const amxC = textFront(
  'amx-c',
  'AMX C kernels (amx run kernel.c --entry … --arg …): compile through cfront, run on the AMX model',
  () => filesIn('examples/amx/c', /\.c$/).map((f) => readFileSync(f, 'utf8')),
  CPP_NESTING,
  async (text, budget, v) => {
    const { runAmxC, zeroArray } = await amxCMod();
    const fns: { name: string; params: string[] }[] = [];
    const re = /\bvoid\s+([A-Za-z_]\w*)\s*\(([^()]{0,400})\)\s*\{/g;
    for (let m = re.exec(text); m && fns.length < 64; m = re.exec(text))
      fns.push({ name: m[1]!, params: m[2]!.trim() === 'void' ? [] : m[2]!.split(',') });
    const f = fns.length ? fns[(v >> 3) % fns.length]! : { name: 'main', params: [] };
    const n = [32, 0, 1, 64][v & 3]!;
    const args: Record<string, ReturnType<typeof zeroArray>> = {};
    const actual = f.params.map((p, i) => {
      if (!p.includes('*')) return String(n);
      const a = `P${i}`;
      args[a] = zeroArray('u1', [65536]);
      return a;
    });
    budget.alloc(65536 * Object.keys(args).length);
    runAmxC(text, {
      entry: `${f.name}(${actual.join(', ')})`,
      gen: (['m1', 'm2', 'm3', 'm4'] as const)[(v >> 2) & 1 ? 3 : 0],
      file: 'fuzz.c',
      args,
      budget,
    });
  },
);

// ---- PTO-AS --------------------------------------------------------------------------------

const ptoAs = textFront(
  'pto-as',
  'PTO-AS text (pto check / pto run): parse, verify, run the first function on zero arguments',
  () => filesIn('examples/pto', /\.pto$/).map((f) => readFileSync(f, 'utf8')),
  [
    ['scf.if %t {', '}'],
    ['pto.section.vector {', '}'],
    ['<', '>'],
    ['(', ')'],
    ['[', ']'],
  ],
  (text, budget) => runPto(text, budget, {}),
);

/** Parse (with `popts`), verify (with `vopts`), run the first function on zero arguments. */
async function runPto(
  text: string,
  budget: Budget,
  popts: { strict?: boolean; legacy?: boolean; arch?: 'a3' | 'a5' },
  vopts: { profile?: 'cpu' | 'a2a3' | 'a5'; arch?: 'a3' | 'a5' } = {},
): Promise<void> {
  const { parsePtoAs, verifyModule, runProgram } = await ptoAsmMod();
  const m = parsePtoAs(text, { file: 'fuzz.pto', budget, ...popts });
  verifyModule(m, { file: 'fuzz.pto', ...vopts });
  const f = m.funcs[0];
  if (!f) return;
  const args: Record<string, import('../../src/io/index.ts').NpyArray | number> = {};
  for (const a of f.args) {
    if (a.type.kind === 'scalar') args[a.use.name] = 1;
    else if (a.type.kind === 'ptr' || a.type.kind === 'memref' || a.type.kind === 'vector')
      args[a.use.name] = { dtype: 'f4', shape: [4096], data: new Float32Array(4096) };
  }
  runProgram(m, args, { file: 'fuzz.pto', budget, maxSteps: 100_000 });
}

// The PTOAS spelling (`!pto.tile_buf<…>`, `pto.alloc_tile`, sections, events, the generic op form):
// the same parser with PTOAS's options. Seeds: the PTO-AS conformance fixtures (src/pto/asm/fixtures.ts,
// axsim's own programs around the statements PTO-AS.md quotes), accept and reject rows.
const ptoasSeeds = lazy(() =>
  [...ACCEPT, ...REJECT].map((f) => f.text).concat(WHILE_PROGRAM, AFFINE_PROGRAM),
);

const ptoas = textFront(
  'pto-ptoas',
  'PTOAS-syntax text (pto check --strict/--legacy, pto.target_arch): parse, verify with the arch rules and a profile, run',
  ptoasSeeds,
  [
    ['scf.for %i = %c0 to %c4 step %c1 {', '}'],
    ['pto.section.cube {', '}'],
    ['<', '>'],
    ['(', ')'],
    ['[', ']'],
  ],
  (text, budget, v) =>
    runPto(
      text,
      budget,
      {
        strict: (v & 3) === 1,
        legacy: (v & 3) === 2,
        ...((v & 12) === 4 ? { arch: 'a3' as const } : (v & 12) === 8 ? { arch: 'a5' as const } : {}),
      },
      {
        profile: (['cpu', 'a2a3', 'a5', undefined] as const)[(v >> 4) & 3],
        ...((v & 12) === 4 ? { arch: 'a3' as const } : (v & 12) === 8 ? { arch: 'a5' as const } : {}),
      },
    ),
);

// ---- .npy and JSON tensors ----------------------------------------------------------------

const npySeeds = lazy(() =>
  [
    ...filesIn('examples/pto', /\.npy$/),
    ...filesIn('examples/tensix', /\.npy$/),
    ...filesIn('examples/numeric', /\.npy$/),
  ].map((f) => new Uint8Array(readFileSync(f))),
);

const npy = bytesFront(
  'npy',
  '.npy arrays (every --arg/--dst/--mem/convert input)',
  npySeeds,
  async (bytes, budget) => {
    const { parseNpy } = await ioMod();
    budget.alloc(bytes.length);
    parseNpy(bytes, 'fuzz.npy');
  },
);

const jsonSeeds = lazy(() => [
  '[[1, 2.5, -0], [1e-45, 3.4028234663852886e38, -1]]',
  '{"shape": [2, 2], "data": [1, 2, 3, 4]}',
  '[1, 2, 3]',
  '[[[1]], [[2]]]',
  '["nan", "inf", "-inf", "0x7fa00000"]',
  '[]',
]);

const jsonTensor: Front = {
  name: 'json-tensor',
  description: 'JSON tensors (numeric convert input)',
  generate(r) {
    const s = pick(r, jsonSeeds());
    if (r() < 0.5) {
      try {
        return enc.encode(JSON.stringify(mutateJson(r, JSON.parse(s))));
      } catch {
        // fall through to text mutation
      }
    }
    let t = s;
    for (let k = 0; k < 1 + int(r, 3); k++)
      t = mutateText(r, t, dictionaryOf(jsonSeeds()), [
        ['[', ']'],
        ['{"a":', '}'],
      ]);
    return enc.encode(t);
  },
  async run(input, budget) {
    const { parseJsonTensor } = await ioMod();
    budget.alloc(input.length * 8);
    parseJsonTensor(dec.decode(input), 'fuzz.json');
  },
};

// ---- conformance files -------------------------------------------------------------------

const CONF_FILES = [
  'sfpu-wh.jsonl.gz',
  'sfpu-bh.jsonl.gz',
  'sfpu-rejects.jsonl.gz',
  'amx.jsonl.gz',
  'pto.jsonl.gz',
  'pto-cost.jsonl.gz',
];

/** Up to 300 records of each shared conformance file (when present) plus a hand-written minimum. */
const confSeeds = lazy(() => {
  const out: { runner: string; line: string }[] = [];
  for (const name of CONF_FILES) {
    const p = sharedConformanceFile(name);
    const runner = name.startsWith('sfpu') ? 'tensix' : name.startsWith('amx') ? 'amx' : 'pto';
    if (!p) continue;
    const lines = gunzipSync(readFileSync(p))
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim());
    const step = Math.max(1, Math.floor(lines.length / 300));
    for (let i = 0; i < lines.length; i += step) out.push({ runner, line: lines[i]! });
  }
  // fallbacks so the front end has seeds without the shared folder (shapes from the FORMAT docs)
  out.push({
    runner: 'amx',
    line: '{"id":"x","gen":"m1","instr":"ldx","op":0,"operand":"0x0","seed":"0x1","mem_base":"0x1000","changed":{"x":{},"y":{},"z":{},"mem":{}}}',
  });
  out.push({
    runner: 'pto',
    line: '{"id":"t","op":"TADD","dtype":"f32","tiles":{"dst":{"rows":1,"cols":8,"validRow":1,"validCol":8,"layout":"RM","dtype":"f32","data":"00000000000000000000000000000000000000000000000000000000000000ff"}},"scalars":{},"status":"ok"}',
  });
  out.push({
    runner: 'tensix',
    line: '{"id":"t","arch":"wh","words":["0x8f000000"],"in":{"lreg":[]},"out":{}}',
  });
  return out;
});

const runners = lazy(async () => {
  const { makeSfpuRunner } = await tensixMod();
  const { makeAmxRunner } = await amxMod();
  const { makePtoRunner, registerCostRunner } = await ptoMod();
  const { costCaseRunner } = await ptoCostMod();
  registerCostRunner(costCaseRunner);
  return { tensix: makeSfpuRunner(), amx: makeAmxRunner(), pto: makePtoRunner() } as Record<
    string,
    (rec: Record<string, unknown>) => unknown
  >;
});

const conformance: Front = {
  name: 'conformance',
  description:
    'reference-vector records (tensix/amx/pto conformance): JSON Lines records through the case runners',
  generate(r) {
    const { runner, line } = pick(r, confSeeds());
    let text: string;
    if (r() < 0.8) text = JSON.stringify(mutateJson(r, JSON.parse(line)));
    else
      text = mutateText(
        r,
        line,
        [],
        [
          ['[', ']'],
          ['{"a":', '}'],
        ],
        true,
      );
    return enc.encode(`${runner}\n${text}`);
  },
  async run(input, budget) {
    const text = dec.decode(input);
    const nl = text.indexOf('\n');
    const rs = await runners();
    const runner = rs[text.slice(0, nl)] ?? rs.pto!;
    budget.alloc(input.length * 16);
    let rec: unknown;
    try {
      rec = JSON.parse(text.slice(nl + 1));
    } catch (e) {
      throw badInput(`not a JSON line: ${(e as Error).message}`);
    }
    if (typeof rec !== 'object' || rec === null || Array.isArray(rec))
      throw badInput('a vector must be a JSON object');
    runner(rec as Record<string, unknown>);
  },
};

/** Every front end, by name. Add new front ends here (one entry each). */
export const FRONTS: Record<string, Front> = Object.fromEntries(
  [tensixAsm, tensixWords, tensixLlk, sfpi, amxText, amxC, ptoAs, ptoas, npy, jsonTensor, conformance].map(
    (f) => [f.name, f],
  ),
);
