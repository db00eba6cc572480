import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { leb, section, sleb, WASM_HEADER, wasmName } from './wasm.ts';

interface WasmHost {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (m: object) => { exports: Record<string, unknown> };
}

// Decoders written here from the LEB128 definition (WebAssembly core spec, 5.2.2 Integers).
function unleb(bytes: number[]): number {
  let v = 0n;
  bytes.forEach((b, i) => {
    v |= BigInt(b & 0x7f) << BigInt(7 * i);
  });
  return Number(v);
}
function unsleb(bytes: number[]): number {
  let v = 0n;
  bytes.forEach((b, i) => {
    v |= BigInt(b & 0x7f) << BigInt(7 * i);
  });
  const bits = BigInt(7 * bytes.length);
  if (bytes[bytes.length - 1]! & 0x40) v -= 1n << bits;
  return Number(v);
}

test('leb: worked examples and round trip', () => {
  assert.deepEqual(leb(0), [0]);
  assert.deepEqual(leb(127), [0x7f]);
  assert.deepEqual(leb(128), [0x80, 0x01]);
  assert.deepEqual(leb(624485), [0xe5, 0x8e, 0x26]);
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 0xffffffff }), (n) => {
      const b = leb(n);
      assert.equal(unleb(b), n);
      for (const x of b.slice(0, -1)) assert.ok(x & 0x80);
      assert.equal(b[b.length - 1]! & 0x80, 0);
    }),
  );
});

test('sleb: worked examples and round trip', () => {
  assert.deepEqual(sleb(0), [0]);
  assert.deepEqual(sleb(-1), [0x7f]);
  assert.deepEqual(sleb(63), [0x3f]);
  assert.deepEqual(sleb(64), [0xc0, 0x00]);
  assert.deepEqual(sleb(-123456), [0xc0, 0xbb, 0x78]);
  fc.assert(
    fc.property(fc.integer({ min: -0x80000000, max: 0x7fffffff }), (n) => {
      assert.equal(unsleb(sleb(n)), n);
    }),
  );
});

test('section, name and header make a module WebAssembly accepts', () => {
  assert.deepEqual(section(3, [1, 2, 3]), [3, 3, 1, 2, 3]);
  assert.deepEqual(wasmName('ab'), [2, 0x61, 0x62]);
  // (module (type (func (result i32))) (func (type 0) i32.const 7) (export "f" (func 0)))
  const bytes = new Uint8Array([
    ...WASM_HEADER,
    ...section(1, [0x01, 0x60, 0x00, 0x01, 0x7f]),
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, ...wasmName('f'), 0x00, 0x00]),
    ...section(10, [0x01, 0x04, 0x00, 0x41, 0x07, 0x0b]),
  ]);
  // The project's tsconfig has no DOM/WebAssembly typings; the host's API is reached as the kernels do.
  const W = (globalThis as unknown as { WebAssembly: WasmHost }).WebAssembly;
  const inst = new W.Instance(new W.Module(bytes));
  assert.equal((inst.exports.f as () => number)(), 7);
});
