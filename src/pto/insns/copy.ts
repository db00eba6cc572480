/**
 * The one element copy loop behind TMOV, TTRANS, TEXTRACT and TINSERT: dst(map(r, c)) = src(r0 + r, c0 + c)
 * for r < rows, c < cols, visiting columns outermost like the CPU simulator's loops (TMov.hpp,
 * TTrans.hpp, TExtract.hpp). Equal element types copy the raw bytes (the C++ assignment keeps them);
 * different types convert like the implicit C++ conversion the simulator's `SetElement` performs.
 */
import { anyArith, type Profile } from '../arith.ts';
import { copyElem, off } from '../op.ts';
import type { Tile } from '../tile.ts';

export interface RegionMap {
  /** first source row / column read */
  srcRow?: number;
  srcCol?: number;
  /** write (r, c) to dst(c, r) instead of dst(r, c) */
  transpose?: boolean;
  /** first destination row / column written (TINSERT) */
  dstRow?: number;
  dstCol?: number;
  /** ReLU on the source value first (`val > 0 ? val : 0`, the ReluPreMode::NormalRelu variants) */
  relu?: boolean;
}

export function copyRegion(
  profile: Profile,
  s: Tile,
  d: Tile,
  rows: number,
  cols: number,
  map: RegionMap = {},
): void {
  const r0 = map.srcRow ?? 0;
  const c0 = map.srcCol ?? 0;
  const tr = map.transpose === true;
  const dr = map.dstRow ?? 0;
  const dc = map.dstCol ?? 0;
  if (map.relu === true) {
    reluRegion(profile, s, d, rows, cols, r0, c0, dr, dc, tr);
    return;
  }
  if (s.dtype === d.dtype) {
    for (let c = 0; c < cols; c++) {
      for (let r = 0; r < rows; r++) {
        copyElem(s, off(s, r0 + r, c0 + c), d, tr ? off(d, c, r) : off(d, dr + r, dc + c));
      }
    }
    return;
  }
  const S = anyArith(s.dtype, profile);
  const D = anyArith(d.dtype, profile);
  const sv = S.view(s.bytes);
  const dv = D.view(d.bytes);
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) {
      const x = S.toF64(S.load(sv, off(s, r0 + r, c0 + c)));
      D.store(dv, tr ? off(d, c, r) : off(d, dr + r, dc + c), D.fromF64(x));
    }
  }
}

/** copyRegion with ReLU (TExtract/TInsert `applyRelu`): a value that is not > 0 (NaN too) becomes 0. */
function reluRegion(
  profile: Profile,
  s: Tile,
  d: Tile,
  rows: number,
  cols: number,
  r0: number,
  c0: number,
  dr: number,
  dc: number,
  tr: boolean,
): void {
  const S = anyArith(s.dtype, profile);
  const D = anyArith(d.dtype, profile);
  const sv = S.view(s.bytes);
  const dv = D.view(d.bytes);
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) {
      const so = off(s, r0 + r, c0 + c);
      const o = tr ? off(d, c, r) : off(d, dr + r, dc + c);
      const x = S.load(sv, so);
      if (!S.lt(S.zero, x)) D.store(dv, o, D.zero);
      else if (s.dtype === d.dtype) copyElem(s, so, d, o);
      else D.store(dv, o, D.fromF64(S.toF64(x)));
    }
  }
}
