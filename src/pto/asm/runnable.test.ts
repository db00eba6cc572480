// `axsim pto check` names the ops that verify but cannot run (notRunnable): pto.subset, found inside
// nested regions, with its line:col; programs with only modelled ops report nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OPS } from '../registry.ts';
import { OP_SIGS } from './ops.ts';
import { parsePtoAs } from './parser.ts';
import { notRunnable } from './runnable.ts';
import { verifyDiagnostics } from './verify.ts';

const T =
  '!pto.tile_buf<loc=vec, dtype=f32, rows=64, cols=64, v_row=64, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const S =
  '!pto.tile_buf<loc=vec, dtype=f32, rows=32, cols=32, v_row=32, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>';

test('pto.subset inside scf.for is reported with its position; tile ops all have a model', () => {
  const src = [
    'module {',
    '  func.func @k() {',
    '    %c0 = arith.constant 0 : index',
    '    %c1 = arith.constant 1 : index',
    '    %c2 = arith.constant 2 : index',
    `    %t = pto.alloc_tile : ${T}`,
    '    scf.for %i = %c0 to %c2 step %c1 {',
    `      %s = pto.subset %t[%c0, %c0] sizes [32, 32] : ${S}`,
    `      pto.tabs ins(%s : ${S}) outs(%s : ${S})`,
    '    }',
    '    return',
    '  }',
    '}',
  ].join('\n');
  const m = parsePtoAs(src);
  assert.deepEqual(
    verifyDiagnostics(m).map((d) => d.message),
    [],
  );
  const n = notRunnable(m);
  assert.equal(n.length, 1);
  assert.equal(n[0]!.op, 'pto.subset');
  assert.deepEqual([n[0]!.pos.line, n[0]!.pos.col], [8, 7]);
  // every mnemonic the parser accepts maps to a registered instruction
  assert.deepEqual(
    [...OP_SIGS.values()].filter((s) => !OPS.has(s.insn)).map((s) => s.mnemonic),
    [],
  );
});
