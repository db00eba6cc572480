// Today's ptoas text (issue 13 item 2): the compact tile_buf spelling, `compact=`, the target arch,
// MLIR region scoping, func.call, and ops in PTOAS custom syntax. Fixtures are written here; the
// expectations come from PTOAS's grammar (PTOTypeDefs.cpp, PTOOps.td @a56b18c3) worked by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import type { TileBufType } from './ast.ts';
import { moduleProfile } from './index.ts';
import { detectTargetArch, parsePtoAs, parseType } from './parser.ts';
import { printModule, printType } from './printer.ts';
import { runProgram } from './run.ts';
import { verifyDiagnostics } from './verify.ts';

const LONG = (
  loc: string,
  dt: string,
  r: number,
  c: number,
  vr: string,
  vc: string,
  bl: string,
  sl: string,
  fr = 512,
  pad = 0,
) =>
  `!pto.tile_buf<loc=${loc}, dtype=${dt}, rows=${r}, cols=${c}, v_row=${vr}, v_col=${vc}, blayout=${bl}, slayout=${sl}, fractal=${fr}, pad=${pad}>`;

function errAt(f: () => unknown): { line: number; col: number; message: string } {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof AxsimError, String(e));
    const loc = e.location as { line: number; col: number };
    return { line: loc.line, col: loc.col, message: e.message };
  }
  assert.fail('expected an error');
}

test('compact !pto.tile_buf equals the long form with PTOAS defaults', () => {
  const cases: [string, string][] = [
    ['!pto.tile_buf<vec, 16x32xf32>', LONG('vec', 'f32', 16, 32, '16', '32', 'row_major', 'none_box')],
    ['!pto.tile_buf<vec, 8x64xf16, valid=8x?>', LONG('vec', 'f16', 8, 64, '8', '?', 'row_major', 'none_box')],
    [
      '!pto.tile_buf<mat, 16x16xbf16, blayout=col_major, slayout=row_major>',
      LONG('mat', 'bf16', 16, 16, '16', '16', 'col_major', 'row_major'),
    ],
    [
      '!pto.tile_buf<acc, 16x16xf32, slayout=row_major, blayout=col_major, fractal=1024, pad=1>',
      LONG('acc', 'f32', 16, 16, '16', '16', 'col_major', 'row_major', 1024, 1),
    ],
    ['!pto.tile_buf<vec, 4x8xi32, valid=?x?>', LONG('vec', 'i32', 4, 8, '?', '?', 'row_major', 'none_box')],
  ];
  for (const [compact, long] of cases) {
    assert.deepEqual(parseType(compact), parseType(long), compact);
  }
});

test('compact= (PTOAS CompactMode) in both spellings; printed after pad, omitted when 0', () => {
  const a = parseType(
    `${LONG('vec', 'f16', 1, 16, '1', '16', 'row_major', 'none_box').slice(0, -1)}, compact=2>`,
  );
  const b = parseType('!pto.tile_buf<vec, 1x16xf16, compact=2>');
  assert.deepEqual(a, b);
  assert.equal((a as TileBufType).compact, 2);
  assert.match(printType(a), /pad=0, compact=2>$/);
  assert.deepEqual(parseType(printType(a)), a);
  const z = parseType('!pto.tile_buf<vec, 1x16xf16, compact=0>');
  assert.equal((z as TileBufType).compact, undefined);
  assert.doesNotMatch(printType(z), /compact/);
});

test('compact form errors: line:col and the rule', () => {
  const dup = errAt(() => parseType('!pto.tile_buf<vec, 16x16xf32, pad=1, pad=2>'));
  assert.match(dup.message, /duplicate pad/);
  assert.equal(dup.col, 38);
  const unk = errAt(() => parseType('!pto.tile_buf<vec, 16x16xf32, padd=1>'));
  assert.match(unk.message, /unknown key 'padd'/);
  assert.equal(unk.col, 31);
  const dims = errAt(() => parseType('!pto.tile_buf<vec, 16xf32>'));
  assert.match(dims.message, /exactly two static dims/);
  const cm = errAt(() => parseType('!pto.tile_buf<vec, 16x16xf32, compact=3>'));
  assert.match(cm.message, /unknown compact mode/);
});

test('the target arch fixes the base layout of left buffers (a3 row_major, a5 col_major)', () => {
  const src = (arch: string) =>
    `module attributes {"pto.target_arch" = "${arch}"} {\n  func.func @f() {\n    %l = pto.alloc_tile : !pto.tile_buf<left, 32x32xf32, slayout=row_major>\n    return\n  }\n}\n`;
  const left = (text: string, opts = {}) => {
    const op = parsePtoAs(text, opts).funcs[0]!.body[0]!;
    assert.equal(op.kind, 'pto.alloc_tile');
    return (op as { type: TileBufType }).type.blayout;
  };
  assert.equal(left(src('a3')), 'row_major');
  assert.equal(left(src('a5')), 'col_major');
  // the command-line arch overrides the module's
  assert.equal(left(src('a5'), { arch: 'a3' }), 'row_major');
  // no arch anywhere: the layout stays as written
  const plain =
    'func.func @f() {\n  %l = pto.alloc_tile : !pto.tile_buf<left, 16x16xf16, blayout=col_major>\n  return\n}\n';
  assert.equal(left(plain), 'col_major');
  assert.equal(detectTargetArch(src('A5')), 'a5');
  assert.equal(detectTargetArch(plain), undefined);
  assert.equal(moduleProfile(parsePtoAs(src('a3'))), 'a2a3');
  assert.equal(moduleProfile(parsePtoAs(src('a5'))), 'a5');
  assert.equal(moduleProfile(parsePtoAs(plain)), undefined);
});

test('MLIR scoping: one SSA name in sibling regions; a region-local value is not visible after it', () => {
  const ok = [
    'func.func @f(%n: index) {',
    '  %c0 = arith.constant 0 : index',
    '  %c1 = arith.constant 1 : index',
    '  scf.for %i = %c0 to %n step %c1 {',
    '    %x = arith.addi %i, %c1 : index',
    '  }',
    '  scf.for %i = %c0 to %n step %c1 {',
    '    %x = arith.muli %i, %c1 : index',
    '  }',
    '  %b = arith.cmpi eq, %n, %c0 : index',
    '  scf.if %b {',
    '    %y = arith.addi %n, %c1 : index',
    '  } else {',
    '    %y = arith.subi %n, %c1 : index',
    '  }',
    '  return',
    '}',
  ].join('\n');
  assert.deepEqual(
    verifyDiagnostics(parsePtoAs(ok)).map((d) => d.message),
    [],
  );
  const leak = [
    'func.func @f(%n: index) {',
    '  %c0 = arith.constant 0 : index',
    '  %c1 = arith.constant 1 : index',
    '  scf.for %i = %c0 to %n step %c1 {',
    '    %x = arith.addi %i, %c1 : index',
    '  }',
    '  %z = arith.addi %x, %c1 : index',
    '  return',
    '}',
  ].join('\n');
  const d = verifyDiagnostics(parsePtoAs(leak));
  assert.equal(d.length, 1);
  assert.match(d[0]!.message, /use of undefined value %x/);
  assert.deepEqual([d[0]!.line, d[0]!.col], [7, 19]);
  // shadowing an outer name inside a region is still a redefinition (MLIR)
  const shadow = leak.replace('    %x = arith.addi %i, %c1 : index', '    %c1 = arith.addi %i, %i : index');
  assert.match(verifyDiagnostics(parsePtoAs(shadow))[0]!.message, /redefinition of SSA value %c1/);
});

test('func.call between functions of one module: verified and run', () => {
  const src = [
    'module {',
    '  func.func @kernel(%out: !pto.ptr<f32>, %k: i32) {',
    '    %v = func.call @helper(%k) : (i32) -> i32',
    '    %f = arith.sitofp %v : i32 to f32',
    '    %c0 = arith.constant 0 : index',
    '    %c1 = arith.constant 1 : index',
    '    %c8 = arith.constant 8 : index',
    '    %tv = pto.make_tensor_view %out, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>',
    '    %pv = pto.partition_view %tv, offsets = [%c0, %c0], sizes = [%c1, %c8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x8xf32>',
    '    %t = pto.alloc_tile : !pto.tile_buf<vec, 1x8xf32>',
    '    pto.texpands ins(%f : f32) outs(%t : !pto.tile_buf<vec, 1x8xf32>)',
    '    pto.tstore ins(%t : !pto.tile_buf<vec, 1x8xf32>) outs(%pv : !pto.partition_tensor_view<1x8xf32>)',
    '    return',
    '  }',
    '  func.func private @helper(%a: i32) -> i32 {',
    '    %c3 = arith.constant 3 : i32',
    '    %r = arith.muli %a, %c3 : i32',
    '    return %r : i32',
    '  }',
    '}',
  ].join('\n');
  const m = parsePtoAs(src);
  assert.deepEqual(
    verifyDiagnostics(m).map((x) => x.message),
    [],
  );
  const out = { dtype: 'f4' as const, shape: [1, 8], data: new Float32Array(8) };
  const res = runProgram(m, { out, k: 7 });
  // 7 * 3 = 21 in every element
  assert.deepEqual(Array.from(res.arrays.out!.data as Float32Array), new Array(8).fill(21));
  // printing keeps the call
  assert.match(printModule(m), /%v = func\.call @helper\(%k\) : \(i32\) -> i32/);
  const bad = verifyDiagnostics(parsePtoAs(src.replace('@helper(%k)', '@helpr(%k)')));
  assert.match(bad[0]!.message, /no function @helpr/);
  assert.match(bad[0]!.hint, /@helper/);
  const badTy = verifyDiagnostics(
    parsePtoAs(
      src
        .replace('-> i32 {', '-> i64 {')
        .replace('return %r : i32', 'return %r : i64')
        .replace('%r = arith.muli %a, %c3 : i32', '%r = arith.extsi %a : i32 to i64'),
    ),
  );
  assert.match(badTy[0]!.message, /does not match the callee's signature/);
});

test('ops in PTOAS custom syntax parse, verify, print and re-parse', () => {
  const T = '!pto.tile_buf<vec, 8x16xf32, valid=?x?>';
  const src = [
    'module {',
    '  func.func @f(%r: index, %c: index) {',
    `    %t = pto.alloc_tile valid_row = %r valid_col = %c : ${T}`,
    `    pto.set_validshape %t, %r, %c : ${T}`,
    '    %buf = pto.reserve_buffer {',
    '      name = "fifo",',
    '      size = 4096,',
    '      location = #pto.address_space<vec>,',
    '      auto = true',
    '    } -> i32',
    '    %arr = pto.declare_eventid_array -> !pto.eventid_array<4>',
    '    %c0 = arith.constant 0 : index',
    '    %e = pto.eventid_array_get %arr[%c0] : !pto.eventid_array<4>',
    `    pto.tprint ins(%t : ${T})`,
    '    return',
    '  }',
    '}',
  ].join('\n');
  const m = parsePtoAs(src);
  assert.deepEqual(
    verifyDiagnostics(m).map((d) => d.message),
    [],
  );
  const printed = printModule(m);
  const again = parsePtoAs(printed);
  assert.equal(printModule(again), printed);
  // set_validshape needs a tile with dynamic valid dims
  const staticT = '!pto.tile_buf<vec, 8x16xf32>';
  const bad = parsePtoAs(
    [
      'func.func @f(%r: index, %c: index) {',
      `  %t = pto.alloc_tile : ${staticT}`,
      `  pto.set_validshape %t, %r, %c : ${staticT}`,
      '  return',
      '}',
    ].join('\n'),
  );
  const d = verifyDiagnostics(bad);
  assert.match(d[0]!.message, /dynamic valid_row and valid_col/);
  assert.deepEqual([d[0]!.line, d[0]!.col], [3, 3]);
});

test('pto.set_validshape changes the valid region a later op sees (run)', () => {
  const T = '!pto.tile_buf<vec, 2x8xf32, valid=?x?>';
  const src = [
    'func.func @f(%out: !pto.ptr<f32>) {',
    '  %c0 = arith.constant 0 : index',
    '  %c1 = arith.constant 1 : index',
    '  %c2 = arith.constant 2 : index',
    '  %c3 = arith.constant 3 : index',
    '  %c8 = arith.constant 8 : index',
    '  %one = arith.constant 1.0 : f32',
    '  %two = arith.constant 2.0 : f32',
    '  %tv = pto.make_tensor_view %out, shape = [%c2, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>',
    '  %pv = pto.partition_view %tv, offsets = [%c0, %c0], sizes = [%c2, %c8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x8xf32>',
    `  %t = pto.alloc_tile valid_row = %c2 valid_col = %c8 : ${T}`,
    `  pto.texpands ins(%one : f32) outs(%t : ${T})`,
    `  pto.set_validshape %t, %c1, %c3 : ${T}`,
    `  pto.texpands ins(%two : f32) outs(%t : ${T})`,
    `  pto.set_validshape %t, %c2, %c8 : ${T}`,
    `  pto.tstore ins(%t : ${T}) outs(%pv : !pto.partition_tensor_view<2x8xf32>)`,
    '  return',
    '}',
  ].join('\n');
  const m = parsePtoAs(src);
  assert.deepEqual(
    verifyDiagnostics(m).map((d) => d.message),
    [],
  );
  const out = { dtype: 'f4' as const, shape: [2, 8], data: new Float32Array(16) };
  const res = runProgram(m, { out });
  // the second fill covers row 0, columns 0..2 only
  const want = Array.from({ length: 16 }, (_, i) => (i < 3 ? 2 : 1));
  assert.deepEqual(Array.from(res.arrays.out!.data as Float32Array), want);
});

test('PTOAS operand forms: scratch tiles, tsel with tmp, six-scalar trandom, tgather compare form', () => {
  const V = (dt: string, r = 1, c = 32) => `!pto.tile_buf<vec, ${r}x${c}x${dt}>`;
  const src = [
    'func.func @f(%k: i32) {',
    `  %a = pto.alloc_tile : ${V('f32')}`,
    `  %b = pto.alloc_tile : ${V('f32')}`,
    `  %tmp = pto.alloc_tile : ${V('f32')}`,
    `  %d = pto.alloc_tile : ${V('f32')}`,
    `  %m = pto.alloc_tile : ${V('ui8')}`,
    `  %u = pto.alloc_tile : ${V('ui32')}`,
    `  %i = pto.alloc_tile : ${V('i32')}`,
    `  pto.trem ins(%a, %b, %tmp : ${V('f32')}, ${V('f32')}, ${V('f32')}) outs(%d : ${V('f32')})`,
    `  pto.trsqrt ins(%a, %tmp : ${V('f32')}, ${V('f32')}) outs(%d : ${V('f32')})`,
    `  pto.tsel ins(%m, %a, %b, %tmp : ${V('ui8')}, ${V('f32')}, ${V('f32')}, ${V('f32')}) outs(%d : ${V('f32')})`,
    `  pto.trandom ins(%k, %k, %k, %k, %k, %k {rounds = 7 : i32} : i32, i32, i32, i32, i32, i32) outs(%u : ${V('ui32')})`,
    `  pto.tsort32 ins(%a, %u, %tmp : ${V('f32')}, ${V('ui32')}, ${V('f32')}) outs(%d : ${V('f32')})`,
    '  return',
    '}',
  ].join('\n');
  assert.deepEqual(
    verifyDiagnostics(parsePtoAs(src)).map((d) => d.message),
    [],
  );
  // the scratch is optional, a fourth tile input is not
  const four = src.replace(
    `pto.trem ins(%a, %b, %tmp : ${V('f32')}, ${V('f32')}, ${V('f32')})`,
    `pto.trem ins(%a, %b, %tmp, %tmp : ${V('f32')}, ${V('f32')}, ${V('f32')}, ${V('f32')})`,
  );
  assert.match(verifyDiagnostics(parsePtoAs(four))[0]!.message, /pto\.trem: expects 2\.\.3 input operand/);
  void V('i32');
});

test('PTOAS attribute enums: #pto<saturation_mode>, #pto<quant_type>, #pto<st_phase>, #pto.acc_to_vec_mode', () => {
  const T = '!pto.tile_buf<vec, 16x16xf32>';
  const H = '!pto.tile_buf<vec, 16x16xf16>';
  const ok = [
    'func.func @f() {',
    `  %a = pto.alloc_tile : ${T}`,
    `  %h = pto.alloc_tile : ${H}`,
    `  pto.tcvt ins(%a {rmode = #pto<round_mode ROUND>, sat_mode = #pto<saturation_mode ON>} : ${T}) outs(%h : ${H})`,
    '  return',
    '}',
  ].join('\n');
  assert.deepEqual(
    verifyDiagnostics(parsePtoAs(ok)).map((d) => d.message),
    [],
  );
  const e = errAt(() => parsePtoAs(ok.replace('saturation_mode ON', 'saturation_mode MAYBE')));
  assert.match(e.message, /unknown saturation mode 'MAYBE'/);
  assert.equal(e.line, 4);
  for (const a of [
    '#pto<quant_type INT8_ASYM>',
    '#pto<st_phase final>',
    '#pto<relu_pre_mode normal_relu>',
    '#pto.acc_to_vec_mode<dual_mode_split_m>',
  ]) {
    assert.doesNotThrow(() => parsePtoAs(`func.func @g() attributes {x = ${a}} {\n  return\n}\n`));
  }
  assert.throws(
    () =>
      parsePtoAs(
        'func.func @g() {\n  %c = arith.constant 0 : index\n  %x = pto.tload ins(%c : index) outs(%c : index) {y = #pto<st_phase first>}\n  return\n}\n',
      ),
    /unknown store phase 'first'/,
  );
});

test("MLIR's generic op form of pto.tmov / pto.tstore is the DPS op it prints as", () => {
  const A = '!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>';
  const M = '!pto.tile_buf<mat, 16x16xi8>';
  const head = `func.func @k(%pre: i64) {\n  %s = pto.alloc_tile : ${A}\n  %d = pto.alloc_tile : ${M}\n`;
  const generic = parsePtoAs(
    `${head}  "pto.tmov"(%s, %d, %pre) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reluPreMode = #pto<relu_pre_mode normal_relu>}> : (${A}, ${M}, i64) -> ()\n  return\n}\n`,
  );
  const dps = parsePtoAs(
    `${head}  pto.tmov ins(%s : ${A}, %pre : i64) outs(%d : ${M}) {reluPreMode = #pto<relu_pre_mode normal_relu>}\n  return\n}\n`,
  );
  assert.equal(printModule(generic), printModule(dps));
  assert.deepEqual(
    verifyDiagnostics(generic).map((d) => d.message),
    [],
  );
  const bad = errAt(() =>
    parsePtoAs(
      `${head}  "pto.tmov"(%s, %d) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>}> : (${A}, ${M}) -> ()\n  return\n}\n`,
    ),
  );
  assert.match(bad.message, /operandSegmentSizes does not match its 2 operands/);
  assert.equal(bad.line, 4);
});
