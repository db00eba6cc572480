/**
 * .npy reader/writer. The golden byte strings below were written by NumPy 2.4.6 (`np.save`, and
 * `numpy.lib.format.write_array(..., version=(2, 0))` for the 2.0 file); the expected values are
 * the arrays that produced them. The writer must reproduce NumPy's bytes exactly.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { AxsimError } from '../errors.ts';
import {
  encodeNpy,
  formatJsonTensor,
  type NpyArray,
  parseJsonTensor,
  parseNpy,
  readNpy,
  writeNpy,
} from './index.ts';

const HDR = (descr: string, shape: string, pad: number) =>
  Buffer.from(
    `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }${' '.repeat(pad)}\n`,
  ).toString('hex');
const V1 = '934e554d505901007600';

const GOLDEN: { name: string; hex: string; want: NpyArray }[] = [
  {
    name: 'f4',
    hex: `${V1}${HDR('<f4', '(3,)', 60)}0000c03f000000c00000807f`,
    want: { dtype: 'f4', shape: [3], data: Float32Array.of(1.5, -2, Infinity) },
  },
  {
    name: 'i1 2x3',
    hex: `${V1}${HDR('|i1', '(2, 3)', 58)}01fe03807f00`,
    want: { dtype: 'i1', shape: [2, 3], data: Int8Array.of(1, -2, 3, -128, 127, 0) },
  },
  {
    name: 'u2',
    hex: `${V1}${HDR('<u2', '(3,)', 60)}0000ffff3412`,
    want: { dtype: 'u2', shape: [3], data: Uint16Array.of(0, 65535, 0x1234) },
  },
  {
    name: 'f2 (binary16 bits)',
    hex: `${V1}${HDR('<f2', '(3,)', 60)}003c00b8ff7b`,
    want: { dtype: 'f2', shape: [3], data: Uint16Array.of(0x3c00, 0xb800, 0x7bff) },
  },
  {
    name: 'i8',
    hex: `${V1}${HDR('<i8', '(2,)', 60)}0000000000000080ffffffffffffff7f`,
    want: { dtype: 'i8', shape: [2], data: BigInt64Array.of(-(2n ** 63n), 2n ** 63n - 1n) },
  },
  {
    name: 'f8 scalar',
    hex: `${V1}${HDR('<f8', '()', 62)}0000000000000a40`,
    want: { dtype: 'f8', shape: [], data: Float64Array.of(3.25) },
  },
  {
    name: 'empty u4',
    hex: `${V1}${HDR('<u4', '(0,)', 60)}`,
    want: { dtype: 'u4', shape: [0], data: new Uint32Array(0) },
  },
  {
    name: 'version 2.0 i4',
    hex: `934e554d50590200740000007b276465736372273a20273c6934272c2027666f727472616e5f6f72646572273a2046616c73652c20277368617065273a2028322c2031292c207d20202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020200a07000000f9ffffff`,
    want: { dtype: 'i4', shape: [2, 1], data: Int32Array.of(7, -7) },
  },
];

const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));

test('reads NumPy-written files (v1.0 and v2.0) exactly', () => {
  for (const g of GOLDEN) {
    const a = parseNpy(hex(g.hex), g.name);
    assert.equal(a.dtype, g.want.dtype, g.name);
    assert.deepEqual(a.shape, g.want.shape, g.name);
    assert.equal(a.data.constructor, g.want.data.constructor, g.name);
    assert.deepEqual([...a.data], [...g.want.data], g.name);
  }
});

test("writes NumPy's exact bytes", () => {
  for (const g of GOLDEN) {
    const version = g.name.startsWith('version 2') ? 2 : 1;
    assert.equal(Buffer.from(encodeNpy(g.want, { version })).toString('hex'), g.hex, g.name);
  }
});

test('round trip through a file for every dtype; u1 accepted as <u1 too', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axsim-npy-'));
  const arrays: NpyArray[] = [
    { dtype: 'f4', shape: [2, 2], data: Float32Array.of(1, 2, 3, 4) },
    { dtype: 'f8', shape: [1], data: Float64Array.of(-0) },
    { dtype: 'f2', shape: [2], data: Uint16Array.of(0x7e00, 1) },
    { dtype: 'i1', shape: [1], data: Int8Array.of(-1) },
    { dtype: 'i2', shape: [1], data: Int16Array.of(-300) },
    { dtype: 'i4', shape: [1, 1, 1], data: Int32Array.of(-5) },
    { dtype: 'i8', shape: [1], data: BigInt64Array.of(-3n) },
    { dtype: 'u1', shape: [3], data: Uint8Array.of(0, 128, 255) },
    { dtype: 'u2', shape: [1], data: Uint16Array.of(65535) },
    { dtype: 'u4', shape: [1], data: Uint32Array.of(0xffffffff) },
    { dtype: 'u8', shape: [1], data: BigUint64Array.of(2n ** 64n - 1n) },
  ];
  for (const a of arrays) {
    for (const version of [1, 2] as const) {
      const p = join(dir, `${a.dtype}-${version}.npy`);
      writeNpy(p, a, { version });
      const b = readNpy(p);
      assert.equal(b.dtype, a.dtype);
      assert.deepEqual(b.shape, a.shape);
      assert.deepEqual([...b.data], [...a.data]);
    }
  }
  const lt = Buffer.from(encodeNpy(arrays[7]!)).toString('latin1').replace("'|u1'", "'<u1'");
  assert.deepEqual([...parseNpy(Buffer.from(lt, 'latin1')).data], [0, 128, 255]);
});

function rejects(bytes: Uint8Array, pattern: RegExp) {
  assert.throws(
    () => parseNpy(bytes, 'x.npy'),
    (e: unknown) => e instanceof AxsimError && e.category === 'BadInput' && pattern.test(e.message),
  );
}

test('malformed files are BadInput with clear messages', () => {
  const good = hex(GOLDEN[0]!.hex);
  rejects(Uint8Array.of(1, 2, 3), /missing the \\x93NUMPY magic/);
  rejects(Buffer.concat([Buffer.from('\x93NUMPX'), good.subarray(6)]), /magic/);
  const v9 = good.slice();
  v9[6] = 9;
  rejects(v9, /unsupported \.npy format version 9\.0/);
  rejects(good.subarray(0, 50), /truncated \.npy header/);
  rejects(
    good.subarray(0, good.length - 1),
    /truncated data: shape \(3\) of <f4 needs 12 bytes, the file has 11/,
  );
  rejects(Buffer.concat([good, Buffer.from([0])]), /1 unexpected bytes after the data/);
  // NumPy-written files we must refuse: Fortran order, big-endian, bool.
  rejects(
    hex(
      `${V1}7b276465736372273a20273c6634272c2027666f727472616e5f6f72646572273a20547275652c20277368617065273a2028322c2033292c207d20202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020200a00000000000040400000803f00008040000000400000a040`,
    ),
    /Fortran-order/,
  );
  rejects(hex(`${V1}${HDR('>f4', '(1,)', 60)}3f800000`), /unsupported dtype '>f4'/);
  rejects(hex(`${V1}${HDR('|b1', '(1,)', 60)}01`), /unsupported dtype '\|b1'/);
  const edit = (from: string, to: string) => {
    const s = Buffer.from(good).toString('latin1').replace(from, to);
    return Uint8Array.from(Buffer.from(s, 'latin1'));
  };
  rejects(edit("{'descr'", "['descr'"), /malformed \.npy header.*expected '\{'/);
  rejects(edit("'shape': (3,)", "'shape': [3] "), /malformed \.npy header/);
  rejects(edit("'shape': (3,)", "'shape': (-3)"), /non-negative integer/);
  rejects(edit("'fortran_order': False", "'fortran_order': 0    "), /boolean 'fortran_order'/);
  rejects(edit("'descr'", "'dtype'"), /unexpected key 'dtype'/);
  rejects(edit("'<f4'", "'<f3'"), /unsupported dtype '<f3'.*/);
  rejects(edit("'fortran_order'", "'descr'        "), /duplicate key/);
  // A huge (v2.0) header is handled without blowing the stack.
  const big = new Uint8Array(12 + 300000);
  big.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 2, 0]);
  new DataView(big.buffer).setUint32(8, 300000, true);
  big.fill(0x20, 12);
  rejects(big, /expected '\{'/);
});

test('fuzz: 10,000 random byte strings and 6,000 mutated valid files only ever throw AxsimError', () => {
  const seeds = GOLDEN.map((g) => hex(g.hex));
  let rejected = 0;
  let accepted = 0;
  const run = (bytes: Uint8Array) => {
    try {
      parseNpy(bytes, 'fuzz.npy');
      accepted++;
    } catch (e) {
      if (!(e instanceof AxsimError)) throw e;
      rejected++;
    }
  };
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), (bytes, withMagic) => {
      if (withMagic && bytes.length >= 8)
        bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1 + (bytes[6]! % 3), 0]);
      run(bytes);
    }),
    { numRuns: 10000 },
  );
  fc.assert(
    fc.property(
      fc.nat(seeds.length - 1),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 3 })), {
        minLength: 1,
        maxLength: 4,
      }),
      (si, muts) => {
        let b = seeds[si]!.slice();
        for (const [pos, val, kind] of muts) {
          const p = pos % (b.length + 1);
          if (kind === 0 && p < b.length)
            b[p] = val; // overwrite
          else if (kind === 1)
            b = b.subarray(0, p); // truncate
          else if (kind === 2)
            b = Uint8Array.from([...b.subarray(0, p), val, ...b.subarray(p)]); // insert
          else if (p < b.length) b = Uint8Array.from([...b.subarray(0, p), ...b.subarray(p + 1)]); // delete
        }
        run(b);
      },
    ),
    { numRuns: 6000 },
  );
  assert.ok(rejected > 10000, `rejected ${rejected}`);
  assert.ok(accepted > 0, 'some mutations keep the file valid');
});

test('JSON tensors: nested arrays, shape/data objects, special values, errors', () => {
  const t = parseJsonTensor('[[1, 2.5], ["NaN", "-Infinity"], [-0, "-0"]]');
  assert.deepEqual(t.shape, [3, 2]);
  assert.deepEqual([...t.values], [1, 2.5, Number.NaN, -Infinity, -0, -0]);
  assert.ok(Object.is(t.values[4], -0));
  const o = parseJsonTensor('{"shape": [2, 1], "data": [3, "inf"]}');
  assert.deepEqual(o.shape, [2, 1]);
  assert.deepEqual([...o.values], [3, Infinity]);
  assert.deepEqual(parseJsonTensor('7').shape, []);
  const bad = (text: string, re: RegExp) =>
    assert.throws(
      () => parseJsonTensor(text, 't.json'),
      (e: unknown) => e instanceof AxsimError && e.category === 'BadInput' && re.test(e.message),
    );
  bad('[1, 2', /not valid JSON/);
  bad('[[1, 2], [3]]', /ragged array at \[1\]/);
  bad('[1, "x"]', /element \[1\] is "x", not a number/);
  bad('{"shape": [3], "data": [1]}', /needs 3 values/);
  bad('{"shape": [-1], "data": []}', /non-negative integers/);
  assert.equal(formatJsonTensor([2, 2], [1, Number.NaN, -Infinity, -0]), '[[1,"NaN"],["-Infinity","-0"]]');
  assert.equal(formatJsonTensor([], [5]), '5');
  assert.equal(formatJsonTensor([1], [2n ** 63n]), '["9223372036854775808"]');
  const text = formatJsonTensor([2, 3], [1, 2, 3, 4, Infinity, -0]);
  const back = parseJsonTensor(text);
  assert.deepEqual(back.shape, [2, 3]);
  assert.deepEqual([...back.values], [1, 2, 3, 4, Infinity, -0]);
  // readNpy/readJsonTensor report missing files as BadInput.
  assert.throws(
    () => readNpy('/nonexistent/x.npy'),
    (e: unknown) => e instanceof AxsimError && e.category === 'BadInput',
  );
});
