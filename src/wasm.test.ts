import assert from 'node:assert/strict';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { leb, section, sleb, WASM_HEADER, WasmPool, wasmExports, wasmName } from './wasm.ts';

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

// (module (import "e" "m" (memory 1)) (func (param i32) (result i32) local.get 0 i32.load)
//   (export "peek" (func 0))): reads a word of the imported memory
function peekModule(shared: boolean): Uint8Array {
  return new Uint8Array([
    ...WASM_HEADER,
    ...section(1, [0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f]),
    ...section(2, [
      0x01,
      ...wasmName('e'),
      ...wasmName('m'),
      0x02,
      ...(shared ? [0x03, 0x01, 0x04] : [0x00, 0x01]),
    ]),
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, ...wasmName('peek'), 0x00, 0x00]),
    ...section(10, [0x01, 0x07, 0x00, 0x20, 0x00, 0x28, 0x02, 0x00, 0x0b]),
  ]);
}

test('wasmExports instantiates a module on a pool memory; a module the host refuses gives undefined', () => {
  const pool = WasmPool.create(1);
  assert.ok(pool);
  const at = pool.alloc(16);
  new Uint32Array(pool.buffer, at, 4)[1] = 0xdeadbeef;
  const peek = wasmExports(peekModule(false), pool.memory)?.peek as (a: number) => number;
  assert.equal(peek(at + 4) >>> 0, 0xdeadbeef);
  // a shared-memory import does not match a plain memory: refused, reported as undefined
  assert.equal(wasmExports(peekModule(true), pool.memory), undefined);
  assert.equal(wasmExports(new Uint8Array([1, 2, 3]), pool.memory), undefined);
});

test('WasmPool hands out disjoint blocks, keeps the reserved bytes, and says when it is full', () => {
  const pool = WasmPool.create(1, { reserved: 512 });
  assert.ok(pool);
  const got: [number, number][] = [];
  for (const size of [64, 4096, 16, 1000, 64]) {
    const at = pool.alloc(size);
    assert.ok(at >= 512 && at + size <= 65536, `block ${at}+${size}`);
    for (const [o, n] of got) assert.ok(at + size <= o || o + n <= at, `${at}+${size} overlaps ${o}+${n}`);
    got.push([at, size]);
  }
  // a plain pool never grows (growing would detach the views already made)
  assert.equal(pool.alloc(65536), -1);
  assert.equal(pool.buffer.byteLength, 65536);
  assert.ok(pool.owns(pool.buffer));
  assert.ok(!pool.owns(new ArrayBuffer(8)));
});

test('a shared WasmPool grows and the views made before stay valid', () => {
  const pool = WasmPool.create(1, { shared: true, maxPages: 4 });
  if (!pool) return; // no shared WebAssembly memory on this host
  const at = pool.alloc(1024);
  const before = new Uint8Array(pool.buffer, at, 1024);
  before.fill(7);
  const big = pool.alloc(2 * 65536);
  assert.ok(big >= 0, 'grown');
  assert.ok(pool.buffer.byteLength >= big + 2 * 65536);
  assert.ok(pool.owns(before.buffer) && pool.owns(pool.buffer));
  assert.equal(before.length, 1024);
  assert.ok(before.every((x) => x === 7));
  new Uint8Array(pool.buffer, at, 1)[0] = 9; // the same memory through the new buffer object
  assert.equal(before[0], 9);
  // past maxPages: full
  assert.equal(pool.alloc(4 * 65536), -1);
});

test('a WasmPool block is handed out again only after all its views are collected', async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const pool = WasmPool.create(1);
  assert.ok(pool);
  const at = pool.alloc(256);
  let x: Uint8Array | undefined = new Uint8Array(pool.buffer, at, 128);
  const y = new Uint8Array(pool.buffer, at + 128, 128);
  pool.recycle(at, 256, [x, y]);
  x = undefined;
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  // y is still reachable: the block is not free, a new request gets another block
  assert.notEqual(pool.alloc(256), at);
  assert.equal(y.length, 128);
});
