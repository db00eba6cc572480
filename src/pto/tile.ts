/**
 * The PTO tile model: a fixed physical `rows x cols` buffer of one element type in one storage
 * location, with a (static or runtime) valid region, a base layout, an optional box ("fractal")
 * layout and a pad value. Storage is the raw little-endian bytes of the whole physical buffer, so a
 * tile can be compared byte for byte with the reference simulator.
 *
 * Element offsets follow pto-isa `include/pto/cpu/tile_offsets.hpp` (see docs/pto.md, "Layouts").
 */
import { badInput } from '../errors.ts';
import { DTYPE_INFO, type DType, isDType } from './dtype.ts';
import { allocBytes, pin, poolAddress } from './simd.ts';

export type TileLoc = 'vec' | 'mat' | 'left' | 'right' | 'acc' | 'bias' | 'scaling';
export const TILE_LOCS: readonly TileLoc[] = ['vec', 'mat', 'left', 'right', 'acc', 'bias', 'scaling'];
/** Base layout: how boxes (or elements, without boxes) are ordered. */
export type BLayout = 'row' | 'col';
/** Box layout: none, row-major boxes ("Nz" with a col-major base), col-major boxes ("Zn"). */
export type SLayout = 'none' | 'row' | 'col';
export type PadValue = 'null' | 'zero' | 'max' | 'min';

export interface TileSpec {
  dtype: DType;
  rows: number;
  cols: number;
  loc?: TileLoc;
  /** Runtime valid rows (defaults to `rows`). */
  validRow?: number;
  validCol?: number;
  /** True when the valid shape is a runtime value (`Tile<..., -1, -1>`); informational. */
  dynamic?: boolean;
  blayout?: BLayout;
  slayout?: SLayout;
  /** Box size in bytes (512 standard, 1024 for accumulator 16x16 boxes). */
  fractal?: number;
  pad?: PadValue;
}

/** Named layouts of the conformance format (`PTO-FORMAT.md`, "Tile objects"). */
export type NamedLayout = 'RM' | 'CM' | 'LEFT' | 'RIGHT' | 'ACC' | 'BIAS';

export function namedLayout(name: NamedLayout): Pick<TileSpec, 'loc' | 'blayout' | 'slayout' | 'fractal'> {
  switch (name) {
    case 'RM':
      return { loc: 'vec', blayout: 'row', slayout: 'none', fractal: 512 };
    case 'CM':
      return { loc: 'vec', blayout: 'col', slayout: 'none', fractal: 512 };
    case 'LEFT':
      return { loc: 'left', blayout: 'col', slayout: 'row', fractal: 512 };
    case 'RIGHT':
      return { loc: 'right', blayout: 'row', slayout: 'col', fractal: 512 };
    case 'ACC':
      return { loc: 'acc', blayout: 'col', slayout: 'row', fractal: 1024 };
    case 'BIAS':
      return { loc: 'bias', blayout: 'row', slayout: 'none', fractal: 512 };
  }
}

/** The last {@link Tile.uid} handed out. */
let lastUid = 0;

export class Tile {
  /**
   * A number no other tile of this process has (registry `execute` recognises the operands of its
   * last call by it without keeping them alive).
   */
  readonly uid: number = ++lastUid;
  readonly dtype: DType;
  readonly loc: TileLoc;
  readonly rows: number;
  readonly cols: number;
  validRow: number;
  validCol: number;
  readonly dynamic: boolean;
  readonly blayout: BLayout;
  readonly slayout: SLayout;
  readonly fractal: number;
  readonly pad: PadValue;
  /** Inner box shape (1x1 without boxes). */
  readonly innerRows: number;
  readonly innerCols: number;
  /** The raw bytes of the whole physical buffer. */
  readonly bytes: Uint8Array;
  readonly elemBytes: number;

  constructor(spec: TileSpec, bytes?: Uint8Array) {
    if (!isDType(spec.dtype)) throw badInput(`unknown element type '${String(spec.dtype)}'`);
    const { rows, cols } = spec;
    if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 1 || cols < 1 || rows * cols > 1 << 24) {
      throw badInput(`tile shape ${rows}x${cols} is not a positive integer shape (at most 2^24 elements)`);
    }
    this.dtype = spec.dtype;
    this.loc = spec.loc ?? 'vec';
    this.rows = rows;
    this.cols = cols;
    this.validRow = spec.validRow ?? rows;
    this.validCol = spec.validCol ?? cols;
    this.dynamic = spec.dynamic ?? true;
    this.blayout = spec.blayout ?? 'row';
    this.slayout = spec.slayout ?? 'none';
    this.fractal = spec.fractal ?? 512;
    this.pad = spec.pad ?? 'null';
    this.elemBytes = DTYPE_INFO[this.dtype].bytes;
    checkValid(this.validRow, rows, 'validRow');
    checkValid(this.validCol, cols, 'validCol');
    if (this.slayout === 'none') {
      this.innerRows = 1;
      this.innerCols = 1;
    } else if (this.fractal === 1024) {
      this.innerRows = 16;
      this.innerCols = 16;
    } else if (this.fractal === 512) {
      const b = 32 / this.elemBytes;
      this.innerRows = this.slayout === 'row' ? 16 : b;
      this.innerCols = this.slayout === 'row' ? b : 16;
    } else {
      throw badInput(`fractal size ${this.fractal} is not supported (512 or 1024 bytes)`);
    }
    if (
      this.slayout !== 'none' &&
      (cols % this.innerCols !== 0 || (rows !== 1 && rows % this.innerRows !== 0))
    ) {
      throw badInput(
        `a ${rows}x${cols} ${this.dtype} tile cannot hold ${this.innerRows}x${this.innerCols} boxes`,
        { hint: 'rows and cols must be multiples of the inner box shape' },
      );
    }
    const n = rows * cols * this.elemBytes;
    if (bytes !== undefined) {
      if (bytes.length !== n) {
        throw badInput(
          `tile data has ${bytes.length} bytes, a ${rows}x${cols} ${this.dtype} tile needs ${n}`,
        );
      }
      this.bytes = bytes;
    } else {
      this.bytes = allocBytes(n, this);
    }
    this.poolAddr = poolAddress(this.bytes);
  }

  /**
   * Byte address of `bytes` in the SIMD kernels' memory (simd.ts), or -1 when they are elsewhere.
   * Found once here: reading a typed array's `.buffer` costs about 100 ns in V8, too much per op.
   */
  readonly poolAddr: number;

  get numel(): number {
    return this.rows * this.cols;
  }

  private f32Cache: Float32Array | undefined;
  /** The buffer as a Float32Array (cached; only meaningful for f32 tiles). */
  f32(): Float32Array {
    if (this.f32Cache === undefined) {
      this.f32Cache = pin(
        new Float32Array(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength >> 2),
        this.bytes,
      );
    }
    return this.f32Cache;
  }

  /** Element offset of (r, c) in the physical buffer (pto-isa `GetTileElementOffset`). */
  offset(r: number, c: number): number {
    if (this.slayout === 'none') return this.blayout === 'row' ? r * this.cols + c : c * this.rows + r;
    const ir = this.innerRows;
    const ic = this.innerCols;
    const sr = (r / ir) | 0;
    const rr = r % ir;
    const sc = (c / ic) | 0;
    const cc = c % ic;
    const inner = ir * ic;
    if (this.blayout === 'col') {
      // Nz (inner row-major) / Nn (inner col-major): boxes ordered column by column
      const base = sc * this.rows * ic + sr * inner;
      return this.slayout === 'row' ? base + rr * ic + cc : base + cc * ir + rr;
    }
    // Zz (inner row-major) / Zn (inner col-major): boxes ordered row by row
    const base = sr * this.cols * ir + sc * inner;
    return this.slayout === 'row' ? base + rr * ic + cc : base + cc * ir + rr;
  }

  isRowMajor(): boolean {
    return this.blayout === 'row';
  }

  /** True when (r, c) lies in the valid region. */
  inValid(r: number, c: number): boolean {
    return r < this.validRow && c < this.validCol;
  }

  /** A deep copy (same spec and bytes). */
  clone(): Tile {
    const t = new Tile(this.spec());
    t.bytes.set(this.bytes);
    return t;
  }

  spec(): TileSpec {
    return {
      dtype: this.dtype,
      rows: this.rows,
      cols: this.cols,
      loc: this.loc,
      validRow: this.validRow,
      validCol: this.validCol,
      dynamic: this.dynamic,
      blayout: this.blayout,
      slayout: this.slayout,
      fractal: this.fractal,
      pad: this.pad,
    };
  }

  /** Sets the runtime valid region (dynamic valid shapes). */
  setValid(validRow: number, validCol: number): void {
    checkValid(validRow, this.rows, 'validRow');
    checkValid(validCol, this.cols, 'validCol');
    this.validRow = validRow;
    this.validCol = validCol;
  }

  describe(): string {
    const lay =
      this.slayout === 'none'
        ? this.blayout === 'row'
          ? 'RowMajor'
          : 'ColMajor'
        : `${this.blayout === 'row' ? 'RowMajor' : 'ColMajor'}/${this.slayout === 'row' ? 'RowMajorBox' : 'ColMajorBox'}`;
    return `Tile<${this.loc}, ${this.dtype}, ${this.rows}x${this.cols}, valid ${this.validRow}x${this.validCol}, ${lay}>`;
  }
}

function checkValid(v: number, max: number, what: string): void {
  if (!Number.isInteger(v) || v < 0 || v > max) {
    throw badInput(`${what} ${v} is outside 0..${max}`, {
      hint: 'the valid region must lie inside the physical tile',
    });
  }
}

/** 5-D global tensor view (pto-isa `GlobalTensor`): shape and stride per dim, ND or DN layout. */
export type GlobalLayout = 'ND' | 'DN';

export class GlobalTensor {
  readonly dtype: DType;
  readonly shape: readonly [number, number, number, number, number];
  readonly stride: readonly [number, number, number, number, number];
  readonly layout: GlobalLayout;
  /** Raw little-endian bytes of the addressed memory (at least `span()` elements). */
  readonly bytes: Uint8Array;

  constructor(
    dtype: DType,
    shape: readonly number[],
    stride: readonly number[],
    layout: GlobalLayout = 'ND',
    bytes?: Uint8Array,
  ) {
    if (!isDType(dtype)) throw badInput(`unknown element type '${String(dtype)}'`);
    if (shape.length !== 5 || stride.length !== 5)
      throw badInput('a GlobalTensor has 5 shape and 5 stride entries');
    for (const v of [...shape, ...stride]) {
      if (!Number.isInteger(v) || v < 0)
        throw badInput(`GlobalTensor shape/stride ${v} is not a non-negative integer`);
    }
    if (layout !== 'ND' && layout !== 'DN')
      throw badInput(`GlobalTensor layout '${String(layout)}' is not ND or DN`);
    this.dtype = dtype;
    this.shape = shape as unknown as GlobalTensor['shape'];
    this.stride = stride as unknown as GlobalTensor['stride'];
    this.layout = layout;
    const n = this.span() * DTYPE_INFO[dtype].bytes;
    if (bytes !== undefined) {
      if (bytes.length < n)
        throw badInput(`GlobalTensor data has ${bytes.length} bytes, the view spans ${n}`);
      this.bytes = bytes;
    } else {
      this.bytes = new Uint8Array(n);
    }
  }

  /** Elements addressed: 1 + sum (shape_i - 1) * stride_i. */
  span(): number {
    let s = 1;
    for (let i = 0; i < 5; i++) s += Math.max(0, this.shape[i]! - 1) * this.stride[i]!;
    return s;
  }

  /**
   * Element offset of tile coordinate (r, c) (pto-isa `MapTileIndicesToGlobalOffset`): ND maps rows
   * over dims 0..3 and columns to dim 4; DN maps rows to dim 3 and columns over dims 0, 1, 2, 4.
   */
  offsetOf(r: number, c: number): number {
    const [, s1, s2, s3, s4] = this.shape;
    const [t0, t1, t2, t3, t4] = this.stride;
    let i0: number;
    let i1: number;
    let i2: number;
    let i3: number;
    let i4: number;
    if (this.layout === 'ND') {
      i4 = c;
      i3 = r % s3;
      i2 = Math.floor(r / s3) % s2;
      i1 = Math.floor(r / (s3 * s2)) % s1;
      i0 = Math.floor(r / (s1 * s2 * s3));
    } else {
      i3 = r;
      i4 = c % s4;
      i2 = Math.floor(c / s4) % s2;
      i1 = Math.floor(c / (s4 * s2)) % s1;
      i0 = Math.floor(c / (s1 * s2 * s4));
    }
    return i0 * t0 + i1 * t1 + i2 * t2 + i3 * t3 + i4 * t4;
  }
}
