// The race checker (issue 13 item 4): for each producer -> consumer pipe pair, a program without
// the sync is reported with both lines, the same program with set_flag / wait_flag (or a
// PIPE_ALL barrier) is not, and without any sync op (auto mode) the pair to insert is listed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePtoAs } from './parser.ts';
import { checkSync } from './sync.ts';

const V = '!pto.tile_buf<vec, 16x16xf32>';
const H = '!pto.tile_buf<vec, 16x16xf16>';
const MAT = '!pto.tile_buf<mat, 16x16xf16, blayout=col_major, slayout=row_major>';
const L = '!pto.tile_buf<left, 16x16xf16, blayout=col_major, slayout=row_major>';
const R = '!pto.tile_buf<right, 16x16xf16, blayout=row_major, slayout=col_major>';
const ACC = '!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>';
const PV = (t: string) => `!pto.partition_tensor_view<16x16x${t}>`;

/** A program: declarations, then the producer (line P), [sync], the consumer (line C). */
interface Case {
  name: string;
  src: 'MTE2' | 'V' | 'MTE1' | 'M' | 'FIX' | 'MTE3';
  dst: 'MTE2' | 'V' | 'MTE1' | 'M' | 'FIX' | 'MTE3';
  kind: 'RAW' | 'WAR';
  decls: string[];
  producer: string;
  consumer: string;
}

const DECLS = [
  `%a = pto.alloc_tile : ${V}`,
  `%b = pto.alloc_tile : ${V}`,
  `%h = pto.alloc_tile : ${H}`,
  `%m = pto.alloc_tile : ${MAT}`,
  `%l = pto.alloc_tile : ${L}`,
  `%r = pto.alloc_tile : ${R}`,
  `%c = pto.alloc_tile : ${ACC}`,
];

const CASES: Case[] = [
  {
    name: 'tload -> vector op',
    src: 'MTE2',
    dst: 'V',
    kind: 'RAW',
    decls: DECLS,
    producer: `pto.tload ins(%g : ${PV('f32')}) outs(%a : ${V})`,
    consumer: `pto.tadd ins(%a, %a : ${V}, ${V}) outs(%b : ${V})`,
  },
  {
    name: 'vector op -> tstore',
    src: 'V',
    dst: 'MTE3',
    kind: 'RAW',
    decls: DECLS,
    producer: `pto.tadd ins(%a, %a : ${V}, ${V}) outs(%b : ${V})`,
    consumer: `pto.tstore ins(%b : ${V}) outs(%g : ${PV('f32')})`,
  },
  {
    name: 'tload into L1 -> tmov to L0A',
    src: 'MTE2',
    dst: 'MTE1',
    kind: 'RAW',
    decls: DECLS,
    producer: `pto.tload ins(%g16 : ${PV('f16')}) outs(%m : ${MAT})`,
    consumer: `pto.tmov ins(%m : ${MAT}) outs(%l : ${L})`,
  },
  {
    name: 'tmov to L0A -> tmatmul',
    src: 'MTE1',
    dst: 'M',
    kind: 'RAW',
    decls: DECLS,
    producer: `pto.tmov ins(%m : ${MAT}) outs(%l : ${L})`,
    consumer: `pto.tmatmul ins(%l, %r : ${L}, ${R}) outs(%c : ${ACC})`,
  },
  {
    name: 'tmatmul -> accumulator store',
    src: 'M',
    dst: 'FIX',
    kind: 'RAW',
    decls: DECLS,
    producer: `pto.tmatmul ins(%l, %r : ${L}, ${R}) outs(%c : ${ACC})`,
    consumer: `pto.tstore ins(%c : ${ACC}) outs(%g : ${PV('f32')})`,
  },
  {
    name: 'accumulator -> UB move -> vector op',
    src: 'FIX',
    dst: 'V',
    kind: 'RAW',
    decls: DECLS,
    producer: `pto.tmov ins(%c : ${ACC}) outs(%a : ${V})`,
    consumer: `pto.tadd ins(%a, %a : ${V}, ${V}) outs(%b : ${V})`,
  },
  {
    name: 'tstore then tload of the same global memory',
    src: 'MTE3',
    dst: 'MTE2',
    kind: 'RAW',
    decls: DECLS,
    producer: `pto.tstore ins(%b : ${V}) outs(%g : ${PV('f32')})`,
    consumer: `pto.tload ins(%g : ${PV('f32')}) outs(%a : ${V})`,
  },
  {
    name: 'vector op reads a tile the next tload overwrites',
    src: 'V',
    dst: 'MTE2',
    kind: 'WAR',
    decls: DECLS,
    producer: `pto.tadd ins(%a, %a : ${V}, ${V}) outs(%b : ${V})`,
    consumer: `pto.tload ins(%g : ${PV('f32')}) outs(%a : ${V})`,
  },
];

function program(c: Case, sync: string[]): string {
  return [
    `func.func @k(%g: ${PV('f32')}, %g16: ${PV('f16')}) {`,
    ...c.decls.map((d) => `  ${d}`),
    `  ${c.producer}`,
    ...sync.map((s) => `  ${s}`),
    `  ${c.consumer}`,
    '  return',
    '}',
  ].join('\n');
}

for (const c of CASES) {
  test(`race ${c.src} -> ${c.dst} (${c.name}): reported without sync, not with it`, () => {
    const prodLine = 2 + c.decls.length;
    // manual mode needs some sync op in the program: an unrelated pair
    const other = c.src === 'M' ? ['<PIPE_MTE2>', '<PIPE_V>'] : ['<PIPE_M>', '<PIPE_FIX>'];
    const unrelated = [
      `pto.set_flag[${other[0]}, ${other[1]}, <EVENT_ID7>]`,
      `pto.wait_flag[${other[0]}, ${other[1]}, <EVENT_ID7>]`,
    ];
    const bad = checkSync(parsePtoAs(program(c, unrelated)));
    assert.equal(bad.mode, 'manual');
    assert.equal(bad.races.length, 1, JSON.stringify(bad.races));
    const r = bad.races[0]!;
    assert.deepEqual(
      [r.kind, r.first.pipe, r.second.pipe, r.first.pos.line, r.second.pos.line],
      [c.kind, c.src, c.dst, prodLine, prodLine + 3],
    );
    const fixed = [
      `pto.set_flag[<PIPE_${c.src}>, <PIPE_${c.dst}>, <EVENT_ID0>]`,
      `pto.wait_flag[<PIPE_${c.src}>, <PIPE_${c.dst}>, <EVENT_ID0>]`,
    ];
    assert.deepEqual(checkSync(parsePtoAs(program(c, fixed))).races, []);
    assert.deepEqual(checkSync(parsePtoAs(program(c, ['pto.barrier <PIPE_ALL>']))).races, []);
    // a flag of another pipe pair, or a wait before the set, does not order them
    const wrongPair = [
      `pto.set_flag[<PIPE_${c.dst}>, <PIPE_${c.src}>, <EVENT_ID0>]`,
      `pto.wait_flag[<PIPE_${c.dst}>, <PIPE_${c.src}>, <EVENT_ID0>]`,
    ];
    assert.equal(checkSync(parsePtoAs(program(c, wrongPair))).races.length, 1);
    // auto mode: no sync op at all -> the pair ptoas would have to insert
    const auto = checkSync(parsePtoAs(program(c, [])));
    assert.equal(auto.mode, 'auto');
    assert.deepEqual(
      auto.inserted.map((i) => [i.src, i.dst, i.after.line, i.before.line]),
      [[c.src, c.dst, prodLine, prodLine + 1]],
    );
  });
}

test('record_event / wait_event order the pipes of their event types', () => {
  const c = CASES[0]!;
  const ev = [
    'pto.record_event [#pto.pipe_event_type<TLOAD>, #pto.pipe_event_type<TVEC>, #pto.event<EVENT_ID1>]',
    'pto.wait_event [#pto.pipe_event_type<TLOAD>, #pto.pipe_event_type<TVEC>, #pto.event<EVENT_ID1>]',
  ];
  assert.deepEqual(checkSync(parsePtoAs(program(c, ev))).races, []);
  // a different event id for the wait leaves the race
  const wrongId = [ev[0]!, ev[1]!.replace('EVENT_ID1', 'EVENT_ID2')];
  assert.equal(checkSync(parsePtoAs(program(c, wrongId))).races.length, 1);
});

test('a loop-carried hazard: the next iteration loads over a tile the vector pipe still reads', () => {
  const src = [
    `func.func @k(%g: ${PV('f32')}, %n: index) {`,
    '  %c0 = arith.constant 0 : index',
    '  %c1 = arith.constant 1 : index',
    `  %a = pto.alloc_tile : ${V}`,
    `  %b = pto.alloc_tile : ${V}`,
    '  scf.for %i = %c0 to %n step %c1 {',
    `    pto.tload ins(%g : ${PV('f32')}) outs(%a : ${V})`,
    '    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]',
    '    pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]',
    `    pto.tadd ins(%a, %a : ${V}, ${V}) outs(%b : ${V})`,
    '  }',
    '  return',
    '}',
  ].join('\n');
  const r = checkSync(parsePtoAs(src)).races;
  assert.deepEqual(
    r.map((x) => [x.kind, x.first.pipe, x.first.pos.line, x.second.pipe, x.second.pos.line]),
    [['WAR', 'V', 10, 'MTE2', 7]],
  );
  const fixed = src.replace(
    `    pto.tadd ins(%a, %a : ${V}, ${V}) outs(%b : ${V})\n`,
    `    pto.tadd ins(%a, %a : ${V}, ${V}) outs(%b : ${V})\n    pto.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]\n    pto.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]\n`,
  );
  assert.deepEqual(checkSync(parsePtoAs(fixed)).races, []);
});

test('axsim pto check --sync: a race is an error at the reader naming the writer; auto mode lists the pair', async () => {
  const { spawnSync } = await import('node:child_process');
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const bin = fileURLToPath(new URL('../../../bin/axsim.js', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'axsim-sync-'));
  const c = CASES[0]!;
  const other = [
    'pto.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID7>]',
    'pto.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID7>]',
  ];
  const racy = join(dir, 'racy.pto');
  writeFileSync(racy, program(c, other));
  const r = spawnSync(process.execPath, [bin, 'pto', 'check', '--sync', racy], { encoding: 'utf8' });
  assert.notEqual(r.status, 0);
  const line = 2 + c.decls.length;
  assert.match(
    r.stderr,
    new RegExp(
      `racy\\.pto:${line + 3}:3: BadInput: race \\(RAW\\) on %a: pto\\.tadd \\(PIPE_V\\) reads it while pto\\.tload at .*racy\\.pto:${line}:3 \\(PIPE_MTE2\\)`,
    ),
  );
  const auto = join(dir, 'auto.pto');
  writeFileSync(auto, program(c, []));
  const a = spawnSync(process.execPath, [bin, 'pto', 'check', '--sync', auto], { encoding: 'utf8' });
  assert.equal(a.status, 0, a.stderr);
  assert.match(a.stdout, /auto mode.*1 set\/wait pair/);
  assert.match(
    a.stdout,
    new RegExp(`pto\\.set_flag\\[<PIPE_MTE2>, <PIPE_V>, <EVENT_IDn>\\] after .*auto\\.pto:${line}:3`),
  );
});
