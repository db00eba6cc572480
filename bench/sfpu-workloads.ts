/**
 * The four SFPU workloads of shared/perf/SFPU-PERF.md (word lists, initial states, timed N, published
 * SHA-256 digests) and the state-record digest, shared by bench/tensix.bench.ts and bench/run.ts.
 */
import { createHash } from 'node:crypto';
import type { TensixState } from '../src/tensix/index.ts';
export interface SfpuWorkload {
  id: string;
  what: string;
  words: number[];
  init: (s: TensixState) => void;
  n: number;
  small: number;
  digests: Record<number, string>;
  /** Reference (ttsim, pre-decoded, WH) instructions/s and the acceptance target (half of it). */
  ref: number;
  /** ttsim, pre-decoded, BH instructions/s (SFPU-PERF.md §5). */
  refBh: number;
  target: number;
}

function common(s: TensixState): void {
  // SFPU-PERF.md §3: ttsim's reset state with lane flags disabled.
  s.reset();
}

const W1 = [
  0x79000104, 0x8d000020, 0x7a007021, 0x79000236, 0x7e000340, 0x7f000450, 0x80000560, 0x7aff7071, 0x8d000670,
  0x795a5715, 0x7a000400, 0x8d000130, 0x79000350, 0x7e000260, 0x7f000740, 0x80000020,
];
const W2 = [
  0x84002340, 0x84012350, 0x84040940, 0x84051950, 0x753f0040, 0x753f0050, 0x84040a40, 0x84051a50, 0x84040a40,
  0x84051a50, 0x743c0040, 0x743c0050, 0x8404a660, 0x8405a770, 0x75bb8060, 0x75bb8070,
];
const W3: number[] = [];
for (let k = 0; k < 255; k++) W3.push(0x7003c000, 0x84001200, 0x72030000);
W3.push(0x7003c000, 0x84001200, 0x72034000);
const W4 = [
  0x87000000, 0x7b000000, 0x79001445, 0x8b000000, 0x79003555, 0x88000000, 0x87000000, 0x7b000104, 0x8d000260,
  0x87000000, 0x7b000302, 0x79001775, 0x88000000, 0x8b000000, 0x79ffb665, 0x88000000,
];

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function bits(x: number): number {
  f32[0] = x;
  return u32[0]!;
}

export const SFPU_WORKLOADS: SfpuWorkload[] = [
  {
    id: '(i)',
    what: 'integer/bitwise mix',
    words: W1,
    init: (s) => {
      common(s);
      for (let r = 0; r < 8; r++)
        for (let l = 0; l < 32; l++) s.lreg[r * 32 + l] = Math.imul(32 * r + l + 1, 0x9e3779b9) >>> 0;
    },
    n: 4_000_000,
    small: 1000,
    digests: {
      0: '34486758fac96a584fe21e6fda6cff66dd6d59911a3c06da17b0c3ee4070f257',
      1: '60221226bd6d61086fee81261d11c4cfee25e62300bfca5cacfe10392633cf0f',
      1000: 'd70285c3aa6aa58619ec2f83d3d66249a62a70230e8feeb499b21556b1074b7a',
      4000000: '1f885258d7e889c789d7eeb93264a0ef96aace3975d874aa0ec4d2d6da745828',
    },
    ref: 37.6e6,
    refBh: 30.0e6,
    target: 19e6,
  },
  {
    id: '(ii)',
    what: 'MAD-heavy Horner chains',
    words: W2,
    init: (s) => {
      common(s);
      for (let l = 0; l < 32; l++) {
        s.lreg[l] = bits((2 * l - 31) / 32);
        s.lreg[32 + l] = bits((3 * (31 - 2 * l)) / 128);
        s.lreg[64 + l] = 0x3d2aaaab;
        s.lreg[96 + l] = 0x3e2aaaab;
        s.lreg[6 * 32 + l] = 0x3f800000;
        s.lreg[7 * 32 + l] = 0x3f800000;
      }
    },
    n: 500_000,
    small: 1000,
    digests: {
      0: '7221aac8a7ba4ed4dedb93587d48fc5333709d6138366956fdef04b508c083f2',
      1: '1c25c00168794047432bbac295940ca27c7b9137c4dee0caad95a16bf5fcc00e',
      1000: '2b871376ff44ed58dc140cda3fda2df347da158c45cf0e2f1398f34ca756d02d',
      500000: '030e52b155bbfa698b3b43b6bba26d35d610920cf82da436bdc14cfcd628e27c',
    },
    ref: 5.01e6,
    refBh: 4.85e6,
    target: 2.5e6,
  },
  {
    id: '(iii)',
    what: 'streaming LOAD/MAD/STORE over 8 FP32 tiles',
    words: W3,
    init: (s) => {
      common(s);
      for (let l = 0; l < 32; l++) {
        s.lreg[32 + l] = 0x3f800008;
        s.lreg[64 + l] = 0x39800000;
      }
      for (let r = 0; r < 512; r++) {
        for (let c = 0; c < 16; c++) {
          const v = (0x3f800000 + ((16 * r + c) << 10)) >>> 0;
          const adj = ((r & 0x1f8) << 1) | (r & 0x207);
          const hi = v >>> 16;
          s.dst[adj * 16 + c] = (hi & 0x8000) | ((hi & 0x7f) << 8) | ((hi >>> 7) & 0xff);
          s.dst[(adj + 8) * 16 + c] = v & 0xffff;
        }
      }
      s.setAddrMod(0, 2, 0, 0, 0);
      s.setAddrMod(1, 0, 0, 1, 0);
      s.setAddrMod(2, 0, 0, 1, 0);
      s.sfpuFp32 = 1;
    },
    n: 16_000,
    small: 10,
    digests: {
      0: 'aa3f64e07c8665029024b70d33f2c477862db0467b6cd90a1d246f01255e633b',
      1: '1d09a3e01016889f313ef68b688b3daf6a6df66374d4273afe15b37b78162c61',
      10: '888b1fc9f1c8c207d27f8f9f828f0b72594d692eaf0c85b559bfa41c66197f3f',
      16000: 'c12919721c9614d3645260aec8594e787d8cfed1f30cda0e4e14583c9d2f3984',
    },
    ref: 8.22e6,
    refBh: 8.13e6,
    target: 4.1e6,
  },
  {
    id: '(iv)',
    what: 'flag-heavy SIMT if/else',
    words: W4,
    init: (s) => {
      common(s);
      for (let l = 0; l < 32; l++) {
        s.lreg[l] = l & 1 ? -(l + 1) >>> 0 : l + 1;
        s.lreg[32 + l] = l < 16 ? l : (l - 32) >>> 0;
        s.lreg[64 + l] = Math.imul(l, 0x01010101) >>> 0;
        s.lreg[96 + l] = l & 2 ? 0 : l + 100;
      }
      s.useLaneFlags = 1;
      s.laneFlags = -1;
    },
    n: 10_000_000,
    small: 1000,
    digests: {
      0: '3b04c4d4149c1f15f017ae36b1ebf7c55d4a5b8374aa834adab88b397d3a15c1',
      1: '479b8c6526d00c66c62ce3393cecc8cbe301a853a229393e19ae2f077e894e50',
      1000: '54f00a5dd0c9097703ddc22fe4768a8f9261a82286e153382091c10bfe8d6ea4',
      10000000: 'edaf4465ec2a3bbd34f27bc89590f8aa621451d07d2629578e1a2d8f7904fbf1',
    },
    ref: 101.4e6,
    refBh: 104.5e6,
    target: 46e6,
  },
];

/** SHA-256 of the 33,812-byte state record of SFPU-PERF.md §3. */
export function digest(s: TensixState): string {
  const buf = Buffer.alloc(33812);
  for (let i = 0; i < 256; i++) buf.writeUInt32LE(s.lreg[i]!, i * 4);
  for (let i = 0; i < 16384; i++) buf.writeUInt16LE(s.dst[i]!, 1024 + i * 2);
  const tail = [s.useLaneFlags, s.laneFlags >>> 0, s.stackSize, s.rwcDst, s.rwcDstCr];
  for (let k = 0; k < tail.length; k++) buf.writeUInt32LE(tail[k]!, 33792 + 4 * k);
  return createHash('sha256').update(buf).digest('hex');
}
