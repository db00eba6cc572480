import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseWordList } from './tensix.ts';

const bin = fileURLToPath(new URL('../../bin/axsim.js', import.meta.url));
const axsim = (args: string[], input?: string) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', input });
const tmp = mkdtempSync(join(tmpdir(), 'axsim-asm-'));

describe('axsim tensix asm / disasm', () => {
  const src = join(tmp, 'k.sfpu');
  // tt-llk leaky ReLU lines (ckernel_sfpu_relu.h); words computed from ckernel_ops.h by hand.
  writeFileSync(
    src,
    'TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);\n' +
      'TTI_SFPMUL(p_sfpu::LREG0, p_sfpu::LREG2, p_sfpu::LCONST_0, p_sfpu::LREG0, 0);\n',
  );

  it('asm prints each word with its source line; --hex only the words', () => {
    const r = axsim(['tensix', 'asm', src]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), [
      '# axsim tensix words arch=wormhole',
      '0x7000c000  // line 1: SFPLOAD lreg_ind=0 instr_mod0=0 sfpu_addr_mode=3 dest_reg_addr=0',
      '0x86002900  // line 2: SFPMUL lreg_src_a=0 lreg_src_b=2 lreg_src_c=9 lreg_dest=0 instr_mod1=0',
    ]);
    const h = axsim(['tensix', 'asm', src, '--hex', '--arch', 'bh']);
    assert.equal(h.stdout, '# axsim tensix words arch=blackhole\n0x70006000\n0x86002900\n');
  });

  it('asm --json and -o binary, then disasm of the binary', () => {
    const out = join(tmp, 'k.bin');
    const r = axsim(['tensix', 'asm', src, '--json', '-o', out]);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as { arch: string; words: string[]; lines: number[] };
    assert.deepEqual(j.words, ['0x7000c000', '0x86002900']);
    assert.deepEqual(j.lines, [1, 2]);
    assert.deepEqual([...readFileSync(out)], [0x00, 0xc0, 0x00, 0x70, 0x00, 0x29, 0x00, 0x86]);
    const d = axsim(['tensix', 'disasm', out, '--no-comments']);
    assert.equal(d.status, 0, d.stderr);
    assert.equal(
      d.stdout,
      'SFPLOAD lreg_ind=0 instr_mod0=0 sfpu_addr_mode=3 dest_reg_addr=0\nSFPMUL lreg_src_a=0 lreg_src_b=2 lreg_src_c=9 lreg_dest=0 instr_mod1=0\n',
    );
  });

  it('disasm reads --words and hex text from stdin; its output assembles back', () => {
    const d = axsim(['tensix', 'disasm', '--words', '0x84067560,0x12345678']);
    assert.equal(d.status, 0, d.stderr);
    const lines = d.stdout.trim().split('\n');
    assert.match(
      lines[0]!,
      /^SFPMAD lreg_src_a=6 lreg_src_b=7 lreg_src_c=5 lreg_dest=6 instr_mod1=0 +\/\/ \[0\] 0x84067560$/,
    );
    assert.match(
      lines[1]!,
      /^\.word 0x12345678 +\/\/ \[1\] 0x12345678: no wormhole instruction has opcode 0x12$/,
    );
    const a = axsim(['tensix', 'asm', '-', '--hex'], d.stdout);
    assert.equal(a.status, 0, a.stderr);
    assert.equal(a.stdout, '# axsim tensix words arch=wormhole\n0x84067560\n0x12345678\n');
    const s = axsim(['tensix', 'disasm', '-', '--no-comments'], '0x8f000000 // nop\n8c000000\n');
    assert.equal(s.stdout, 'SFPNOP\nSFPTRANSP lreg_dest=0\n');
  });

  it('disasm --macro prints tt-llk calls that asm reads back', () => {
    const d = axsim(['tensix', 'disasm', '--words', '0x84010b10,0x7000c000', '--macro', '--no-comments']);
    assert.equal(d.status, 0, d.stderr);
    assert.equal(
      d.stdout,
      'TTI_SFPMAD(p_sfpu::LREG1, p_sfpu::LREG0, p_sfpu::LREG11, p_sfpu::LREG1, 0);\nTTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);\n',
    );
    assert.equal(
      axsim(['tensix', 'asm', '-', '--hex'], d.stdout).stdout,
      '# axsim tensix words arch=wormhole\n0x84010b10\n0x7000c000\n',
    );
  });

  it('asm --entry and -D run one kernel function', () => {
    const f = join(tmp, 'fns.cpp');
    writeFileSync(
      f,
      'inline void helper(int n) { TTI_SFPLOADI(0, 0, n); }\n' +
        'template <int N>\ninline void kernel() { for (int i = 0; i < N; i++) helper(i + 1); }\n',
    );
    const r = axsim(['tensix', 'asm', f, '--hex', '--entry', 'kernel', '-D', 'N=2']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '# axsim tensix words arch=wormhole\n0x71000001\n0x71000002\n');
  });

  it('reports errors with file:line:col and exit code 2', () => {
    const bad = join(tmp, 'bad.sfpu');
    writeFileSync(bad, 'TTI_SFPNOP;\n  TTI_SFPMAD(p_sfpu::LREG1, 0, 0, 0, p_sfpu::LREG);\n');
    const r = axsim(['tensix', 'asm', bad]);
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      new RegExp(
        `^axsim: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:38: BadInput: unknown name 'p_sfpu::LREG'`,
      ),
    );
    const d = axsim(['tensix', 'disasm', '--words', '0x1,zz']);
    assert.equal(d.status, 2);
    const odd = join(tmp, 'odd.bin');
    writeFileSync(odd, Buffer.from([1, 2, 3]));
    assert.match(axsim(['tensix', 'disasm', odd]).stderr, /3 bytes, not a whole number of 32-bit words/);
  });

  it('parseWordList takes 0x… tokens and bare 8-digit hex only', () => {
    assert.deepEqual(parseWordList('0x1, 0X84067560\n8f000000 # c'), [1, 0x84067560, 0x8f000000]);
    assert.equal(parseWordList('123'), undefined);
    assert.equal(parseWordList(''), undefined);
  });
});
