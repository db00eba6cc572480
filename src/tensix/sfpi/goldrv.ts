/**
 * Gold functions with RISC-V code (sfpi's tests whose gold listing computes instruction words at run
 * time or branches on an argument), made comparable by running that code with the arguments bound:
 * a small interpreter of the RV32 subset sfpi-gcc's listings use (li, lui, addi, add, and, slli, ...,
 * lw/sw, the branches, j, ret). A `sw` to the address read from `ckernel::instrn_buffer` issues the
 * stored word as a Tensix instruction (sfpi-gcc's run-time operands: `sw a4, 0(a3)  # Op(0x70)`), a
 * Tensix line in the listing issues itself, in program order. axsim then compiles the same function
 * with the same argument values (it runs the scalar C++ with the arguments known), and the two
 * instruction sequences are compared as for any other function.
 */
import { unsupported } from '../../errors.ts';
import type { Arch } from '../encoding.ts';
import { decodeWord, expandReplay, type GoldInsn, type GoldLine, parseTensixLine } from './gold.ts';

/** The instruction-buffer pointer's value (any address the listing cannot otherwise produce). */
const INSTRN = 0x7ffe0000;
const STEPS = 100_000;

const refuse = (why: string) =>
  unsupported(`the gold listing's RISC-V code ${why}`, { hint: 'docs/sfpi-gold.md: not comparable' });

/**
 * Runs one gold function's lines with `args` in a0..; returns the Tensix instructions it issues and how
 * many of them were words built at run time (stored to the instruction buffer).
 */
export function runGoldRiscv(
  lines: readonly GoldLine[],
  args: readonly number[],
  arch: Arch,
): { insns: GoldInsn[]; built: number } {
  const labels = new Map<string, number>();
  lines.forEach((l, i) => {
    if (l.label !== undefined) labels.set(l.label, i);
  });
  const reg = new Map<string, number>([
    ['sp', 0x10000],
    ['ra', -1],
  ]);
  for (let i = 0; i < args.length; i++) reg.set(`a${i}`, args[i]! | 0);
  // callee-saved registers hold the caller's values (saved and restored by the prologue / epilogue)
  for (let i = 0; i < 12; i++) reg.set(`s${i}`, 0);
  let built = 0;
  const R = (n: string): number => {
    if (n === 'zero' || n === 'x0') return 0;
    const v = reg.get(n);
    if (v === undefined) throw refuse(`reads register ${n} before writing it`);
    return v;
  };
  const W = (n: string, v: number) => {
    if (n !== 'zero' && n !== 'x0') reg.set(n, v | 0);
  };
  const imm = (t: string): number => {
    if (/^%(hi|lo)\(/.test(t)) return 0; // a symbol's address parts: symbols are read by name (lw)
    if (/^-?(0x[0-9a-f]+|\d+)$/i.test(t)) return Number(t) | 0;
    throw refuse(`has the operand '${t}'`);
  };
  const mem = new Map<number, number>();
  const out: GoldInsn[] = [];
  const jump = (label: string) => {
    const to = labels.get(label);
    if (to === undefined) throw refuse(`jumps to '${label}' outside the function`);
    return to;
  };
  let pc = 0;
  for (let steps = 0; pc < lines.length; steps++) {
    if (steps > STEPS) throw refuse(`does not return within ${STEPS} steps`);
    const l = lines[pc++]!;
    if (!l.name) continue;
    const tensix = parseTensixLine(l.name, l.args);
    if (tensix) {
      out.push(tensix);
      continue;
    }
    const a = l.args ? l.args.split(',').map((x) => x.trim()) : [];
    const mem0 = (t: string) => {
      const m = /^(.*)\((\w+)\)$/.exec(t);
      if (!m) throw refuse(`has the memory operand '${t}'`);
      return { off: m[1]!, base: m[2]! };
    };
    const bin = (f: (x: number, y: number) => number, viaImm: boolean) =>
      W(a[0]!, f(R(a[1]!), viaImm ? imm(a[2]!) : R(a[2]!)));
    const branch = (c: boolean) => {
      if (c) pc = jump(a[a.length - 1]!);
    };
    switch (l.name) {
      case 'li':
        W(a[0]!, imm(a[1]!));
        break;
      case 'lui':
        W(a[0]!, a[1]!.startsWith('%hi') ? 0 : imm(a[1]!) << 12);
        break;
      case 'mv':
        W(a[0]!, R(a[1]!));
        break;
      case 'neg':
        W(a[0]!, -R(a[1]!));
        break;
      case 'not':
        W(a[0]!, ~R(a[1]!));
        break;
      case 'snez':
        W(a[0]!, R(a[1]!) !== 0 ? 1 : 0);
        break;
      case 'seqz':
        W(a[0]!, R(a[1]!) === 0 ? 1 : 0);
        break;
      case 'add':
      case 'addi':
        bin((x, y) => x + y, l.name === 'addi');
        break;
      case 'sub':
        bin((x, y) => x - y, false);
        break;
      case 'mul':
        bin((x, y) => Math.imul(x, y), false);
        break;
      case 'and':
      case 'andi':
        bin((x, y) => x & y, l.name === 'andi');
        break;
      case 'or':
      case 'ori':
        bin((x, y) => x | y, l.name === 'ori');
        break;
      case 'xor':
      case 'xori':
        bin((x, y) => x ^ y, l.name === 'xori');
        break;
      case 'sll':
      case 'slli':
        bin((x, y) => x << (y & 31), l.name === 'slli');
        break;
      case 'srl':
      case 'srli':
        bin((x, y) => x >>> (y & 31), l.name === 'srli');
        break;
      case 'sra':
      case 'srai':
        bin((x, y) => x >> (y & 31), l.name === 'srai');
        break;
      case 'slt':
      case 'slti':
        bin((x, y) => (x < y ? 1 : 0), l.name === 'slti');
        break;
      case 'sltu':
      case 'sltiu':
        bin((x, y) => (x >>> 0 < y >>> 0 ? 1 : 0), l.name === 'sltiu');
        break;
      case 'lw': {
        const { off, base } = mem0(a[1]!);
        const sym = /^%lo\((.+)\)$/.exec(off);
        if (sym) {
          if (!/instrn_buffer/.test(sym[1]!)) throw refuse(`reads the global '${sym[1]}'`);
          W(a[0]!, INSTRN);
        } else {
          const v = mem.get(R(base) + imm(off));
          if (v === undefined) throw refuse('reads memory it did not write');
          W(a[0]!, v);
        }
        break;
      }
      case 'sw': {
        const { off, base } = mem0(a[1]!);
        const at = R(base) + imm(off);
        if (at === INSTRN) {
          out.push(decodeWord(R(a[0]!) >>> 0, arch));
          built++;
        } else mem.set(at, R(a[0]!));
        break;
      }
      case 'beq':
        branch(R(a[0]!) === R(a[1]!));
        break;
      case 'bne':
        branch(R(a[0]!) !== R(a[1]!));
        break;
      case 'blt':
        branch(R(a[0]!) < R(a[1]!));
        break;
      case 'bge':
        branch(R(a[0]!) >= R(a[1]!));
        break;
      case 'ble':
        branch(R(a[0]!) <= R(a[1]!));
        break;
      case 'bgt':
        branch(R(a[0]!) > R(a[1]!));
        break;
      case 'bltu':
        branch(R(a[0]!) >>> 0 < R(a[1]!) >>> 0);
        break;
      case 'bgeu':
        branch(R(a[0]!) >>> 0 >= R(a[1]!) >>> 0);
        break;
      case 'bleu':
        branch(R(a[0]!) >>> 0 <= R(a[1]!) >>> 0);
        break;
      case 'bgtu':
        branch(R(a[0]!) >>> 0 > R(a[1]!) >>> 0);
        break;
      case 'beqz':
        branch(R(a[0]!) === 0);
        break;
      case 'bnez':
        branch(R(a[0]!) !== 0);
        break;
      case 'blez':
        branch(R(a[0]!) <= 0);
        break;
      case 'bgez':
        branch(R(a[0]!) >= 0);
        break;
      case 'bltz':
        branch(R(a[0]!) < 0);
        break;
      case 'bgtz':
        branch(R(a[0]!) > 0);
        break;
      case 'j':
        pc = jump(a[0]!);
        break;
      case 'ret':
        return { insns: expandReplay(out), built };
      case 'jr':
        if (a[0] === 'ra') return { insns: expandReplay(out), built };
        throw refuse('jumps through a register');
      case 'call':
      case 'tail':
        throw refuse(`calls another function (${a[0]})`);
      default:
        throw refuse(`has '${l.name}', which the comparison does not interpret`);
    }
  }
  return { insns: expandReplay(out), built };
}
