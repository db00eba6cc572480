import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/axsim.js', import.meta.url));
const axsim = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
const tmp = mkdtempSync(join(tmpdir(), 'axsim-asm-kernel-'));

describe('axsim tensix asm kernel.h --entry -D -I (C++ kernel headers)', () => {
  // Our own kernel: a helper from an include directory, a template entry, an #ifdef'd form.
  mkdirSync(join(tmp, 'inc'));
  writeFileSync(
    join(tmp, 'inc', 'helper.h'),
    '#pragma once\ninline void twice() { TTI_SFPNOP; TTI_SFPNOP; }\n',
  );
  const k = join(tmp, 'k.h');
  writeFileSync(
    k,
    '#include "helper.h"\ntemplate <int N>\ninline void run(const int base)\n{\n#ifdef EXTRA\n    twice();\n#endif\n' +
      '    for (int i = 0; i < N; i++) TT_SFPLOADI(p_sfpu::LREG1, 0, base + i);\n}\n',
  );
  it('compiles the entry with -D and -I, words at the kernel lines', () => {
    const r = axsim([
      'tensix',
      'asm',
      k,
      '--entry',
      'run<2>(7)',
      '-D',
      'EXTRA=1',
      '-I',
      join(tmp, 'inc'),
      '--hex',
    ]);
    assert.equal(r.status, 0, r.stderr);
    // SFPNOP = 0x8f000000 (twice, from the helper, mapped to the call on line 6); SFPLOADI(1, 0, v) = 0x71100000 | v
    assert.equal(
      r.stdout,
      '# axsim tensix words arch=wormhole\n0x8f000000\n0x8f000000\n0x71100007\n0x71100008\n',
    );
    const j = JSON.parse(
      axsim(['tensix', 'asm', k, '--entry', 'run<1>(0)', '-D', 'EXTRA', '-I', join(tmp, 'inc'), '--json'])
        .stdout,
    ) as {
      lines: number[];
    };
    assert.deepEqual(j.lines, [6, 6, 8]);
  });
  it('reports a missing include and unsupported C++ at file:line:col', () => {
    const r = axsim(['tensix', 'asm', k, '--entry', 'run<1>(0)']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /k\.h:1:2: BadInput: #include: cannot find "helper\.h"/);
    const bad = join(tmp, 'bad.h');
    writeFileSync(bad, 'void f() {\n  goto done;\n}\n');
    const b = axsim(['tensix', 'asm', bad, '--entry', 'f']);
    assert.match(b.stderr, /bad\.h:2:3: Unsupported: unsupported C\+\+: goto/);
  });
});
