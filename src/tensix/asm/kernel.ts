/**
 * The Tensix emitter on top of cfront (src/cfront/): kernel C++ is preprocessed, parsed and run at
 * compile time as the RISC-V core would run it; the instruction calls it makes become words.
 *
 * - `TTI_<X>(…)` and `TT_<X>(…)` emit `TT_OP_<X>(…)`, which is a value (tt-llk ckernel_ops.h:
 *   `TT_OP(opcode, params) = (opcode << 24) + params`, arguments from `macros.data.ts`, each range-
 *   checked against its bits instead of silently carrying into the next one).
 * - Named constants kernels pass (`p_sfpu::LREG0`, `ADDR_MOD_3`, `sfpi::SFPxxx_MOD1_*`, …) come from
 *   `constants.data.ts` when no declaration in the source defines them.
 * - Builtins for the bundled LLK headers: `__axsim_emit`, `__axsim_cfg_write`, `__axsim_warn`,
 *   `__axsim_unsupported`; sfpi's `lltt::replay/record/replay_insn`, tt-llk's `load_replay_buf`,
 *   `dst_reg++`; 32-bit stores through pointers into the configuration space (TENSIX_CFG_BASE)
 *   become `cfg_write` events in program order.
 * - The assembler's own statement forms: canonical `SFPMAD lreg_src_a=6 …` lines, `.word`/`.ttinsn`,
 *   `.rept N … .endr`.
 * Every word records the user-visible statement that produced it (`sources`; `lines` = its line).
 */
import { Budget, defaultBudget } from '../../budget.ts';
import type { Expr, Stmt } from '../../cfront/ast.ts';
import type { BuiltinCtx, BuiltinFn, Evaluator, Host, Value } from '../../cfront/eval.ts';
import type { IncludeCache } from '../../cfront/include-cache.ts';
import { loadProgram, wrapInternal } from '../../cfront/index.ts';
import type { SrcLoc } from '../../cfront/lex.ts';
import type { Parser } from '../../cfront/parse.ts';
import type { ParseMemo } from '../../cfront/parse-memo.ts';
import { I32, U32 } from '../../cfront/types.ts';
import { AxsimError, badInput, nearestName, undefinedBehaviour, unsupported } from '../../errors.ts';
import {
  ARCHES,
  type Arch,
  byOpcode,
  type InsnDef,
  instructionSet,
  parseArch,
  templateLoadSlot,
} from '../encoding.ts';
import { SFPI_VECTOR_H } from '../sfpi/header.ts';
import { SfpiCompiler } from '../sfpi/index.ts';
import { SFPI_HEADER_FILE, sfpiNative } from '../sfpi/native.ts';
import { normName, placeValue, type SyntaxField, syntaxOf, UNUSED_BITS } from './syntax.ts';
import { archTables, type MacroDef, stripNamespaces } from './tables.ts';

/** tt-llk's TENSIX_CFG_BASE: RISC-V stores here write Tensix configuration registers. */
export const TENSIX_CFG_BASE = 0xffef0000;
/** Bytes of configuration space mapped (every register index an LLK writes fits). */
export const TENSIX_CFG_SIZE = 0x10000;

export interface SourcePos {
  file: string;
  line: number;
  col: number;
}

/** A RISC-V side effect in program order: apply before running `words[at]`. */
export interface KernelEvent {
  at: number;
  kind: 'cfg_write';
  /** Configuration register index (32-bit words from TENSIX_CFG_BASE). */
  addr: number;
  value: number;
  source: SourcePos;
}

export interface AssembleResult {
  words: Uint32Array;
  /** The 1-based source line of the statement that produced each word. */
  lines: number[];
  /**
   * Words that were assembled as written but that the decoder will refuse: an opcode the encoding
   * table does not have for this arch, or bits set outside the instruction's fields (possible with
   * the macro and `.word` forms). Running them raises the error given here. Also `__axsim_warn`s.
   */
  warnings: AxsimError[];
  /** Per word: file:line:col of the user-visible statement (through loops, calls, macros, includes). */
  sources: SourcePos[];
  /** Configuration writes from the RISC-V side, in order with the words. */
  events: KernelEvent[];
}

export interface KernelOptions {
  arch: Arch;
  /** Name of the source for locations (default '<input>'). */
  file?: string;
  /**
   * The function to run: `name`, `name<targs…>`, `name<targs…>(args…)` (C++ expressions); a bare
   * name is called with its default arguments. Without it only top-level statements run.
   */
  entry?: string;
  /** `-D NAME=VALUE` preprocessor definitions. */
  defines?: Readonly<Record<string, string | number | bigint | boolean>>;
  includeDirs?: readonly string[];
  virtualFiles?: Readonly<Record<string, string>>;
  /** The most words a program may have (default 2^22). */
  maxWords?: number;
  budget?: Budget;
  /**
   * Plain memory the RISC-V side may read and write at compile time, e.g. an L1 buffer a kernel
   * reads through a pointer argument (tt-llk's reshuffle_rows reads its row map from L1).
   */
  memory?: readonly KernelMemory[];
  /** Reuse of included headers' preprocessing across compiles (src/cfront/include-cache.ts). */
  includeCache?: IncludeCache;
  /** Reuse of the parsed declarations of those headers across compiles (src/cfront/parse-memo.ts). */
  parseMemo?: ParseMemo;
}

/** A block of target memory mapped for the kernel's RISC-V code (bytes copied in, little-endian). */
export interface KernelMemory {
  name: string;
  base: number;
  bytes: Uint8Array;
}

const MACRO_PREFIXES = ['TT_OP_', 'TTI_', 'TT_'] as const;
/** nearestConstant's answers per architecture table (bounded: cleared at 4096 names). */
const NEAREST_CONSTANT = new WeakMap<object, Map<string, string | undefined>>();
const DST_REG = new Set(['dst_reg', 'sfpi::dst_reg', 'ckernel::sfpi::dst_reg']);
const MAX_WORDS = 1 << 22;
const hex32 = (w: number) => `0x${(w >>> 0).toString(16).padStart(8, '0')}`;

type Ext =
  | { k: 'word'; exprs: Expr[]; directive: string }
  | { k: 'rept'; count: Expr }
  | { k: 'emit0'; m: { def: MacroDef; form: string } }
  | { k: 'incrwc'; n: Expr | undefined; name: string }
  | { k: 'canonical'; def: InsnDef; fields: { name: string; value: Expr; at: SrcLoc }[] };

/** The emitter: a cfront host that collects words. */
export class TensixEmitter {
  readonly words: number[] = [];
  readonly lines: number[] = [];
  readonly sources: SourcePos[] = [];
  readonly warnings: AxsimError[] = [];
  readonly events: KernelEvent[] = [];
  readonly tables;
  readonly insnByName: Map<string, InsnDef>;
  readonly builtins = new Map<string, BuiltinFn>();
  ev!: Evaluator;
  /** The SFPI compiler's trace (src/tensix/sfpi): its words join the stream in program order. */
  readonly sfpi: SfpiCompiler;

  constructor(
    readonly arch: Arch,
    readonly opts: {
      maxWords?: number;
      /** Named values (the assembler's `defines`) that take precedence over the constant tables. */
      constants?: ReadonlyMap<string, bigint>;
      /** The `.sfpu` form: canonical names in any case. */
      asm?: boolean;
      /** C++ kernels: an argument too wide for its field carries into the next (with a warning). */
      carry?: boolean;
    } = {},
  ) {
    this.tables = archTables(arch);
    this.insnByName = new Map(instructionSet(arch).map((d) => [d.name, d]));
    this.registerBuiltins();
    this.sfpi = new SfpiCompiler(this);
  }

  // ---- the host interface ----
  /**
   * `sfpiNatives`: the program's `axsim_sfpi_vector.h` is header.ts's text, so its hot members may
   * run as natives (src/tensix/sfpi/native.ts).
   */
  host(sfpiNatives = false): Host {
    return {
      ...(sfpiNatives ? { native: (f, ev) => sfpiNative(f, ev, this.sfpi.api) } : {}),
      builtins: this.builtins,
      builtinFor: (name) => this.macroBuiltin(name),
      lookupName: (name) => this.constant(name),
      execExt: (s, ev, scope) => this.execExt(s, ev, scope),
      unknownName: (name, at) => this.unknownName(name, at),
      typeFor: (name) => (this.isConstantGroup(name) ? I32 : undefined),
    };
  }

  constant(name: string): bigint | undefined {
    const c = this.opts.constants?.get(name);
    if (c !== undefined) return c;
    const v = this.tables.constants.get(stripNamespaces(name));
    if (v !== undefined) return v;
    // zero-argument TT_OP_X is a value
    const m = this.macroName(name);
    if (m?.form.startsWith('TT_OP_') && m.def.args.length === 0) return BigInt(m.def.opcode) << 24n;
    return undefined;
  }

  /** `InstrModLoadStore`, `PoolType`, … (names whose members the constant table has) used as types. */
  private groups: Set<string> | undefined;
  isConstantGroup(name: string): boolean {
    if (!this.groups) {
      this.groups = new Set();
      for (const k of this.tables.constants.keys()) {
        const i = k.lastIndexOf('::');
        if (i > 0) this.groups.add(k.slice(0, i));
      }
    }
    return this.groups.has(stripNamespaces(name));
  }

  macroName(text: string): { def: MacroDef; form: string } | undefined {
    // (no regular expression for the common unqualified name: this runs for every SFPI instruction)
    const name =
      text.startsWith('ckernel::') || text.startsWith('::') ? text.replace(/^(::)?ckernel::/, '') : text;
    for (const prefix of MACRO_PREFIXES) {
      if (!name.startsWith(prefix)) continue;
      const base = name.slice(prefix.length);
      const def = this.tables.macros.get(base);
      if (def) return { def, form: `${prefix}${base}` };
    }
    return undefined;
  }

  private macroBuiltin(name: string): BuiltinFn | undefined {
    const m = this.macroName(name);
    if (!m) return undefined;
    if (m.form.startsWith('TT_OP_') && m.def.args.length === 0) return undefined; // a constant
    return (c) => {
      const word = this.macroWordFromArgs(m, c);
      if (m.form.startsWith('TT_OP_')) return { k: 'int', t: U32, v: BigInt(word >>> 0) } as Value;
      this.emit(word, c.at, true);
      return undefined;
    };
  }

  /**
   * The constant nearest to an unknown name (the hint). Without the assembler's own constants the
   * candidates are the architecture's table, so the answer for a name is remembered per table (a
   * fuzz worker meets the same unknown names again and again; each answer scans thousands of names).
   */
  private nearestConstant(name: string): string | undefined {
    if (this.opts.constants?.size)
      return nearestName(name, [...this.tables.constants.keys(), ...this.opts.constants.keys()]);
    let memo = NEAREST_CONSTANT.get(this.tables);
    if (!memo) {
      memo = new Map();
      NEAREST_CONSTANT.set(this.tables, memo);
    }
    if (memo.has(name)) return memo.get(name);
    const near = nearestName(name, this.tables.constants.keys());
    if (memo.size >= 4096) memo.clear();
    memo.set(name, near);
    return near;
  }

  private unknownName(name: string, at: SrcLoc): AxsimError | undefined {
    const location = { file: at.file, line: at.line, col: at.col };
    if (/^(ckernel::)?(TTI_|TT_OP_|TT_)/.test(name)) {
      const base = name.replace(/^(ckernel::)?(TTI_|TT_OP_|TT_)/, '');
      const other = ARCHES.find((a) => a !== this.arch && archTables(a).macros.has(base));
      if (other)
        return badInput(`${name} is not a ${this.arch} instruction`, {
          location,
          hint: `it exists on ${other}; pass --arch ${other}`,
        });
      const known = [...this.tables.macros.keys()].map((k) => `TTI_${k}`);
      const near = nearestName(name, known);
      return badInput(`unknown instruction '${name}'`, {
        location,
        hint: near ? `did you mean ${near}?` : undefined,
      });
    }
    const near = this.nearestConstant(name);
    if (near && near !== name)
      return badInput(`unknown name '${name}'`, { location, hint: `did you mean ${near}?` });
    return undefined;
  }

  // ---- words ----
  emit(word: number, at: SrcLoc, checkDecodable: boolean, resolved = false): void {
    // traced SFPI operations come first (they were written before this word); an SFPU word whose
    // register effects are known joins the trace instead, so SFPI values may live across it
    if (!resolved) {
      if (checkDecodable && this.sfpi.defer(word, at)) return;
      this.sfpi.flush();
    }
    const max = this.opts.maxWords ?? MAX_WORDS;
    const user = resolved || !this.ev ? at : this.ev.userLoc(at);
    const location = { file: user.file, line: user.line, col: user.col };
    if (this.words.length >= max) throw badInput(`the program has more than ${max} words`, { location });
    this.words.push(word >>> 0);
    this.lines.push(user.line);
    this.sources.push({ file: user.file, line: user.line, col: user.col });
    if (!checkDecodable) return;
    const def = byOpcode(word >>> 24, this.arch);
    if (!def) {
      this.warnings.push(
        unsupported(
          `${hex32(word)}: opcode 0x${(word >>> 24).toString(16)} is not in axsim's ${this.arch} encoding table`,
          {
            location,
          },
        ),
      );
    } else if (word & def.reservedMask && templateLoadSlot(word, this.arch) < 0) {
      this.warnings.push(
        undefinedBehaviour(
          `${hex32(word)}: ${def.name} has bits set outside its fields (mask ${hex32(word & def.reservedMask)})`,
          {
            location,
            hint: 'the decoder requires unused bits to be zero',
          },
        ),
      );
    }
  }

  private macroWordFromArgs(m: { def: MacroDef; form: string }, c: BuiltinCtx): number {
    const { def, form } = m;
    if (c.args.length !== def.args.length) {
      const where = c.args.length > def.args.length ? c.argExprs[def.args.length]!.at : (c.end ?? c.at);
      throw badInput(
        `${form} takes ${def.args.length} argument(s) (${def.args.map((a) => a.name).join(', ')}) but got ${c.args.length}`,
        {
          location: { file: where.file, line: where.line, col: where.col },
        },
      );
    }
    return this.buildMacroWord(
      m,
      c.args.map((v, k) => {
        const e = c.argExprs[k]!;
        if (e.kind === 'float')
          throw badInput(
            `${form} argument ${k + 1} (${def.args[k]!.name}): floating-point literal '${e.text}' where an integer is needed`,
            {
              location: { file: e.at.file, line: e.at.line, col: e.at.col },
              hint: 'instruction fields take integers: write the bit pattern (e.g. 0x3fc0 for the high half of 1.5f)',
            },
          );
        return {
          v: this.intArg(v, `${form} argument ${k + 1} (${def.args[k]!.name})`, startOf(e)),
          at: startOf(e),
        };
      }),
    );
  }

  private intArg(v: Value, what: string, at: SrcLoc): bigint {
    if (v.k === 'int') return v.v;
    const location = { file: at.file, line: at.line, col: at.col };
    if (v.k === 'float')
      throw badInput(`${what} is a floating-point value (${v.v}); instruction fields take integers`, {
        location,
        hint: 'pass the bit pattern (e.g. __builtin_bit_cast(std::uint32_t, x) >> 16)',
      });
    throw badInput(`${what} is not an integer`, { location });
  }

  /** The word of macro `m` applied to evaluated arguments (in its order), range-checked. */
  buildMacroWord(m: { def: MacroDef; form: string }, values: { v: bigint; at: SrcLoc }[]): number {
    const { def, form } = m;
    // TT_OP(opcode, params) = (opcode << 24) + params (tt-llk ckernel_ops.h); each argument must
    // stay within its bits, or it would silently add into the neighbouring argument.
    let word = BigInt(def.opcode) << 24n;
    def.args.forEach((a, k) => {
      const { v, at } = values[k]!;
      const max = (1n << BigInt(a.width)) - 1n;
      if (v < 0n || v > max) {
        const hi = a.shift + a.width - 1;
        if (this.opts.carry && v >= 0n && v < 1n << 32n) {
          // C++ kernel files: the macro's arithmetic as the compiler does it (the excess carries
          // into the next field up), reported so the author sees it
          const u = this.ev ? this.ev.userLoc(at) : at;
          this.warnings.push(
            new AxsimError(
              'NonContractual',
              `${form} argument ${k + 1} (${a.name}) = ${v} does not fit in its ${a.width} bit(s) ${hi}:${a.shift}; as in C, the excess carries into ${k > 0 ? def.args[k - 1]!.name : 'the opcode'}`,
              {
                location: { file: u.file, line: u.line, col: u.col },
                hint: 'tt-llk ckernel_ops.h adds the shifted arguments; the word is what that sum gives',
              },
            ),
          );
          word += v << BigInt(a.shift);
          return;
        }
        throw badInput(
          `${form} argument ${k + 1} (${a.name}) = ${v} does not fit in its ${a.width} bit(s) ${hi}:${a.shift}`,
          {
            location: { file: at.file, line: at.line, col: at.col },
            hint:
              v < 0n
                ? `write a negative immediate as a two's-complement field value, e.g. (${v}) & 0x${max.toString(16)}`
                : `the largest value is ${max} (0x${max.toString(16)})${k > 0 ? `; in C the excess would carry into ${def.args[k - 1]!.name}` : ''}`,
          },
        );
      }
      word += v << BigInt(a.shift);
    });
    const w = Number(BigInt.asUintN(32, word));
    if (!this.opts.carry) return w;
    // C++ kernel files: a macro argument wider than its field in the ISA (tt-llk's macros give
    // SFPLOAD/SFPSTORE's address 14 bits where the instruction has a 10-bit Imm10) can set bits no
    // field of the instruction has. The documented functional models read only the fields, so the
    // word keeps them cleared, and the author is told (docs/cfront.md, "unused bits").
    const d = byOpcode(w >>> 24, this.arch);
    const stray = d ? w & d.reservedMask : 0;
    if (!stray) return w;
    const k = def.args.findIndex((a, i) => (values[i]!.v << BigInt(a.shift)) & BigInt(stray));
    const at = values[Math.max(k, 0)]?.at;
    const u = at && this.ev ? this.ev.userLoc(at) : at;
    this.warnings.push(
      new AxsimError(
        'NonContractual',
        `${form}: the arguments set bits ${hex32(stray)} of the word, which no field of ${d!.name} has${k >= 0 ? ` (argument ${k + 1}, ${def.args[k]!.name} = ${values[k]!.v}, is wider than the instruction's field)` : ''}; they are cleared`,
        {
          location: u ? { file: u.file, line: u.line, col: u.col } : undefined,
          hint: 'the ISA documents give the instruction no use for these bits; the functional model reads only its fields',
        },
      ),
    );
    return (w & ~stray) >>> 0;
  }

  private registerBuiltins(): void {
    const b = this.builtins;
    const loc = (at: SrcLoc) => ({ file: at.file, line: at.line, col: at.col });
    const argInt = (c: BuiltinCtx, k: number, what: string) => {
      const v = c.args[k];
      if (!v) throw badInput(`${c.name} needs ${what} (argument ${k + 1})`, { location: loc(c.end ?? c.at) });
      return this.intArg(v, `${c.name} argument ${k + 1} (${what})`, c.argExprs[k]!.at);
    };
    const argStr = (c: BuiltinCtx, k: number) => {
      const v = c.args[k];
      if (v?.k === 'ptr' && v.str !== undefined) return v.str;
      throw badInput(`${c.name} takes a string literal`, { location: loc(c.at) });
    };
    const count = (c: BuiltinCtx, n: number) => {
      if (c.args.length !== n)
        throw badInput(`${c.name} takes ${n} argument(s) but got ${c.args.length}`, {
          location: loc(c.end ?? c.at),
        });
    };
    b.set('__axsim_emit', (c) => {
      count(c, 1);
      const w = argInt(c, 0, 'word');
      if (w < -(2n ** 31n) || w >= 2n ** 32n)
        throw badInput(`__axsim_emit value ${w} does not fit in 32 bits`, {
          location: loc(c.argExprs[0]!.at),
        });
      this.emit(Number(BigInt.asUintN(32, w)), c.at, true);
    });
    b.set('__axsim_cfg_write', (c) => {
      count(c, 2);
      this.cfgWrite(
        Number(BigInt.asUintN(32, argInt(c, 0, 'addr32'))),
        Number(BigInt.asUintN(32, argInt(c, 1, 'value'))),
        c.at,
      );
    });
    b.set('__axsim_warn', (c) => {
      count(c, 1);
      const u = this.ev.userLoc(c.at);
      this.warnings.push(new AxsimError('NonContractual', argStr(c, 0), { location: loc(u) }));
    });
    b.set('__axsim_unsupported', (c) => {
      count(c, 1);
      throw unsupported(argStr(c, 0), { location: loc(this.ev.userLoc(c.at)) });
    });
    // sfpi lltt.h: replay(start, len) = REPLAY(start, len, 0, 0); record[<Exec>](start, len) =
    // REPLAY(start, len, exec, 1); replay_insn(start, len) is the word of replay (tt-llk TT_OP_REPLAY
    // argument order: start_idx, len, execute_while_loading, load_mode).
    const replay = (c: BuiltinCtx, record: boolean, asValue: boolean) => {
      count(c, 2);
      const exec = record && c.targs.length ? this.targInt(c, 0) : 0n;
      const m = this.macroName('TTI_REPLAY')!;
      const byName: Record<string, { v: bigint; at: SrcLoc }> = {
        start_idx: { v: argInt(c, 0, 'start'), at: startOf(c.argExprs[0]!) },
        len: { v: argInt(c, 1, 'len'), at: startOf(c.argExprs[1]!) },
        execute_while_loading: { v: exec, at: c.at },
        load_mode: { v: record ? 1n : 0n, at: c.at },
      };
      const w = this.buildMacroWord(
        m,
        m.def.args.map((a) => byName[a.name]!),
      );
      if (asValue) return { k: 'int', t: U32, v: BigInt(w >>> 0) } as Value;
      this.emit(w, c.at, true);
      return undefined;
    };
    for (const ns of ['lltt::', 'sfpi::lltt::', 'ckernel::lltt::']) {
      b.set(`${ns}replay`, (c) => replay(c, false, false));
      b.set(`${ns}record`, (c) => replay(c, true, false));
      b.set(`${ns}replay_insn`, (c) => replay(c, false, true));
    }
    // tt-llk ckernel.h load_replay_buf[<Exec>](start, len, lambda): record(start, len), then the
    // lambda's instructions; a body that does not make exactly `len` of them is reported.
    const loadReplayBuf: BuiltinFn = (c) => {
      count(c, 3);
      const exec = c.targs.length ? this.targInt(c, 0) : 0n;
      const start = argInt(c, 0, 'start');
      const len = argInt(c, 1, 'len');
      const m = this.macroName('TTI_REPLAY')!;
      const byName: Record<string, { v: bigint; at: SrcLoc }> = {
        start_idx: { v: start, at: c.argExprs[0]!.at },
        len: { v: len, at: c.argExprs[1]!.at },
        execute_while_loading: { v: exec, at: c.at },
        load_mode: { v: 1n, at: c.at },
      };
      this.emit(
        this.buildMacroWord(
          m,
          m.def.args.map((a) => byName[a.name]!),
        ),
        c.at,
        true,
      );
      const before = this.words.length;
      c.ev.callValue(c.args[2]!, [], c.at);
      this.sfpi.flush();
      const produced = this.words.length - before;
      const want = Number(len) & 63 || 64;
      if (produced !== want) {
        this.warnings.push(
          badInput(`load_replay_buf records ${want} instructions but its body has ${produced}`, {
            location: loc(this.ev.userLoc(c.at)),
            hint: 'the replay buffer then also records the instructions after the call (REPLAY.md)',
          }),
        );
      }
    };
    b.set('load_replay_buf', loadReplayBuf);
    b.set('ckernel::load_replay_buf', loadReplayBuf);
  }

  private targInt(c: BuiltinCtx, k: number): bigint {
    const b = c.ev.evalTArgs([c.targs[k]!], c.scope)[0]!;
    if (b.k === 'value' && b.v.k === 'int') return b.v.v;
    throw badInput(`${c.name}: template argument ${k + 1} must be an integer (lltt::Exec or lltt::NoExec)`, {
      location: { file: c.at.file, line: c.at.line, col: c.at.col },
    });
  }

  cfgWrite(addr: number, value: number, at: SrcLoc): void {
    this.sfpi.flush();
    const u = this.ev.userLoc(at);
    this.events.push({
      at: this.words.length,
      kind: 'cfg_write',
      addr,
      value: value >>> 0,
      source: { file: u.file, line: u.line, col: u.col },
    });
  }

  /** Maps the configuration space so `volatile` stores become cfg_write events. */
  mapConfigSpace(ev: Evaluator): void {
    ev.mem.mapRegion('tensix-cfg', TENSIX_CFG_BASE, TENSIX_CFG_SIZE, {
      // The registers also change by SETC16/WRCFG/RMWCIB in the instruction stream and by the
      // firmware, which this byte region does not see: a load from it would read a stale 0.
      read: (addr) => {
        throw unsupported(
          `a load from configuration space at 0x${addr.toString(16)}: reading Tensix config registers from the RISC-V side is not modelled`,
          { location: ev.loc(ev.cur), hint: 'only stores through get_cfg_pointer() are modelled' },
        );
      },
      write: (addr, size, r) => {
        const off = addr - r.base;
        if (size !== 4 || off % 4 !== 0) {
          throw unsupported(
            `a ${size}-byte store to configuration space at 0x${addr.toString(16)}: only aligned 32-bit register writes are modelled`,
            {
              location: ev.loc(ev.cur),
            },
          );
        }
        this.cfgWrite(off / 4, r.view.getUint32(off, true), ev.cur);
      },
    });
  }

  // ---- statements the emitter parses itself ----
  statementHook(p: Parser): Stmt | undefined {
    const t = p.peek();
    if (
      t.kind === 'punct' &&
      t.text === '.' &&
      p.peek(1).kind === 'ident' &&
      p.peek(1).line === t.line &&
      p.peek(1).col === t.col + 1
    )
      return this.directive(p);
    if (
      t.kind === 'punct' &&
      t.text === '+' &&
      p.isPunct('+') &&
      p.isPunct('+', 0) &&
      p.peek(1).text === '+' &&
      DST_REG.has(this.qualifiedAhead(p, 2).name)
    ) {
      p.next();
      p.next();
      const q = this.qualifiedAhead(p, 0);
      p.pos += q.len;
      p.accept(';');
      return this.ext({ k: 'incrwc', n: undefined, name: q.name }, t);
    }
    if (t.kind !== 'ident') return undefined;
    const q = this.qualifiedAhead(p, 0);
    if (DST_REG.has(q.name)) {
      const after = q.len;
      if (p.isPunct('++', after) || (p.isPunct('+', after) && p.isPunct('+', after + 1))) {
        p.pos += after;
        p.next();
        if (p.isPunct('+')) p.next();
        p.accept(';');
        return this.ext({ k: 'incrwc', n: undefined, name: q.name }, t);
      }
      if (p.isPunct('+=', after)) {
        p.pos += after + 1;
        const n = p.assignment();
        p.endStatement();
        return this.ext({ k: 'incrwc', n, name: q.name }, t);
      }
      return undefined;
    }
    // a zero-argument instruction macro as a statement: `TTI_SFPNOP;`
    const m = this.macroName(q.name);
    // the `.sfpu` form also emits `TT_OP_X(…)` written as a statement
    if (m && this.opts.asm && m.form.startsWith('TT_OP_') && p.isPunct('(', q.len)) {
      const e = p.expression();
      p.endStatement();
      return this.ext({ k: 'word', exprs: [e], directive: m.form }, t);
    }
    if (m && m.def.args.length === 0 && !m.form.startsWith('TT_OP_')) {
      if (
        p.isPunct(';', q.len) ||
        p.isPunct('}', q.len) ||
        (p.isPunct('(', q.len) && p.isPunct(')', q.len + 1)) ||
        p.peek(q.len).line > t.line ||
        p.peek(q.len).kind === 'eof'
      ) {
        p.pos += q.len;
        if (p.isPunct('(')) {
          p.next();
          p.next();
        }
        p.accept(';');
        return this.ext({ k: 'emit0', m }, t);
      }
    }
    // canonical `NAME field=value …`
    if (q.len === 1 && !p.isPunct('(', 1)) {
      const upper = t.text.toUpperCase();
      const def = this.insnByName.get(this.opts.asm ? upper : t.text);
      const n = p.peek(1);
      const lineEnds =
        n.kind === 'eof' || n.line > t.line || (n.kind === 'punct' && (n.text === ';' || n.text === '}'));
      const fieldNext = n.kind === 'ident' && n.line === t.line && p.isPunct('=', 2);
      if (def && (lineEnds || fieldNext || (this.opts.asm && n.kind !== 'punct')))
        return this.canonical(p, def);
      const alone = lineEnds && !CPP_KEYWORDS.has(t.text);
      if (
        this.opts.asm &&
        ((fieldNext && /^[A-Z][A-Z0-9_]*$/.test(t.text)) || alone) &&
        !p.typeNames.has(t.text)
      ) {
        const other = ARCHES.find((a) => a !== this.arch && instructionSet(a).some((d) => d.name === upper));
        const location = p.loc(t);
        if (other)
          throw badInput(`${upper} is not a ${this.arch} instruction`, {
            location,
            hint: `it exists on ${other}; pass --arch ${other}`,
          });
        const known = [...this.insnByName.keys(), ...[...this.tables.macros.keys()].map((k) => `TTI_${k}`)];
        const near = nearestName(t.text, known);
        throw badInput(`unknown instruction '${t.text}'`, {
          location,
          hint: near ? `did you mean ${near}?` : undefined,
        });
      }
    }
    return undefined;
  }

  /** A qualified name starting at offset k: its text and token count. */
  private qualifiedAhead(p: Parser, k: number): { name: string; len: number } {
    let j = k;
    let name = '';
    if (p.isPunct('::', j)) j++;
    for (;;) {
      const t = p.peek(j);
      if (t.kind !== 'ident') return { name, len: j - k };
      name += t.text;
      j++;
      if (p.isPunct('::', j) && p.peek(j + 1).kind === 'ident') {
        name += '::';
        j++;
        continue;
      }
      return { name, len: j - k };
    }
  }

  private ext(data: Ext, t: { line: number; col: number; file: string; use?: SrcLoc }, body?: Stmt[]): Stmt {
    const at = t.use ?? { file: t.file, line: t.line, col: t.col };
    return { kind: 'ext', data, at, body };
  }

  private endOfLine(p: Parser, lastLine: number): void {
    const t = p.peek();
    if (p.isPunct(';')) {
      p.next();
      return;
    }
    if (t.kind === 'eof' || t.line > lastLine || p.isPunct('}')) return;
    throw badInput(`expected end of statement but found ${p.describe(t)}`, {
      location: p.loc(t),
      hint: 'one instruction per line (or separate them with ;)',
    });
  }

  private directive(p: Parser): Stmt {
    const dot = p.next();
    const nameTok = p.next();
    const name = `.${nameTok.text}`;
    switch (name) {
      case '.word':
      case '.ttinsn': {
        const exprs = p.withinLine(dot.line, () => {
          const out = [p.assignment()];
          while (p.accept(',')) out.push(p.assignment());
          return out;
        });
        this.endOfLine(p, p.toks[p.pos - 1]!.line);
        return this.ext({ k: 'word', exprs, directive: name }, dot);
      }
      case '.rept': {
        const count = p.withinLine(dot.line, () => p.assignment());
        this.endOfLine(p, p.toks[p.pos - 1]!.line);
        const body: Stmt[] = [];
        for (;;) {
          const t = p.peek();
          if (t.kind === 'eof') throw badInput('.rept without a matching .endr', { location: p.loc(dot) });
          if (
            t.kind === 'punct' &&
            t.text === '.' &&
            p.peek(1).text === 'endr' &&
            p.peek(1).line === t.line
          ) {
            p.next();
            const e = p.next();
            this.endOfLine(p, e.line);
            break;
          }
          body.push(p.statement());
        }
        return this.ext({ k: 'rept', count }, dot, body);
      }
      case '.endr':
        throw badInput("'.endr' without a '.rept'", { location: p.loc(dot) });
    }
    const near = nearestName(name, ['.word', '.ttinsn', '.rept', '.endr']);
    throw badInput(`unknown directive '${name}'`, {
      location: p.loc(dot),
      hint: near ? `did you mean ${near}?` : 'the directives are .word, .rept N and .endr',
    });
  }

  private canonical(p: Parser, def: InsnDef): Stmt {
    const head = p.next();
    let last = head;
    const fields: { name: string; value: Expr; at: SrcLoc; nameAt: SrcLoc }[] = [];
    while (p.peek().kind === 'ident' && p.peek().line === head.line && p.isPunct('=', 1)) {
      const nameTok = p.next();
      p.next();
      const value = p.withinLine(head.line, () => p.conditional());
      last = p.toks[p.pos - 1]!;
      fields.push({ name: nameTok.text, value, at: value.at, nameAt: p.at(nameTok) });
    }
    this.endOfLine(p, last.line);
    return this.ext({ k: 'canonical', def, fields }, head);
  }

  private execExt(
    s: Stmt & { kind: 'ext' },
    ev: Evaluator,
    scope: import('../../cfront/eval.ts').Scope,
  ): void {
    const d = s.data as Ext;
    const loc = (at: SrcLoc) => ({ file: at.file, line: at.line, col: at.col });
    switch (d.k) {
      case 'word':
        for (const e of d.exprs) {
          const v = ev.eval(e, scope);
          const n = this.intArg(v, `${d.directive} value`, startOf(e));
          if (n < -(2n ** 31n) || n >= 2n ** 32n)
            throw badInput(`${d.directive} value ${n} does not fit in 32 bits`, {
              location: loc(startOf(e)),
            });
          this.emit(Number(BigInt.asUintN(32, n)), startOf(e), true);
        }
        return;
      case 'rept': {
        const n = this.intArg(ev.eval(d.count, scope), '.rept count', startOf(d.count));
        if (n < 0n || n > 65536n)
          throw badInput(`.rept count ${n} is out of range 0..65536`, { location: loc(startOf(d.count)) });
        for (let k = 0n; k < n; k++) {
          ev.budget.loop(1, loc(s.at));
          ev.execList(s.body ?? [], scope);
        }
        return;
      }
      case 'emit0':
        this.emit(d.m.def.opcode * 2 ** 24, s.at, true);
        return;
      case 'incrwc': {
        // sfpi's dst_reg++ / dst_reg += n: TTI_INCRWC(0, SFP_DESTREG_STRIDE * n, 0, 0)
        const n = d.n ? this.intArg(ev.eval(d.n, scope), `${d.name} += n`, d.n.at) : 1n;
        const incr = this.tables.macros.get('INCRWC')!;
        const rwcD = incr.args.find((a) => a.name === 'rwc_d')!;
        const v = (this.tables.constants.get('SFP_DESTREG_STRIDE') ?? 2n) * n;
        if (v < 0n || v >= 1n << BigInt(rwcD.width))
          throw badInput(`${d.name} += ${n} does not fit INCRWC's ${rwcD.width}-bit rwc_d`, {
            location: loc(s.at),
          });
        // in order with the traced SFPI operations (src/tensix/sfpi)
        this.sfpi.raw(incr.opcode * 2 ** 24 + Number(v) * 2 ** rwcD.shift, s.at);
        return;
      }
      case 'canonical':
        this.emit(
          this.canonicalWord(d.def, d.fields as never, ev, scope, s.at),
          s.at,
          d.fields.some((f) => normName(f.name) === normName(UNUSED_BITS)),
        );
        return;
    }
  }

  private canonicalWord(
    def: InsnDef,
    given0: { name: string; value: Expr; at: SrcLoc; nameAt: SrcLoc }[],
    ev: Evaluator,
    scope: import('../../cfront/eval.ts').Scope,
    head: SrcLoc,
  ): number {
    const loc = (at: SrcLoc) => ({ file: at.file, line: at.line, col: at.col });
    const given = new Map<string, { v: bigint; at: SrcLoc; nameAt: SrcLoc; name: string }>();
    for (const g of given0) {
      const key = normName(g.name);
      if (given.has(key))
        throw badInput(`${def.name}: field ${g.name} given twice`, { location: loc(g.nameAt) });
      given.set(key, {
        v: this.intArg(ev.eval(g.value, scope), `${def.name} field ${g.name}`, startOf(g.value)),
        at: startOf(g.value),
        nameAt: g.nameAt,
        name: g.name,
      });
    }
    const syn = syntaxOf(def);
    // Use the documented view (SFPLOADMACRO) when any of its own names appear, else the raw fields.
    const viewOnly = syn.view?.filter((f) => !syn.plain.some((g) => normName(g.name) === normName(f.name)));
    const fields: SyntaxField[] =
      syn.view && viewOnly!.some((f) => given.has(normName(f.name))) ? syn.view : syn.plain;
    let word = (def.opcode << 24) >>> 0;
    const unused = given.get(normName(UNUSED_BITS));
    if (unused) {
      given.delete(normName(UNUSED_BITS));
      if (unused.v < 0n || (unused.v & ~BigInt(def.reservedMask)) !== 0n) {
        throw badInput(
          `${def.name} ${UNUSED_BITS} = 0x${unused.v.toString(16)} is not within its unused bits (mask 0x${def.reservedMask.toString(16)})`,
          { location: loc(unused.at) },
        );
      }
      word = (word | Number(unused.v)) >>> 0;
    }
    const known = new Set(fields.map((f) => normName(f.name)));
    for (const [key, g] of given) {
      if (known.has(key)) continue;
      const all = [...syn.plain, ...(syn.view ?? [])].map((f) => f.name);
      const near = nearestName(g.name, all);
      const mixing = all.some((n) => normName(n) === key);
      throw badInput(`${def.name} has no field '${g.name}'${mixing ? ' in this form' : ''}`, {
        location: loc(g.nameAt),
        hint: mixing
          ? `write either ${syn.view!.map((f) => f.name).join(' ')} or ${syn.plain.map((f) => f.name).join(' ')}, not a mix`
          : near && normName(near) !== key
            ? `did you mean ${near}?`
            : `its fields are: ${fields.map((f) => f.name).join(', ') || '(none)'}`,
      });
    }
    const missing = fields.filter((f) => !given.has(normName(f.name)));
    if (missing.length > 0) {
      throw badInput(`${def.name}: missing field(s) ${missing.map((f) => f.name).join(', ')}`, {
        location: loc(head),
        hint: 'the canonical form names every field; the macro forms (TTI_…) take positional arguments',
      });
    }
    for (const f of fields) {
      const g = given.get(normName(f.name))!;
      const max = 2 ** f.width - 1;
      if (g.v < 0n || g.v > BigInt(max)) {
        throw badInput(`${def.name} field ${f.name} = ${g.v} does not fit in ${f.width} bit(s)`, {
          location: loc(g.at),
          hint:
            g.v < 0n
              ? `write it as a two's-complement field value, e.g. (${g.v}) & 0x${max.toString(16)}`
              : `the largest value is ${max}`,
        });
      }
      word = (word | placeValue(Number(g.v), f)) >>> 0;
    }
    return word;
  }

  result(): AssembleResult {
    this.sfpi.flush();
    return {
      words: Uint32Array.from(this.words),
      lines: this.lines,
      warnings: this.warnings,
      sources: this.sources,
      events: this.events,
    };
  }
}

const CPP_KEYWORDS = new Set([
  'break',
  'continue',
  'return',
  'else',
  'do',
  'default',
  'public',
  'private',
  'protected',
  'this',
  'true',
  'false',
  'nullptr',
]);

/** Where an expression starts in the source (a binary expression's position is its operator). */
export function startOf(e: Expr): SrcLoc {
  switch (e.kind) {
    case 'binary':
    case 'assign':
    case 'comma':
      return startOf(e.a);
    case 'cond':
      return startOf(e.c);
    case 'index':
    case 'postfix':
      return startOf(e.e);
    case 'member':
      return startOf(e.e);
    case 'call':
      return startOf(e.fn);
    default:
      return e.at;
  }
}

function checkArch(arch: Arch): Arch {
  // JavaScript callers may pass 'wh'/'bh' or a typo: normalise or reject, never guess.
  if (arch !== 'wormhole' && arch !== 'blackhole') return parseArch(String(arch));
  return arch;
}

/**
 * Compiles a kernel source (tt-llk style C++ with instruction macros) into Tensix words: top-level
 * statements run in order, then the entry (if given). Throws AxsimError at file:line:col.
 */
export function compileKernel(source: string, opts: KernelOptions): AssembleResult {
  const arch = checkArch(opts.arch);
  if (typeof source !== 'string') throw badInput('compileKernel: the source must be a string');
  const em = new TensixEmitter(arch, { maxWords: opts.maxWords, carry: true });
  try {
    const prog = loadProgram(source, {
      file: opts.file ?? '<input>',
      defines: opts.defines,
      includeDirs: opts.includeDirs,
      virtualFiles: opts.virtualFiles,
      includeCache: opts.includeCache,
      parseMemo: opts.parseMemo,
      // the statement hook's forms depend on the architecture's instruction tables only
      hostKey: `tensix kernel ${arch}`,
      budget: opts.budget ?? defaultBudget(),
      model: 'ilp32',
      host: em.host(opts.virtualFiles?.[SFPI_HEADER_FILE] === SFPI_VECTOR_H),
      script: true,
      statementHook: (p) => em.statementHook(p),
      // GCC vector typedefs (v64sf) carry SFPI value handles for sfpi-gcc's raw builtins (sfpi/builtins.ts)
      vectorTypedef: 'int',
    });
    em.ev = prog.ev;
    // the preprocessor's warnings (#warning, #line not applied) come first, as they were met first
    em.warnings.unshift(...prog.pp.warnings);
    em.mapConfigSpace(prog.ev);
    for (const m of opts.memory ?? []) {
      if (!Number.isInteger(m.base) || m.base < 4096 || m.base + m.bytes.length > 2 ** 32)
        throw badInput(`memory ${m.name} at 0x${m.base.toString(16)} is outside 0x1000..2^32`);
      prog.ev.mem.mapRegion(m.name, m.base, m.bytes.length).bytes.set(m.bytes);
    }
    prog.ev.runTopLevel();
    if (opts.entry !== undefined) runEntry(prog.ev, opts.entry, opts.file ?? '<input>');
    return em.result();
  } catch (e) {
    throw wrapInternal(e);
  }
}

function runEntry(ev: Evaluator, entry: string, file: string): void {
  const name = entry.replace(/\s+/g, '');
  if (/^[A-Za-z_][\w:]*$/.test(name)) {
    const fns = ev.functionNames();
    if (!fns.some((f) => f === name || f.endsWith(`::${name}`))) {
      const shortNames = [...new Set(fns.map((f) => f.split('::').pop()!))];
      const near = nearestName(name, shortNames);
      throw badInput(`no function '${entry}' in the source`, {
        location: { file },
        hint: near ? `did you mean ${near}?` : `the functions are: ${shortNames.join(', ') || '(none)'}`,
      });
    }
  }
  ev.callEntry(entry, '<entry>');
}

// ---- the `.sfpu` assembler form ----
export interface AssembleOptions {
  /** File name for error locations. */
  file?: string;
  /** Extra named constants, as if `#define`d before the source (e.g. a kernel's template parameters). */
  defines?: Readonly<Record<string, number | bigint>>;
  /** The most words a program may have (default 2^22), a guard against runaway loops. */
  maxWords?: number;
  /**
   * Run only this function: function definitions are then not run as they are read, and the named
   * one is run at the end (its parameters and template parameters come from `defines`).
   */
  entry?: string;
  budget?: Budget;
}

/**
 * Assembles kernel source for `arch` into 32-bit Tensix instruction words (opcode in bits 31:24, as
 * ttsim and the conformance vectors hold them). The `.sfpu` form: statements at file scope run in
 * order, and a function definition runs where it is read (its parameters from `defines`) unless an
 * `entry` is named. Throws AxsimErrors with file:line:col.
 */
export function assemble(source: string, arch: Arch, opts: AssembleOptions = {}): AssembleResult {
  arch = checkArch(arch);
  if (typeof source !== 'string') throw badInput('assemble: the source must be a string');
  const file = opts.file;
  const constants = new Map<string, bigint>();
  for (const [k, v] of Object.entries(opts.defines ?? {})) {
    if (typeof v !== 'bigint' && !Number.isSafeInteger(v)) {
      throw badInput(`define ${k} = ${String(v)} is not an integer`, { location: { file } });
    }
    constants.set(k, BigInt(v));
  }
  const em = new TensixEmitter(arch, { maxWords: opts.maxWords, constants, asm: true });
  try {
    const prog = loadProgram(source, {
      file: file ?? '<input>',
      budget: opts.budget ?? new Budget({ loops: 1 << 20 }),
      model: 'ilp32',
      host: em.host(),
      script: true,
      statementHook: (p) => em.statementHook(p),
      optionalSemicolon: true,
    });
    em.ev = prog.ev;
    // the preprocessor's warnings (#warning, #line not applied) come first, as they were met first
    em.warnings.unshift(...prog.pp.warnings);
    em.mapConfigSpace(prog.ev);
    const ev = prog.ev;
    const get = (name: string): Value | undefined => {
      const v = constants.get(name);
      return v === undefined ? undefined : { k: 'int', t: I32, v };
    };
    const runAsRead = (f: import('../../cfront/ast.ts').FuncDecl) => {
      try {
        ev.callWith(f, get);
      } catch (e) {
        if (
          e instanceof AxsimError &&
          e.message.startsWith('unknown name') &&
          (f.params.length || f.tparams?.length)
        ) {
          throw new AxsimError(e.category, e.message, {
            location: e.location,
            hint: `${e.hint ? `${e.hint}; ` : ''}${f.name} runs as it is read: define its parameters (${[...(f.tparams ?? []).map((p) => p.name), ...f.params.map((q) => q.name)].join(', ')}) or choose the function to run (entry, --entry NAME)`,
          });
        }
        throw e;
      }
    };
    ev.runTopLevel(opts.entry === undefined ? { onFunction: runAsRead } : {});
    if (opts.entry !== undefined) {
      const name = opts.entry;
      if (/^[A-Za-z_][\w:]*$/.test(name)) {
        const found = ev.functionDecls().filter((f) => f.name === name || f.name.endsWith(`::${name}`));
        if (found.length === 0) {
          const shortNames = [...new Set(ev.functionNames().map((f) => f.split('::').pop()!))];
          const near = nearestName(name, shortNames);
          throw badInput(`no function '${name}' in the source`, {
            location: { file },
            hint: near ? `did you mean ${near}?` : `the functions are: ${shortNames.join(', ') || '(none)'}`,
          });
        }
        runAsRead(found[found.length - 1]!.decl);
      } else ev.callEntry(name, '<entry>');
    }
    return em.result();
  } catch (e) {
    throw wrapInternal(e);
  }
}
