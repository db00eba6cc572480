/**
 * Shared loops of the elementwise families: iterate the destination valid region (pto-isa
 * ElementTileOp.h / TBinSOps.hpp) and read every operand at its own layout's offset.
 */
import { undefinedBehaviour } from '../../errors.ts';
import type { Arith } from '../arith.ts';
import { copyElem, type ExecCtx, off, reject, tileArith } from '../op.ts';

export type Bin = (A: Arith<unknown>, a: unknown, b: unknown) => unknown;
export type Un = (A: Arith<unknown>, a: unknown) => unknown;

/**
 * The loops below read every operand through dst's element view, and the simulator's templates
 * static_assert one element type for all of them (ElementTileOp.h "Underlying data types in tiles
 * should be the same", TBinSOps.hpp CheckDstSrcTileData): a source of another type is Unsupported
 * rather than reinterpreted byte for byte (a silently wrong answer) or, with a 64-bit dst, a crash.
 */
export function requireDstType(ctx: ExecCtx, names: readonly string[]): void {
  const d = ctx.tiles.dst!.dtype;
  for (const n of names) {
    const t = ctx.tiles[n]!;
    if (t.dtype !== d) reject(ctx.op.name, d, `${n} (${t.dtype}) must have dst's element type`, ctx.profile);
  }
}

/** dst(r,c) = f(x(r,c), y(r,c)) over dst's valid region. */
export function binaryLoop(ctx: ExecCtx, x: string, y: string, f: Bin): void {
  requireDstType(ctx, [x, y]);
  const d = ctx.tiles.dst!;
  const s0 = ctx.tiles[x]!;
  const s1 = ctx.tiles[y]!;
  const A = tileArith(ctx, 'dst');
  const dv = A.view(d.bytes);
  const v0 = A.view(s0.bytes);
  const v1 = A.view(s1.bytes);
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      A.store(dv, off(d, r, c), f(A, A.load(v0, off(s0, r, c)), A.load(v1, off(s1, r, c))));
    }
  }
}

/** Like binaryLoop, but every operand is indexed with dst's element offsets (one C++ tile type). */
export function binaryLoopDstOffsets(ctx: ExecCtx, x: string, y: string, f: Bin): void {
  requireDstType(ctx, [x, y]);
  const d = ctx.tiles.dst!;
  const s0 = ctx.tiles[x]!;
  const s1 = ctx.tiles[y]!;
  const A = tileArith(ctx, 'dst');
  const dv = A.view(d.bytes);
  const v0 = A.view(s0.bytes);
  const v1 = A.view(s1.bytes);
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const o = off(d, r, c);
      if (o >= s0.numel || o >= s1.numel) {
        throw undefinedBehaviour(`${ctx.op.name}: element ${o} of dst's layout lies outside a source buffer`);
      }
      A.store(dv, o, f(A, A.load(v0, o), A.load(v1, o)));
    }
  }
}

/** dst(r,c) = f(x(r,c)) over dst's valid region. */
export function unaryLoop(ctx: ExecCtx, x: string, f: Un): void {
  requireDstType(ctx, [x]);
  const d = ctx.tiles.dst!;
  const s = ctx.tiles[x]!;
  const A = tileArith(ctx, 'dst');
  const dv = A.view(d.bytes);
  const sv = A.view(s.bytes);
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      A.store(dv, off(d, r, c), f(A, A.load(sv, off(s, r, c))));
    }
  }
}

/** dst(r,c) = f(a(r,c), b(r,c), c(r,c)) over dst's valid region (c may be dst itself). */
export function ternaryLoop(
  ctx: ExecCtx,
  x: string,
  y: string,
  z: string,
  f: (A: Arith<unknown>, a: unknown, b: unknown, c: unknown) => unknown,
): void {
  requireDstType(ctx, [x, y, z]);
  const d = ctx.tiles.dst!;
  const s0 = ctx.tiles[x]!;
  const s1 = ctx.tiles[y]!;
  const s2 = ctx.tiles[z]!;
  const A = tileArith(ctx, 'dst');
  const dv = A.view(d.bytes);
  const v0 = A.view(s0.bytes);
  const v1 = A.view(s1.bytes);
  const v2 = A.view(s2.bytes);
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const o = off(d, r, c);
      A.store(dv, o, f(A, A.load(v0, off(s0, r, c)), A.load(v1, off(s1, r, c)), A.load(v2, off(s2, r, c))));
    }
  }
}

/**
 * Selection ops whose C++ returns a reference to one operand (std::max/min, ReLU via std::max):
 * `pick` says which source's raw element is copied (0 = x, 1 = y); the bytes are copied unchanged.
 */
export function pickLoop(
  ctx: ExecCtx,
  x: string,
  y: string,
  pick: (A: Arith<unknown>, a: unknown, b: unknown) => 0 | 1,
): void {
  requireDstType(ctx, [x, y]);
  const d = ctx.tiles.dst!;
  const s0 = ctx.tiles[x]!;
  const s1 = ctx.tiles[y]!;
  const A = tileArith(ctx, 'dst');
  const v0 = A.view(s0.bytes);
  const v1 = A.view(s1.bytes);
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const o0 = off(s0, r, c);
      const o1 = off(s1, r, c);
      if (pick(A, A.load(v0, o0), A.load(v1, o1)) === 0) copyElem(s0, o0, d, off(d, r, c));
      else copyElem(s1, o1, d, off(d, r, c));
    }
  }
}

/** C `pow` as the reference's glibc computes it (glibc.ts). */
export { glibcPow as cPow } from '../glibc.ts';
