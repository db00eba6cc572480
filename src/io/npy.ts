/**
 * NumPy `.npy` reader/writer (format versions 1.0, 2.0 and, for reading, 3.0), C order, the
 * little-endian numeric dtypes axsim uses. Format: numpy/lib/format.py docs ("NEP 1"): magic
 * "\x93NUMPY", major, minor, header length (u16 LE in 1.0, u32 LE in 2.0/3.0), then an ASCII
 * (UTF-8 in 3.0) Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...), }
 * padded with spaces and a newline so the data starts 64-byte aligned.
 *
 * Every malformed input is rejected with a BadInput AxsimError that says what is wrong.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { type AxsimError, badInput, nearestName } from '../errors.ts';

export type NpyDtype = 'f2' | 'f4' | 'f8' | 'i1' | 'i2' | 'i4' | 'i8' | 'u1' | 'u2' | 'u4' | 'u8';

/** Typed array per dtype. `f2` (binary16) is held as raw bit patterns in a Uint16Array. */
export type NpyData =
  | Uint16Array
  | Float32Array
  | Float64Array
  | Int8Array
  | Int16Array
  | Int32Array
  | BigInt64Array
  | Uint8Array
  | Uint32Array
  | BigUint64Array;

export interface NpyArray {
  dtype: NpyDtype;
  shape: number[];
  data: NpyData;
}

interface DtypeInfo {
  size: number;
  make: (buf: ArrayBuffer, n: number) => NpyData;
}

const DTYPES: Record<NpyDtype, DtypeInfo> = {
  f2: { size: 2, make: (b, n) => new Uint16Array(b, 0, n) },
  f4: { size: 4, make: (b, n) => new Float32Array(b, 0, n) },
  f8: { size: 8, make: (b, n) => new Float64Array(b, 0, n) },
  i1: { size: 1, make: (b, n) => new Int8Array(b, 0, n) },
  i2: { size: 2, make: (b, n) => new Int16Array(b, 0, n) },
  i4: { size: 4, make: (b, n) => new Int32Array(b, 0, n) },
  i8: { size: 8, make: (b, n) => new BigInt64Array(b, 0, n) },
  u1: { size: 1, make: (b, n) => new Uint8Array(b, 0, n) },
  u2: { size: 2, make: (b, n) => new Uint16Array(b, 0, n) },
  u4: { size: 4, make: (b, n) => new Uint32Array(b, 0, n) },
  u8: { size: 8, make: (b, n) => new BigUint64Array(b, 0, n) },
};

/** The `descr` strings accepted on reading ('|' is how numpy writes single-byte types). */
export const NPY_DESCRS: readonly string[] = [
  '<f2',
  '<f4',
  '<f8',
  '<i1',
  '|i1',
  '<i2',
  '<i4',
  '<i8',
  '<u1',
  '|u1',
  '<u2',
  '<u4',
  '<u8',
];

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY
const HOST_LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A typed-array view of `n` elements of `dtype` over `buf` from byte 0 (host byte order: little-endian). */
export function npyDataOf(dtype: NpyDtype, buf: ArrayBuffer, n: number): NpyData {
  return DTYPES[dtype].make(buf, n);
}

/** Bytes of one element of `dtype`. */
export function dtypeSize(dtype: NpyDtype): number {
  return DTYPES[dtype].size;
}

/** Number of elements of a shape (1 for the empty shape, a scalar). */
export function shapeSize(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

function fail(where: string, msg: string, hint?: string): AxsimError {
  return badInput(`${where}: ${msg}`, hint ? { hint } : undefined);
}

/** Parses the bytes of a .npy file. `name` is used in error messages. */
export function parseNpy(bytes: Uint8Array, name = '<npy>'): NpyArray {
  if (bytes.length < 10 || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw fail(name, 'not a NumPy .npy file (missing the \\x93NUMPY magic)', 'write it with numpy.save');
  }
  const major = bytes[6]!;
  const minor = bytes[7]!;
  if (minor !== 0 || major < 1 || major > 3) {
    throw fail(name, `unsupported .npy format version ${major}.${minor} (supported: 1.0, 2.0, 3.0)`);
  }
  let headerStart: number;
  let headerLen: number;
  if (major === 1) {
    headerLen = bytes[8]! | (bytes[9]! << 8);
    headerStart = 10;
  } else {
    if (bytes.length < 12) throw fail(name, 'truncated .npy header length field');
    headerLen = (bytes[8]! | (bytes[9]! << 8) | (bytes[10]! << 16) | (bytes[11]! << 24)) >>> 0;
    headerStart = 12;
  }
  const dataStart = headerStart + headerLen;
  if (dataStart > bytes.length) {
    throw fail(
      name,
      `truncated .npy header: it declares ${headerLen} bytes, the file has ${bytes.length - headerStart}`,
    );
  }
  const headerBytes = bytes.subarray(headerStart, dataStart);
  let header: string;
  if (major === 3) {
    try {
      header = new TextDecoder('utf-8', { fatal: true }).decode(headerBytes);
    } catch {
      throw fail(name, 'the .npy 3.0 header is not valid UTF-8');
    }
  } else {
    for (const b of headerBytes) {
      if (b > 0x7e || (b < 0x20 && b !== 0x0a && b !== 0x09 && b !== 0x0d)) {
        throw fail(name, `the .npy header contains a non-ASCII byte 0x${b.toString(16)}`);
      }
    }
    header = new TextDecoder('latin1').decode(headerBytes);
  }
  const dict = parseHeaderDict(header, name);
  const descr = dict.get('descr');
  const fortran = dict.get('fortran_order');
  const shapeV = dict.get('shape');
  for (const k of dict.keys()) {
    if (k !== 'descr' && k !== 'fortran_order' && k !== 'shape') {
      throw fail(name, `unexpected key '${k}' in the .npy header (expected descr, fortran_order, shape)`);
    }
  }
  if (typeof descr !== 'string') throw fail(name, "the .npy header has no string 'descr' (the dtype)");
  if (typeof fortran !== 'boolean') throw fail(name, "the .npy header has no boolean 'fortran_order'");
  if (!Array.isArray(shapeV)) throw fail(name, "the .npy header has no tuple 'shape'");
  if (!NPY_DESCRS.includes(descr)) {
    const near = nearestName(descr, NPY_DESCRS);
    throw fail(
      name,
      `unsupported dtype '${descr}'`,
      `${near ? `did you mean '${near}'? ` : ''}supported: ${NPY_DESCRS.join(' ')} (little-endian; convert with arr.astype(...))`,
    );
  }
  if (fortran) {
    throw fail(
      name,
      'Fortran-order (column-major) arrays are not supported',
      'save numpy.ascontiguousarray(arr)',
    );
  }
  const dtype = descr.slice(1) as NpyDtype;
  const shape = shapeV as number[];
  const info = DTYPES[dtype];
  const count = shapeSize(shape);
  const want = count * info.size;
  const have = bytes.length - dataStart;
  if (!Number.isSafeInteger(want)) throw fail(name, `shape (${shape.join(', ')}) is too large`);
  if (have < want) {
    throw fail(
      name,
      `truncated data: shape (${shape.join(', ')}) of ${descr} needs ${want} bytes, the file has ${have}`,
    );
  }
  if (have > want) {
    throw fail(
      name,
      `${have - want} unexpected bytes after the data of shape (${shape.join(', ')}) of ${descr}`,
    );
  }
  // Copy into a fresh buffer: aligned for the typed array whatever the header length.
  const buf = new ArrayBuffer(want);
  new Uint8Array(buf).set(bytes.subarray(dataStart, dataStart + want));
  if (!HOST_LE && info.size > 1) byteSwap(new Uint8Array(buf), info.size);
  return { dtype, shape, data: info.make(buf, count) };
}

function byteSwap(b: Uint8Array, size: number): void {
  for (let i = 0; i < b.length; i += size) b.subarray(i, i + size).reverse();
}

type HeaderValue = string | boolean | number | number[];

/**
 * Parses the header: a Python dict literal whose keys are strings and whose values are strings,
 * True/False, integers or tuples of integers. Anything else is rejected.
 */
function parseHeaderDict(text: string, name: string): Map<string, HeaderValue> {
  let i = 0;
  const err = (what: string) =>
    fail(
      name,
      `malformed .npy header at offset ${i}: ${what} (header: ${JSON.stringify(text.slice(0, 120))})`,
    );
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\t' || text[i] === '\r'))
      i++;
  };
  const str = (): string => {
    const q = text[i];
    if (q !== "'" && q !== '"') throw err('expected a quoted string');
    const end = text.indexOf(q, i + 1);
    if (end < 0) throw err('unterminated string');
    const s = text.slice(i + 1, end);
    if (s.includes('\\')) throw err('escapes in strings are not supported');
    i = end + 1;
    return s;
  };
  const int = (): number => {
    const m = /^[0-9]+L?/.exec(text.slice(i, i + 24));
    if (!m) throw err('expected a non-negative integer');
    i += m[0].length;
    const v = Number.parseInt(m[0], 10);
    if (!Number.isSafeInteger(v)) throw err('integer too large');
    return v;
  };
  const value = (): HeaderValue => {
    const c = text[i];
    if (c === "'" || c === '"') return str();
    if (text.startsWith('True', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('False', i)) {
      i += 5;
      return false;
    }
    if (c === '(') {
      i++;
      const out: number[] = [];
      ws();
      while (text[i] !== ')') {
        out.push(int());
        ws();
        if (text[i] === ',') {
          i++;
          ws();
        } else if (text[i] !== ')') {
          throw err("expected ',' or ')' in the shape tuple");
        }
        if (out.length > 64) throw err('more than 64 dimensions');
      }
      i++;
      return out;
    }
    if (c !== undefined && c >= '0' && c <= '9') return int();
    throw err('expected a string, True, False, an integer or a tuple');
  };
  const out = new Map<string, HeaderValue>();
  ws();
  if (text[i] !== '{') throw err("expected '{'");
  i++;
  ws();
  while (text[i] !== '}') {
    if (i >= text.length) throw err("missing '}'");
    const k = str();
    ws();
    if (text[i] !== ':') throw err("expected ':'");
    i++;
    ws();
    if (out.has(k)) throw err(`duplicate key '${k}'`);
    out.set(k, value());
    ws();
    if (text[i] === ',') {
      i++;
      ws();
    } else if (text[i] !== '}') {
      throw err("expected ',' or '}'");
    }
  }
  i++;
  ws();
  if (i !== text.length) throw err('unexpected text after the dict');
  return out;
}

const TYPED_DTYPE: [new (...a: never[]) => NpyData, NpyDtype][] = [
  [Float32Array, 'f4'],
  [Float64Array, 'f8'],
  [Int8Array, 'i1'],
  [Int16Array, 'i2'],
  [Int32Array, 'i4'],
  [BigInt64Array, 'i8'],
  [Uint8Array, 'u1'],
  [Uint32Array, 'u4'],
  [BigUint64Array, 'u8'],
];

/** Serialises an array as .npy bytes (version 1.0 unless the header needs 2.0, or as asked). */
export function encodeNpy(arr: NpyArray, opts: { version?: 1 | 2 } = {}): Uint8Array {
  const info = DTYPES[arr.dtype];
  if (!info) throw badInput(`unsupported dtype '${String(arr.dtype)}'`);
  for (const d of arr.shape) {
    if (!Number.isSafeInteger(d) || d < 0) throw badInput(`invalid dimension ${d} in shape`);
  }
  const count = shapeSize(arr.shape);
  if (arr.data.length !== count) {
    throw badInput(`data has ${arr.data.length} elements but shape (${arr.shape.join(', ')}) needs ${count}`);
  }
  if (arr.data.BYTES_PER_ELEMENT !== info.size) {
    throw badInput(`a ${arr.data.constructor.name} cannot hold dtype ${arr.dtype}`);
  }
  const expected = TYPED_DTYPE.find(([, d]) => d === arr.dtype)?.[0];
  if (expected && !(arr.data instanceof expected) && arr.dtype !== 'u2') {
    throw badInput(`dtype ${arr.dtype} needs a ${expected.name}, got a ${arr.data.constructor.name}`);
  }
  const descr = info.size === 1 ? `|${arr.dtype}` : `<${arr.dtype}`;
  const shapeText = arr.shape.length === 1 ? `(${arr.shape[0]},)` : `(${arr.shape.join(', ')})`;
  const dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeText}, }`;
  let version = opts.version ?? 1;
  let pre = version === 1 ? 10 : 12;
  let total = Math.ceil((pre + dict.length + 1) / 64) * 64;
  if (version === 1 && total - pre > 0xffff) {
    version = 2;
    pre = 12;
    total = Math.ceil((pre + dict.length + 1) / 64) * 64;
  }
  const headerLen = total - pre;
  const header = `${dict}${' '.repeat(headerLen - dict.length - 1)}\n`;
  const dataBytes = count * info.size;
  const out = new Uint8Array(total + dataBytes);
  out.set(MAGIC, 0);
  out[6] = version;
  out[7] = 0;
  const dv = new DataView(out.buffer);
  if (version === 1) dv.setUint16(8, headerLen, true);
  else dv.setUint32(8, headerLen, true);
  for (let k = 0; k < header.length; k++) out[pre + k] = header.charCodeAt(k);
  const src = new Uint8Array(arr.data.buffer, arr.data.byteOffset, dataBytes);
  out.set(src, total);
  if (!HOST_LE && info.size > 1) byteSwap(out.subarray(total), info.size);
  return out;
}

/** Reads a .npy file; file-system errors become BadInput. */
export function readNpy(path: string): NpyArray {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw badInput(`cannot read ${path}: ${(e as Error).message}`, { cause: e });
  }
  return parseNpy(bytes, path);
}

/** Writes a .npy file; file-system errors become BadInput. */
export function writeNpy(path: string, arr: NpyArray, opts?: { version?: 1 | 2 }): void {
  const bytes = encodeNpy(arr, opts);
  try {
    writeFileSync(path, bytes);
  } catch (e) {
    throw badInput(`cannot write ${path}: ${(e as Error).message}`, { cause: e });
  }
}
