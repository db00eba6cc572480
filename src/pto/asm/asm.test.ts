import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { sharedConformanceFile } from '../../conformance/shared.ts';
import { AxsimError } from '../../errors.ts';
import { costFunction, costProgram } from '../cost/index.ts';
import { stripLocations } from './ast.ts';
import { ACCEPT, REJECT, TB16 } from './fixtures.ts';
import { parsePtoAs, parseType, printModule, printType, verifyDiagnostics, verifyModule } from './index.ts';

const isAxsim = (e: unknown) => e instanceof AxsimError;

function parseVerify(text: string, strict = true, legacy = false) {
  const m = parsePtoAs(text, { strict, legacy });
  verifyModule(m);
  return m;
}

for (const fx of ACCEPT) {
  test(`accept ${fx.name}: parses, verifies, prints canonically and re-parses to the same module`, () => {
    const m = parseVerify(fx.text, !fx.lenient, fx.legacy);
    const printed = printModule(m);
    const m2 = parseVerify(printed, true);
    assert.deepEqual(stripLocations(m2), stripLocations(m));
    // printing is a fixed point
    assert.equal(printModule(m2), printed);
  });
}

test('the lenient short spellings are rejected in strict mode with line:col', () => {
  for (const fx of ACCEPT.filter((f) => f.lenient)) {
    assert.throws(
      () => parsePtoAs(fx.text, { strict: true }),
      (e: unknown) => isAxsim(e) && (e as AxsimError).location?.line !== undefined,
    );
  }
  for (const fx of ACCEPT.filter((f) => f.legacy)) {
    assert.throws(
      () => parsePtoAs(fx.text),
      (e: unknown) => isAxsim(e),
      'legacy forms need the legacy option',
    );
  }
});

test('the full programs quoted in PTO-AS.md §5 (examples 1-4) parse and verify as written', (t) => {
  const path = sharedConformanceFile('PTO-AS.md');
  if (!path) return t.skip('PTO-AS.md not found');
  const md = readFileSync(path, 'utf8');
  const sec = md.slice(md.indexOf('## 5.'), md.indexOf('## 6.'));
  const blocks = [...sec.matchAll(/```mlir\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const complete = blocks.filter((b) => !b.includes('…') && /^\s*(module|func\.func)/.test(b));
  assert.ok(complete.length >= 4, `found ${complete.length} complete programs`);
  for (const b of complete) parseVerify(b.replace(/^ {3}/gm, ''));
});

for (const fx of REJECT) {
  test(`reject ${fx.name}: fails with a line:col error and a hint`, () => {
    let err: unknown;
    try {
      parseVerify(fx.text, true);
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof AxsimError, `expected an AxsimError, got ${String(err)}`);
    const loc = (err as AxsimError).location;
    assert.ok(loc?.line !== undefined && loc.col !== undefined, 'error has line:col');
    assert.ok(loc.line >= 1 && loc.line <= fx.text.split('\n').length);
    assert.notEqual((err as AxsimError).category, 'Internal');
  });
}

test('the default mode rejects every reject example except the short spellings the issue asks for', () => {
  for (const fx of REJECT) {
    if (fx.name.startsWith('short')) {
      parseVerify(fx.text, false);
      continue;
    }
    assert.throws(
      () => parseVerify(fx.text, false),
      (e: unknown) => isAxsim(e) && (e as AxsimError).location?.col !== undefined,
      fx.name,
    );
  }
});

test('error positions point at the offending token', () => {
  const text = `func.func @k(%a: ${TB16}) {\n  pto.tadd ins(%a, %b : ${TB16}, ${TB16}) outs(%a : ${TB16})\n  return\n}`;
  const d = verifyDiagnostics(parsePtoAs(text));
  assert.equal(d.length, 1);
  assert.equal(d[0]!.line, 2);
  assert.equal(d[0]!.col, 20); // %b
  assert.match(d[0]!.message, /pto\.tadd: use of undefined value %b/);
  assert.throws(
    () => parsePtoAs('module {\n  func.func @k() {\n    pto.tmatmul_acc ins() outs(%x : f32)\n'),
    (e: unknown) =>
      isAxsim(e) &&
      (e as AxsimError).location?.line === 3 &&
      (e as AxsimError).location?.col === 5 &&
      /pto\.tmatmul\.acc/.test((e as AxsimError).hint ?? ''),
  );
});

test('the seed type-mismatch error names the op and the element types', () => {
  const f16 = TB16.replace('dtype=f32', 'dtype=f16');
  const text = `func.func @k(%a: ${TB16}, %b: ${f16}, %c: ${TB16}) {\n  pto.tadd ins(%a, %b : ${TB16}, ${f16}) outs(%c : ${TB16})\n  return\n}`;
  const d = verifyDiagnostics(parsePtoAs(text));
  assert.equal(d.length, 1);
  assert.match(d[0]!.message, /^pto\.tadd: type mismatch: .* f32, f16, f32/);
  assert.equal(d[0]!.line, 2);
});

test('profile rules: a2a3 rejects i8 TADD and col-major operands (Unsupported), cpu accepts them', () => {
  const i8 = TB16.replace('dtype=f32', 'dtype=i8');
  const text = `func.func @k(%a: ${i8}) {\n  pto.tadd ins(%a, %a : ${i8}, ${i8}) outs(%a : ${i8})\n  return\n}`;
  const m = parsePtoAs(text);
  assert.deepEqual(verifyDiagnostics(m, { profile: 'cpu' }), []);
  const d = verifyDiagnostics(m, { profile: 'a2a3' });
  assert.equal(d[0]?.category, 'Unsupported');
  assert.deepEqual(verifyDiagnostics(m, { profile: 'a5' }), []);
  const cm = TB16.replace('blayout=row_major', 'blayout=col_major');
  const t2 = `func.func @k(%a: ${cm}) {\n  pto.tadd ins(%a, %a : ${cm}, ${cm}) outs(%a : ${cm})\n  return\n}`;
  assert.match(verifyDiagnostics(parsePtoAs(t2), { profile: 'a2a3' })[0]!.message, /RowMajor/);
});

test('types print canonically: short spellings normalise, ? for dynamic valid dims', () => {
  assert.equal(printType(parseType('!pto.tile<f32, 16, 16>')), '!pto.tile<16x16xf32>');
  assert.equal(
    printType(parseType('!pto.tile_buf<f32, 16, 16>')),
    '!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>',
  );
  assert.match(printType(parseType(TB16.replace('v_col=16', 'v_col=-1'))), /v_col=\?/);
});

// ---- whitespace anywhere MLIR allows it --------------------------------------------------------

const WS = fc.constantFrom(' ', '  ', '\n', '\t', ' // note\n', '\n\n  ');

/** Re-spaces a canonical program: every space run and every gap around punctuation gets random whitespace. */
function respace(text: string, pick: () => string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const prev = text[i - 1] ?? '';
    const next = text[i + 1] ?? '';
    if (c === ' ') {
      out += pick();
      continue;
    }
    const punct = '(),[]{}=:'.includes(c) || (c === '>' && prev !== '-') || (c === '<' && next !== '-');
    if (punct) out += pick() + c + pick();
    else out += c;
  }
  return out;
}

test('property: random whitespace, newlines and comments between tokens parse to the same module', () => {
  const programs = ACCEPT.filter((f) => !f.lenient).map((f) =>
    printModule(parsePtoAs(f.text, { legacy: f.legacy })),
  );
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: programs.length - 1 }),
      fc.array(WS, { minLength: 64, maxLength: 64 }),
      (k, ws) => {
        let n = 0;
        const text = respace(programs[k]!, () => ws[n++ % ws.length]!);
        assert.deepEqual(stripLocations(parsePtoAs(text)), stripLocations(parsePtoAs(programs[k]!)));
      },
    ),
    { numRuns: 300 },
  );
});

// ---- mutation fuzzing ---------------------------------------------------------------------------

const ALPHABET = ' \n%@!#<>()[]{},:=-?xabcdefghijklmnopqrstuvwxyz0123456789."';

/** One random edit: delete, insert, replace, duplicate or swap characters. */
function mutate(s: string, rnd: () => number): string {
  const i = Math.floor(rnd() * (s.length + 1));
  switch (Math.floor(rnd() * 5)) {
    case 0:
      return s.slice(0, i) + s.slice(i + 1 + Math.floor(rnd() * 3));
    case 1:
      return s.slice(0, i) + ALPHABET[Math.floor(rnd() * ALPHABET.length)]! + s.slice(i);
    case 2:
      return s.slice(0, i) + ALPHABET[Math.floor(rnd() * ALPHABET.length)]! + s.slice(i + 1);
    case 3: {
      const len = 1 + Math.floor(rnd() * 12);
      return s.slice(0, i) + s.slice(i, i + len) + s.slice(i);
    }
    default: {
      const j = Math.floor(rnd() * s.length);
      const a = s.split('');
      [a[i], a[j]] = [a[j]!, a[i]!];
      return a.join('');
    }
  }
}

test('1e5 random mutations of the examples yield a module or an AxsimError, never a crash', () => {
  // a small deterministic generator keeps the run reproducible (xorshift32)
  let x = 0x9e3779b9;
  const rnd = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const seeds = ACCEPT.map((f) => printModule(parsePtoAs(f.text, { legacy: f.legacy })));
  const seed = costFunction('seed', 'a2a3');
  const ptoIsa = costFunction('pto-isa', 'a2a3');
  let parsed = 0;
  let verified = 0;
  const N = 100_000;
  // most mutants are rejected: skip capturing stack traces for those errors (restored below)
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    for (let n = 0; n < N; n++) {
      let s = seeds[n % seeds.length]!;
      const edits = 1 + Math.floor(rnd() * 3);
      for (let k = 0; k < edits; k++) s = mutate(s, rnd);
      try {
        const m = parsePtoAs(s);
        parsed++;
        if (verifyDiagnostics(m).length === 0) {
          verified++;
          // verified programs also go through the walker and a cost model
          if (n % 4 === 0) costProgram(m, 'pto-isa', 'a2a3', ptoIsa, { maxSteps: 20_000 });
          else if (n % 4 === 1) costProgram(m, 'seed', 'a2a3', seed, { maxSteps: 20_000 });
        }
      } catch (e) {
        if (!(e instanceof AxsimError) || e.category === 'Internal') {
          throw new Error(`mutation ${n} crashed: ${String((e as Error)?.message ?? e)}\n---\n${s}`);
        }
      }
    }
  } finally {
    Error.stackTraceLimit = limit;
  }
  assert.ok(parsed > 1000 && verified > 100, `parsed ${parsed}, verified ${verified}`);
});
