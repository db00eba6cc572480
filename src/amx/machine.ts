/**
 * `AmxMachine`: one AMX context and its memory behind the verbs every axsim machine has (docs/api.md):
 * create, `load` (text -> program), `run`, read/write state, `snapshot`/`restore`, `reset`.
 * It wraps `AmxState` (`machine.state`) and the assembler; nothing here computes on its own.
 */
import { badInput } from '../errors.ts';
import { type AmxProgram, assemble, runProgram } from './asm.ts';
import { type AmxGen, AmxMemory, AmxState, parseGen } from './state.ts';

/** A copy of everything an AMX program can change. */
export interface AmxSnapshot {
  readonly gen: AmxGen;
  readonly x: Uint8Array;
  readonly y: Uint8Array;
  readonly z: Uint8Array;
  readonly enabled: boolean;
  /** Memory pages by page key (AmxMemory.pages), copied. */
  readonly pages: ReadonlyMap<number, Uint8Array>;
}

export type AmxRegister = 'x' | 'y' | 'z';

export class AmxMachine {
  readonly state: AmxState;

  constructor(gen: AmxGen | string = 'm1') {
    this.state = new AmxState({ gen: parseGen(gen) });
  }

  get gen(): AmxGen {
    return this.state.gen;
  }

  /** Zeroes the registers, leaves the set/clr state off and drops all memory. */
  reset(): void {
    this.state.clearRegisters();
    this.state.enabled = false;
    this.state.mem = new AmxMemory();
  }

  /** Assembles program text (docs/amx.md: named fields, raw operands, `.data` blocks). */
  load(source: string, opts: { file?: string } = {}): AmxProgram {
    return assemble(source, opts.file);
  }

  /** Writes the program's `.data` blocks to memory, then executes its operations in order. */
  run(program: AmxProgram | string): void {
    runProgram(typeof program === 'string' ? this.load(program) : program, this.state);
  }

  /**
   * Runs operations `from` .. `to - 1` of a loaded program (default: the one at `from`), for
   * steppers: step 0 first writes the `.data` blocks, so from a snapshot taken before the program
   * `step(p, 0, k)` leaves the state `run` has after k operations.
   */
  step(program: AmxProgram, from: number, to = from + 1): void {
    runProgram(program, this.state, { from, to });
  }

  /** `len` bytes of memory from `addr` (every byte must be mapped: written or `map`ped before). */
  readMemory(addr: bigint | number, len: number): Uint8Array {
    return this.state.mem.readBytes(BigInt(addr), len);
  }

  /** Writes bytes to memory at `addr`, mapping the pages they need. */
  writeMemory(addr: bigint | number, bytes: Uint8Array): void {
    this.state.mem.writeBytes(BigInt(addr), bytes);
  }

  /** A copy of register file X or Y (8 rows x 64 bytes) or Z (64 rows x 64 bytes), little-endian bytes. */
  readRegister(reg: AmxRegister): Uint8Array {
    return this.register(reg).slice();
  }

  /** Overwrites a register file from `offset` (in bytes). */
  writeRegister(reg: AmxRegister, bytes: Uint8Array, offset = 0): void {
    const r = this.register(reg);
    if (!Number.isInteger(offset) || offset < 0 || offset + bytes.length > r.length) {
      throw badInput(
        `${bytes.length} bytes at offset ${offset} do not fit register file ${reg} (${r.length} bytes)`,
      );
    }
    r.set(bytes, offset);
  }

  snapshot(): AmxSnapshot {
    const s = this.state;
    const pages = new Map<number, Uint8Array>();
    for (const [k, p] of s.mem.pages) pages.set(k, p.slice());
    return { gen: s.gen, x: s.x.slice(), y: s.y.slice(), z: s.z.slice(), enabled: s.enabled, pages };
  }

  restore(snap: AmxSnapshot): void {
    const s = this.state;
    if (snap.gen !== s.gen)
      throw badInput(`a snapshot of an ${snap.gen} context cannot be restored on ${s.gen}`);
    s.x.set(snap.x);
    s.y.set(snap.y);
    s.z.set(snap.z);
    s.enabled = snap.enabled;
    const mem = new AmxMemory();
    for (const [k, p] of snap.pages) mem.pages.set(k, p.slice());
    s.mem = mem;
  }

  private register(reg: AmxRegister): Uint8Array {
    if (reg === 'x' || reg === 'y' || reg === 'z') return this.state[reg];
    throw badInput(`unknown AMX register file '${String(reg)}'`, { hint: 'x, y or z' });
  }
}
