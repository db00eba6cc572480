/**
 * Runs SFPU reference vectors (../shared/conformance/SFPU-FORMAT.md): set up `in`, run `words`,
 * compare `out` field by field. Reject records (no `out`) have no reference output: they are
 * reported as skipped, with what axsim did.
 */
import { diffWords } from '../conformance/diff.ts';
import type { CaseOutcome, CaseRunner } from '../conformance/index.ts';
import { AxsimError, badInput } from '../errors.ts';
import { type Arch, parseArch } from './encoding.ts';
import { type RunOptions, run } from './exec.ts';
import { compile, type Program } from './program.ts';
import { DST_COLS, DST_ROWS, LANES, TensixState } from './state.ts';

type Json = Record<string, unknown>;

function num(v: unknown, what: string): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw badInput(`${what} must be an integer`);
  return v >>> 0;
}
function arr(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw badInput(`${what} must be an array`);
  return v;
}

/** Resets `st` and loads a vector's `in` object (SFPU-FORMAT.md "How to run a case"). */
export function loadCaseState(st: TensixState, input: Json): void {
  st.reset();
  st.laneFlags = 0;
  st.useLaneFlags = 0;
  const lreg = arr(input.lreg, 'in.lreg');
  for (let r = 0; r < 8; r++) {
    const lanes = arr(lreg[r], `in.lreg[${r}]`);
    for (let l = 0; l < LANES; l++) st.lreg[r * LANES + l] = num(lanes[l], `in.lreg[${r}][${l}]`);
  }
  if (input.prgm_consts !== undefined) {
    const pc = arr(input.prgm_consts, 'in.prgm_consts');
    for (let i = 0; i < 4; i++) st.lreg.fill(num(pc[i], 'prgm_consts'), (11 + i) * LANES, (12 + i) * LANES);
  }
  st.useLaneFlags = num(input.cc_en ?? false, 'in.cc_en') ? 1 : 0;
  st.laneFlags = num(input.cc ?? 0, 'in.cc') | 0;
  const stack = arr(input.flag_stack ?? [], 'in.flag_stack');
  if (stack.length > 8) throw badInput('in.flag_stack has more than 8 entries');
  stack.forEach((e, k) => {
    const [en, fl] = arr(e, 'flag_stack entry');
    st.stackEn[k] = num(en, 'flag_stack enable') ? 1 : 0;
    st.stackFlags[k] = num(fl, 'flag_stack flags');
  });
  st.stackSize = stack.length;
  st.laneConfig = num(input.lane_config ?? 0, 'in.lane_config');
  if (input.prng !== undefined) {
    const p = arr(input.prng, 'in.prng');
    for (let l = 0; l < LANES; l++) st.prng[l] = num(p[l], 'in.prng');
  }
  if (input.lm !== undefined) {
    if (typeof input.lm !== 'object' || input.lm === null) throw badInput('in.lm must be an object');
    const lm = input.lm as Json;
    const t = arr(lm.templates, 'in.lm.templates');
    const s = arr(lm.sequence, 'in.lm.sequence');
    for (let i = 0; i < 4; i++) {
      st.lmTemplates[i] = num(t[i], 'lm.templates');
      st.lmSequence[i] = num(s[i], 'lm.sequence');
    }
    st.lmMisc = num(lm.misc, 'lm.misc');
  }
  st.rwcDst = num(input.dst_rwc ?? 0, 'in.dst_rwc') & 1023;
  st.rwcDstCr = num(input.dst_rwc_cr ?? 0, 'in.dst_rwc_cr') & 1023;
  if (input.dst !== undefined) {
    if (typeof input.dst !== 'object' || input.dst === null) throw badInput('in.dst must be an object');
    for (const [row, vals] of Object.entries(input.dst as Json)) {
      const r = Number(row);
      if (!Number.isInteger(r) || r < 0 || r >= DST_ROWS) throw badInput(`in.dst row ${row} out of range`);
      const v = arr(vals, `in.dst[${row}]`);
      for (let c = 0; c < DST_COLS; c++) st.dst[r * DST_COLS + c] = num(v[c], 'dst') & 0xffff;
    }
  }
  st.sfpuFp32 = num(input.dst_fp32 ?? false, 'in.dst_fp32') ? 1 : 0;
  st.srcBFormat = num(input.srcb_fmt ?? 0, 'in.srcb_fmt') & 15;
  st.dstMathOffset = num(input.dst_math_offset ?? 0, 'in.dst_math_offset');
  if (input.addr_mod !== undefined) {
    arr(input.addr_mod, 'in.addr_mod').forEach((e, i) => {
      const [incr, cr, clr, c2cr] = arr(e, 'addr_mod entry').map((x) => num(x, 'addr_mod'));
      st.setAddrMod(i, incr!, cr!, clr!, c2cr!);
    });
  }
  st.addrModSetBase = num(input.addr_mod_set_base ?? 0, 'in.addr_mod_set_base');
}

function hex(v: number): string {
  return `0x${(v >>> 0).toString(16).padStart(8, '0')}`;
}

function ints(v: unknown, what: string, n: number): void {
  const a = arr(v, what);
  if (a.length < n) throw badInput(`${what} must have ${n} entries, has ${a.length}`);
  for (let i = 0; i < n; i++) num(a[i], `${what}[${i}]`);
}

/**
 * Checks the shape of a vector's `out` before it is compared (a user's own vector file may hold
 * anything): every field that is present has the type SFPU-FORMAT.md gives it. Errors name the field.
 */
export function checkCaseOut(out: unknown): asserts out is Json {
  if (typeof out !== 'object' || out === null || Array.isArray(out)) throw badInput('out must be an object');
  const o = out as Json;
  if (o.lreg !== undefined) {
    const l = arr(o.lreg, 'out.lreg');
    if (l.length < 8) throw badInput(`out.lreg must have 8 registers, has ${l.length}`);
    for (let r = 0; r < 8; r++) ints(l[r], `out.lreg[${r}]`, LANES);
  }
  if (o.prgm_consts !== undefined) ints(o.prgm_consts, 'out.prgm_consts', 4);
  for (const k of ['cc', 'lane_config', 'dst_rwc', 'dst_rwc_cr'] as const)
    if (o[k] !== undefined) num(o[k], `out.${k}`);
  if (o.cc_en !== undefined) num(o.cc_en, 'out.cc_en');
  if (o.flag_stack !== undefined) {
    arr(o.flag_stack, 'out.flag_stack').forEach((e, k) => {
      const pair = arr(e, `out.flag_stack[${k}]`);
      if (pair.length !== 2) throw badInput(`out.flag_stack[${k}] must be [enable, flags]`);
      num(pair[0], `out.flag_stack[${k}][0]`);
      num(pair[1], `out.flag_stack[${k}][1]`);
    });
  }
  if (o.prng !== undefined) ints(o.prng, 'out.prng', LANES);
  if (o.lm !== undefined) {
    if (typeof o.lm !== 'object' || o.lm === null || Array.isArray(o.lm))
      throw badInput('out.lm must be an object');
    const lm = o.lm as Json;
    ints(lm.templates, 'out.lm.templates', 4);
    ints(lm.sequence, 'out.lm.sequence', 4);
    num(lm.misc, 'out.lm.misc');
  }
  if (o.dst !== undefined) {
    if (typeof o.dst !== 'object' || o.dst === null || Array.isArray(o.dst))
      throw badInput('out.dst must be an object');
    for (const [row, vals] of Object.entries(o.dst as Json)) {
      const r = Number(row);
      if (!Number.isInteger(r) || r < 0 || r >= DST_ROWS) throw badInput(`out.dst row ${row} out of range`);
      ints(vals, `out.dst[${row}]`, DST_COLS);
    }
  }
}

/** Compares `st` with a vector's `out`; returns the differing fields, one per line. */
export function diffCaseState(st: TensixState, out: Json): string[] {
  checkCaseOut(out);
  const lines: string[] = [];
  const lreg = out.lreg as number[][] | undefined;
  if (lreg) {
    for (let r = 0; r < 8; r++) {
      lines.push(...diffWords(`lreg[${r}]`, lreg[r]!, st.lreg.subarray(r * LANES, (r + 1) * LANES), 4));
    }
  }
  if (out.prgm_consts !== undefined) {
    const pc = out.prgm_consts as number[];
    for (let i = 0; i < 4; i++) {
      for (let l = 0; l < LANES; l++) {
        if (st.lreg[(11 + i) * LANES + l] !== pc[i]! >>> 0) {
          lines.push(
            `LReg[${11 + i}][${l}]: expected ${hex(pc[i]!)}, got ${hex(st.lreg[(11 + i) * LANES + l]!)}`,
          );
          break;
        }
      }
    }
  }
  if (out.cc_en !== undefined && Boolean(out.cc_en) !== Boolean(st.useLaneFlags)) {
    lines.push(`cc_en: expected ${out.cc_en}, got ${Boolean(st.useLaneFlags)}`);
  }
  if (out.cc !== undefined && (out.cc as number) >>> 0 !== st.laneFlags >>> 0) {
    lines.push(`cc: expected ${hex(out.cc as number)}, got ${hex(st.laneFlags)}`);
  }
  if (out.flag_stack !== undefined) {
    const exp = out.flag_stack as [boolean, number][];
    const got: [boolean, number][] = [];
    for (let k = 0; k < Math.min(st.stackSize, 8); k++)
      got.push([Boolean(st.stackEn[k]), st.stackFlags[k]! >>> 0]);
    const e = JSON.stringify(exp.map(([a, b]) => [a, b >>> 0]));
    const g = JSON.stringify(got);
    if (e !== g) lines.push(`flag_stack: expected ${e}, got ${g}`);
  }
  if (out.lane_config !== undefined && (out.lane_config as number) >>> 0 !== st.laneConfig >>> 0) {
    lines.push(`lane_config: expected ${hex(out.lane_config as number)}, got ${hex(st.laneConfig)}`);
  }
  if (out.prng !== undefined) lines.push(...diffWords('prng', out.prng as number[], st.prng, 4));
  if (out.lm !== undefined) {
    const lm = out.lm as { templates: number[]; sequence: number[]; misc: number };
    lines.push(...diffWords('lm.templates', lm.templates, st.lmTemplates));
    lines.push(...diffWords('lm.sequence', lm.sequence, st.lmSequence));
    if (lm.misc >>> 0 !== st.lmMisc >>> 0)
      lines.push(`lm.misc: expected ${hex(lm.misc)}, got ${hex(st.lmMisc)}`);
  }
  if (out.dst_rwc !== undefined && out.dst_rwc !== st.rwcDst) {
    lines.push(`dst_rwc: expected ${out.dst_rwc}, got ${st.rwcDst}`);
  }
  if (out.dst_rwc_cr !== undefined && out.dst_rwc_cr !== st.rwcDstCr) {
    lines.push(`dst_rwc_cr: expected ${out.dst_rwc_cr}, got ${st.rwcDstCr}`);
  }
  // Dst: listed rows must match, every other row must be zero (absent `dst` means all zero).
  const rows = (out.dst ?? {}) as Record<string, number[]>;
  let dstDiffs = 0;
  for (let r = 0; r < DST_ROWS; r++) {
    const exp = rows[String(r)];
    for (let c = 0; c < DST_COLS; c++) {
      const e = exp ? exp[c]! : 0;
      const g = st.dst[r * DST_COLS + c]!;
      if (e !== g) {
        if (dstDiffs < 6)
          lines.push(`dst[${r}][${c}]: expected 0x${e.toString(16)}, got 0x${g.toString(16)}`);
        dstDiffs++;
      }
    }
  }
  if (dstDiffs > 6) lines.push(`dst: ${dstDiffs - 6} more differences`);
  return lines;
}

export function caseArch(rec: Json): Arch {
  if (typeof rec.arch !== 'string') throw badInput('vector has no arch');
  return parseArch(rec.arch);
}

export function caseWords(rec: Json): number[] {
  return arr(rec.words, 'words').map((w) => {
    if (typeof w === 'number') return w >>> 0;
    if (typeof w === 'string' && /^(0x)?[0-9a-f]{1,8}$/i.test(w)) return Number.parseInt(w, 16) >>> 0;
    throw badInput(`bad instruction word ${JSON.stringify(w)}`);
  });
}

/** ttsim's error category of a reject record (`error.category`), or '?' when absent. */
function rejectCategory(rec: Json): string {
  const err = rec.error as Json | undefined;
  return typeof err?.category === 'string' ? err.category : '?';
}

/**
 * Runs a reject record (no `out`: ttsim refused it) on `st`, already loaded with its `in` state.
 * Returns the AxsimError axsim raised, or undefined if the program ran to the end.
 *
 * The words are taken in order, as ttsim does (SFPU-FORMAT.md: the instructions before the refused
 * one ran normally): `compile` checks every word before anything runs, so when word k cannot be
 * compiled, words 0..k-1 are run first and a run-time error among them (a flag-stack underflow,
 * say) is the one reported; only then word k's error.
 */
export function runRejectRecord(st: TensixState, rec: Json, opts: RunOptions = {}): AxsimError | undefined {
  const words = caseWords(rec);
  try {
    let prog: Program;
    try {
      prog = compile(words, st.arch);
    } catch (e) {
      const k = e instanceof AxsimError ? e.location?.index : undefined;
      if (k === undefined) throw e;
      let prefix: Program | undefined;
      try {
        prefix = compile(words.slice(0, k), st.arch);
      } catch (p) {
        // the prefix alone does not compile (a REPLAY load cut short): report word k's error
        if (!(p instanceof AxsimError)) throw p;
      }
      if (prefix) run(st, prefix, 1, opts);
      throw e;
    }
    run(st, prog, 1, opts);
  } catch (e) {
    if (!(e instanceof AxsimError)) throw e;
    return e;
  }
  return undefined;
}

/**
 * The CaseRunner for SFPU vectors. A record with `out` passes when every field matches. A reject
 * record (with `error`, no `out`) has no reference output, so it is reported as skipped, with the
 * reason saying whether axsim ran it ("ran; no reference output") or which category it raised;
 * it never counts as passed. (conformance.test.ts checks the rejects against the documents.)
 */
export function makeSfpuRunner(opts: RunOptions = {}): CaseRunner {
  const machines: Partial<Record<Arch, TensixState>> = {};
  return (rec: Json): CaseOutcome => {
    const arch = caseArch(rec);
    const st = (machines[arch] ??= new TensixState(arch));
    const input = rec.in as Json | undefined;
    if (!input) throw badInput('vector has no "in" state');
    loadCaseState(st, input);
    if (rec.out === undefined) {
      const raised = runRejectRecord(st, rec, opts);
      const ttsim = rejectCategory(rec);
      return raised
        ? { pass: false, skip: `raised ${raised.category} (ttsim: ${ttsim})` }
        : { pass: false, skip: `ran; no reference output (ttsim: ${ttsim})` };
    }
    run(st, compile(caseWords(rec), arch), 1, opts);
    const lines = diffCaseState(st, rec.out as Json);
    return lines.length === 0 ? { pass: true } : { pass: false, diff: lines.join('\n') };
  };
}
