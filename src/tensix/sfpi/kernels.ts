/**
 * sfpi's `tests/<arch>/sfpi/kernels.cc` with its expected outputs `gold/kernels_float` and
 * `gold/kernels_int` (issue 12). Upstream, kernels.cc is built for x86 against sfpi's own software
 * SFPU model (`sfpu.cc`, `-DCOMPILE_FOR_EMULE`) and run as `kernels 17` (floats, `%4.6f`) and
 * `kernels 17 b` (raw bits, `%04X`): its main() fills lane i of `dst_reg[0]` with i, enables the CC
 * (`sfpencc(3, EI_RI)`), runs test1 .. test17 (test12..14 with `param_global` = 35), then prints rows
 * 0..17 (`dst_reg[0..17]`, 32 lanes each).
 *
 * axsim does the same on its Tensix machine: every test compiled by the SFPI compiler (the real,
 * non-emulator path of kernels.cc), the words run in order after the same SFPENCC, the lanes read back
 * (lane l of dst_reg[j] is Dst32b row 4*floor(j/2) + l/8, column 2*(l%8) + j%2, per SFPLOAD/SFPSTORE's
 * lane mapping) and printed in the same format, then compared lane by lane. A test axsim cannot compile
 * is skipped (and named); its rows then differ.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxsimError } from '../../errors.ts';
import { type Arch, encode } from '../encoding.ts';
import { TensixMachine } from '../index.ts';
import { applyHwConfigure } from '../llk/run.ts';
import { compileSfpi } from './compile.ts';

/** The calls main() makes (kernels.cc test_kernel with row 17), in order. */
export const KERNEL_TESTS = [
  'test1',
  'test2',
  'test3',
  'test4',
  'test5',
  'test6',
  'test7',
  'test8',
  'test9',
  'test10',
  'test11',
  'test12(35)',
  'test13(35)',
  'test14(35)',
  'test15',
  'test16',
  'test17',
];
const ROWS = 18;
const LANES = 32;

export interface KernelsResult {
  /** Per test: compiled and run, or why not. */
  tests: { call: string; error?: string }[];
  /** Per row 0..17: the 32 lanes' raw bits. */
  bits: number[][];
}

/** Dst32b element index of lane `l` of dst_reg[j] (row-major, 16 columns). */
const laneAt = (j: number, l: number) => (4 * Math.floor(j / 2) + (l >> 3)) * 16 + 2 * (l & 7) + (j & 1);

/** Runs kernels.cc's tests on axsim as the upstream main() runs them on sfpi's emulator. */
export function runKernelsTest(root: string, arch: Arch): KernelsResult {
  const dir = join(root, 'tests', arch, 'sfpi');
  const file = join(dir, 'kernels.cc');
  const source = readFileSync(file, 'utf8');
  const m = new TensixMachine(arch);
  applyHwConfigure(m, {}); // FP32 Dst, as the emulator's 32-bit Dst
  const n = 64 * 16;
  const dst = m.readDstRows(0, n, 'fp32');
  const f32 = new DataView(new ArrayBuffer(4));
  for (let l = 0; l < LANES; l++) {
    f32.setFloat32(0, l, true);
    dst[laneAt(0, l)] = f32.getUint32(0, true);
  }
  m.writeDstRows(0, dst, 'fp32');
  // main(): __builtin_rvtt_sfpencc(3, SFPENCC_MOD1_EI_RI) before the tests
  const words = [encode('SFPENCC', { imm12_math: 3, lreg_dest: 0, instr_mod1: 10 }, arch)];
  const tests: KernelsResult['tests'] = [];
  for (const call of KERNEL_TESTS) {
    try {
      const r = compileSfpi(source, arch, {
        file,
        entry: call,
        includeDirs: [dir, join(root, 'tests', 'common', 'include')],
        virtualFiles: { cstdio: '', 'stdio.h': '' },
      });
      words.push(...Array.from(r.words));
      tests.push({ call });
    } catch (e) {
      tests.push({ call, error: e instanceof AxsimError ? e.message.split('\n')[0]! : String(e) });
    }
  }
  m.run(words);
  const out = m.readDstRows(0, n, 'fp32');
  const bits = Array.from({ length: ROWS }, (_, j) =>
    Array.from({ length: LANES }, (_, l) => out[laneAt(j, l)]! >>> 0),
  );
  return { tests, bits };
}

/** glibc printf `%4.6f` of the float with these bits (nan / -nan / inf as glibc prints them). */
export function printfFloat(b: number): string {
  const v = new DataView(new ArrayBuffer(4));
  v.setUint32(0, b >>> 0, true);
  const x = v.getFloat32(0, true);
  const neg = b >>> 31 === 1;
  const s = Number.isNaN(x) ? 'nan' : !Number.isFinite(x) ? 'inf' : Math.abs(x).toFixed(6);
  return `${neg ? '-' : ''}${s}`.padStart(4, ' ');
}

/** printf `%04X`. */
export function printfHex(b: number): string {
  return (b >>> 0).toString(16).toUpperCase().padStart(4, '0');
}

/** The program's output in the gold file's form (`kernels 17` or `kernels 17 b`). */
export function kernelsText(bits: readonly number[][], ints: boolean): string {
  let s = '';
  for (let i = 1; i <= 17; i++) s += `Testing ${i}\n`;
  bits.forEach((row, j) => {
    s += `Row: ${j}\n${row.map((b) => `${ints ? printfHex(b) : printfFloat(b)} `).join('')}\n\n`;
  });
  return s;
}

/** Lane-by-lane comparison with a gold file: per row, the lanes whose printed value differs. */
export function compareKernels(ours: string, gold: string): { row: number; lanes: number[] }[] {
  const rows = (t: string) => {
    const m = new Map<number, string[]>();
    const lines = t.split('\n');
    lines.forEach((l, i) => {
      const r = /^Row: (\d+)$/.exec(l);
      if (r) m.set(Number(r[1]), (lines[i + 1] ?? '').trim().split(/\s+/));
    });
    return m;
  };
  const a = rows(ours);
  const g = rows(gold);
  return [...g.keys()].map((row) => {
    const x = a.get(row) ?? [];
    const y = g.get(row)!;
    const lanes: number[] = [];
    for (let l = 0; l < Math.max(x.length, y.length); l++) if (x[l] !== y[l]) lanes.push(l);
    return { row, lanes };
  });
}
