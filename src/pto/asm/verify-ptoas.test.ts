// ptoas's own verifier rules (verify-ptoas.ts) on the project's fixtures: each rejection names the
// rule at line:col, and the corrected program verifies.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePtoAs } from './parser.ts';
import { type VerifyOptions, verifyDiagnostics } from './verify.ts';

function diags(src: string, opts: VerifyOptions = {}): string[] {
  return verifyDiagnostics(parsePtoAs(src), opts).map((d) => `${d.line}:${d.col}: ${d.message}`);
}
const fn = (body: string[], sig = '@k()') =>
  [`func.func ${sig} {`, ...body.map((l) => `  ${l}`), '  return', '}'].join('\n');

test('tcvt: same shape and same static valid shape', () => {
  const A = '!pto.tile_buf<vec, 16x16xf32>';
  const bad = fn([
    `%a = pto.alloc_tile : ${A}`,
    '%h = pto.alloc_tile : !pto.tile_buf<vec, 16x32xf16>',
    `pto.tcvt ins(%a : ${A}) outs(%h : !pto.tile_buf<vec, 16x32xf16>)`,
  ]);
  assert.match(diags(bad)[0]!, /^4:3: pto\.tcvt: expects src and dst to have compatible shapes/);
  const badValid = fn([
    `%a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32, valid=8x16>`,
    '%h = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf16>',
    `pto.tcvt ins(%a : !pto.tile_buf<vec, 16x16xf32, valid=8x16>) outs(%h : !pto.tile_buf<vec, 16x16xf16>)`,
  ]);
  assert.match(diags(badValid)[0]!, /same valid_shape/);
  const good = bad.replaceAll('16x32xf16', '16x16xf16');
  assert.deepEqual(diags(good), []);
});

test('tstore (ptoas target): a static partition holds exactly the static valid elements', () => {
  const T = '!pto.tile_buf<vec, 64x64xf32, valid=32x32>';
  const src = (n: number) =>
    fn(
      [
        `%t = pto.alloc_tile : ${T}`,
        `pto.tstore ins(%t : ${T}) outs(%p : !pto.partition_tensor_view<${n}x${n}xf32>)`,
      ],
      `@k(%p: !pto.partition_tensor_view<${'N'}xNxf32>)`.replace('NxN', `${n}x${n}`).replace('<N', `<${n}`),
    );
  assert.match(
    diags(src(64), { arch: 'a3' })[0]!,
    /expects dst static element count \(4096\) to match src valid element count \(1024\)/,
  );
  assert.deepEqual(diags(src(32), { arch: 'a3' }), []);
  // axsim's own reading (no target arch): the valid region is stored into the larger view
  assert.deepEqual(diags(src(64)), []);
});

test('entry functions return void; recursion is rejected; level 3 needs addresses', () => {
  assert.match(
    diags('func.func @k(%a: i32) -> i32 {\n  return %a : i32\n}\n', { arch: 'a3' })[0]!,
    /^1:1: func\.func @k: PTO entry functions must return void/,
  );
  // axsim's Level-1 functions may return tiles: the rule is ptoas's (a target arch)
  assert.deepEqual(diags('func.func @k(%a: i32) -> i32 {\n  return %a : i32\n}\n'), []);
  const rec =
    'module {\n  func.func @k() attributes {pto.entry} {\n    func.call @h() : () -> ()\n    return\n  }\n  func.func private @h() {\n    func.call @h() : () -> ()\n    return\n  }\n}\n';
  assert.match(diags(rec)[0]!, /^7:5: func\.call @h: recursive function calls are not supported/);
  assert.deepEqual(
    diags(rec.replace('    func.call @h() : () -> ()\n    return\n  }\n}', '    return\n  }\n}')),
    [],
  );
  const T = '!pto.tile_buf<vec, 16x16xf32>';
  const l3 = fn([`%t = pto.alloc_tile : ${T}`]);
  assert.match(
    diags(l3, { level: 'level3' })[0]!,
    /^2:3: pto\.alloc_tile: requires 'addr' operand when --pto-level=level3/,
  );
  assert.deepEqual(diags(l3), []);
});

test('arch rules apply only with an arch: tsel on A2/A3, thistogram A5 only, A5 vec->vec textract layout', () => {
  const I = '!pto.tile_buf<vec, 2x128xi8>';
  const tsel = fn([
    `%m = pto.alloc_tile : ${I}`,
    `%t = pto.alloc_tile : !pto.tile_buf<vec, 1x64xi8>`,
    `pto.tsel ins(%m, %m, %m, %t : ${I}, ${I}, ${I}, !pto.tile_buf<vec, 1x64xi8>) outs(%m : ${I})`,
  ]);
  assert.match(
    diags(tsel, { arch: 'a3' })[0]!,
    /^4:3: pto\.tsel: expects A2\/A3 tsel src0, src1, and dst element type to be i16\/i32\/f16\/f32/,
  );
  assert.deepEqual(diags(tsel, { arch: 'a5' }), []);
  assert.deepEqual(diags(tsel), []);
});

test('quantisation: INT8_SYM writes i8 without offset, INT8_ASYM ui8 with one', () => {
  const F = '!pto.tile_buf<vec, 16x16xf32>';
  const S = '!pto.tile_buf<vec, 16x1xf32>';
  const q = (dt: string, qt: string, off: boolean) =>
    fn([
      `%s = pto.alloc_tile : ${F}`,
      `%sc = pto.alloc_tile : ${S}`,
      `%d = pto.alloc_tile : !pto.tile_buf<vec, 16x16x${dt}>`,
      `pto.tquant ins(%s, %sc${off ? ', %sc' : ''} : ${F}, ${S}${off ? `, ${S}` : ''}) outs(%d : !pto.tile_buf<vec, 16x16x${dt}>) {quant_type = #pto<quant_type ${qt}>}`,
    ]);
  assert.match(diags(q('ui8', 'INT8_ASYM', false))[0]!, /INT8_ASYM quantization requires an offset operand/);
  assert.match(diags(q('i8', 'INT8_SYM', true))[0]!, /INT8_SYM quantization must not have an offset operand/);
  assert.match(diags(q('ui8', 'INT8_SYM', false))[0]!, /expects dst element type i8 for INT8_SYM/);
});
