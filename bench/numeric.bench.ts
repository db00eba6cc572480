/**
 * Conversions per second for fp32 -> binary16, fp32 -> bfloat16 and fp32 -> OCP fp8 E4M3 (RNE)
 * over a 1M-element Float32Array, through the public per-value functions (the way simulators call
 * them) and through the bulk array converter. Run: node --import tsx bench/numeric.bench.ts
 * Target (issue 2): >= 50M conversions/s each.
 */
import { Bench } from 'tinybench';
import {
  BF16,
  decodeArray,
  E4M3,
  E5M2,
  encodeArray,
  FP16,
  f32BitsToBf16,
  f32BitsToE4m3,
  f32BitsToFp16,
} from '../src/numeric/index.ts';

const N = 1 << 20;
const src = new Float32Array(N);
// Deterministic inputs spread over many binades (xorshift32), both signs, some tiny/huge values.
let s = 0x9e3779b9;
function next(): number {
  s ^= s << 13;
  s ^= s >>> 17;
  s ^= s << 5;
  return s >>> 0;
}
for (let i = 0; i < N; i++) {
  const mant = next() / 2 ** 32 + 0.5;
  const exp = (next() % 48) - 24;
  src[i] = (next() & 1 ? -1 : 1) * mant * 2 ** exp;
}
const bits = new Uint32Array(src.buffer);
const out16 = new Uint16Array(N);
const out8 = new Uint8Array(N);
const dec32 = new Uint32Array(N);
let sink = 0;

const bench = new Bench({ name: 'numeric conversions (1M fp32 values per iteration)', time: 1500 });
bench
  .add('fp32->binary16 rne (per-value fn)', () => {
    for (let i = 0; i < N; i++) out16[i] = f32BitsToFp16(bits[i]!);
    sink ^= out16[N - 1]!;
  })
  .add('fp32->bf16 rne (per-value fn)', () => {
    for (let i = 0; i < N; i++) out16[i] = f32BitsToBf16(bits[i]!);
    sink ^= out16[N - 1]!;
  })
  .add('fp32->e4m3 rne (per-value fn)', () => {
    for (let i = 0; i < N; i++) out8[i] = f32BitsToE4m3(bits[i]!);
    sink ^= out8[N - 1]!;
  })
  .add('fp32->binary16 rne (encodeArray)', () => {
    encodeArray(FP16, bits, out16, 'rne');
  })
  .add('fp32->bf16 rne (encodeArray)', () => {
    encodeArray(BF16, bits, out16, 'rne');
  })
  .add('fp32->e4m3 rne (encodeArray)', () => {
    encodeArray(E4M3, bits, out8, 'rne');
  })
  // For reference: the generic parametric codec (no specialised path) with options.
  .add('fp32->binary16 rtz (generic codec)', () => {
    encodeArray(FP16, bits, out16, 'rtz', {});
  })
  .add('fp32->e5m2 rne saturate (generic codec)', () => {
    encodeArray(E5M2, bits, out8, 'rne', { saturate: true });
  })
  .add('fp32->bf16 stochastic (generic codec, one random word per value)', () => {
    const o = { rand: 0 };
    let r = 0x2545f491;
    for (let i = 0; i < N; i++) {
      r ^= r << 13;
      r ^= r >>> 17;
      r ^= r << 5;
      o.rand = r >>> 0;
      out16[i] = f32BitsToBf16(bits[i]!, 'stochastic', o);
    }
  })
  .add('binary16->fp32 decode (decodeArray)', () => {
    decodeArray(FP16, out16, dec32);
  });

await bench.run();
const rows = bench.tasks.map((t) => {
  const r = t.result as { latency?: { mean: number }; period?: number } | undefined;
  const ms = r?.latency?.mean ?? r?.period ?? Number.NaN;
  return { task: t.name, 'ms / 1M': ms.toFixed(2), 'M conversions/s': (N / 1e6 / (ms / 1000)).toFixed(1) };
});
console.log(bench.name);
console.table(rows);
const TARGET = 50;
for (const name of [
  'fp32->binary16 rne (per-value fn)',
  'fp32->bf16 rne (per-value fn)',
  'fp32->e4m3 rne (per-value fn)',
]) {
  const r = rows.find((x) => x.task === name)!;
  const m = Number(r['M conversions/s']);
  console.log(
    `${name}: ${m.toFixed(1)} M conversions/s (target >= ${TARGET}M: ${m >= TARGET ? 'met' : 'NOT met'})`,
  );
}
if (sink === 0.5) console.log(sink); // keep the results observable
