/**
 * TIMG2COL (pto-isa docs/isa/tile/ops/layout-and-rearrangement/timg2col.md,
 * include/pto/cpu/TImg2col.hpp): the im2col matrix of a feature map, for dst(r, c) over dst's valid
 * region with m = posM + r, k = posK + c:
 *   m -> batch n = m / (D·outH·outW), depth d, output row oh and column ow;
 *   k -> c1 = k / (C0·kh·kw), c0 = k mod C0, kernel offset (k mod C0·kh·kw) / C0 -> (i, j);
 *   dst(r, c) = src[n, d, c1, oh·strideH + i·dilationH − padTop, ow·strideW + j·dilationW − padLeft, c0]
 * when n, c1, c0 and the input position are in range, else the pad value; outH = (H + padTop +
 * padBottom − dilationH·(kh − 1) − 1) / strideH + 1 (outW likewise).
 *
 * The source is the simulator's ConvTileData: axsim takes a Mat tile whose raw elements hold the
 * feature map in NC1HWC0 (or NDC1HWC0) order, and the convolution parameters as the `conv` attribute
 * `{layout, shape, stride, dilation, filter, pad: [left, right, top, bottom]}`; the pad value is the
 * optional `scalar` attribute (default 0). The destination is a Left tile (ColMajor base, RowMajor
 * boxes). Library only: PTO-AS has no convolution tile type.
 */
import { badInput, undefinedBehaviour } from '../../errors.ts';
import { ALL, type ExecCtx, type OpDef, off, reject } from '../op.ts';

interface Conv {
  layout: 'NC1HWC0' | 'NDC1HWC0';
  shape: number[];
  stride: [number, number];
  dilation: [number, number];
  filter: [number, number];
  pad: [number, number, number, number];
}

function conv(ctx: ExecCtx): Conv {
  const c = ctx.attrs.conv as Partial<Conv> | undefined;
  const ints = (v: unknown, n: number, min: number) =>
    Array.isArray(v) && v.length === n && v.every((x) => Number.isInteger(x) && x >= min);
  if (!c || (c.layout !== 'NC1HWC0' && c.layout !== 'NDC1HWC0'))
    throw badInput("TIMG2COL: the conv attribute needs layout 'NC1HWC0' or 'NDC1HWC0'");
  const dims = c.layout === 'NC1HWC0' ? 5 : 6;
  if (!ints(c.shape, dims, 1)) throw badInput(`TIMG2COL: conv.shape must be ${dims} positive integers`);
  for (const [k, n, min] of [
    ['stride', 2, 1],
    ['dilation', 2, 1],
    ['filter', 2, 1],
    ['pad', 4, 0],
  ] as const) {
    if (!ints(c[k], n, min)) throw badInput(`TIMG2COL: conv.${k} must be ${n} integers >= ${min}`);
  }
  return c as Conv;
}

function img2col(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const p = conv(ctx);
  const six = p.layout === 'NDC1HWC0';
  const [N, D, C1, H, W, C0] = six
    ? (p.shape as [number, number, number, number, number, number])
    : [p.shape[0]!, 1, p.shape[1]!, p.shape[2]!, p.shape[3]!, p.shape[4]!];
  const [sh, sw] = p.stride;
  const [dh, dw] = p.dilation;
  const [fh, fw] = p.filter;
  const [pl, pr, pt, pb] = p.pad;
  const outH = Math.floor((H + pt + pb - dh * (fh - 1) - 1) / sh) + 1;
  const outW = Math.floor((W + pl + pr - dw * (fw - 1) - 1) / sw) + 1;
  const posM = Number(ctx.attrs.posM ?? 0);
  const posK = Number(ctx.attrs.posK ?? 0);
  const mPer = D * outH * outW;
  const kC0HW = C0 * fh * fw;
  const n = d.elemBytes;
  const pad = (ctx.attrs.scalarBytes as Uint8Array | undefined) ?? new Uint8Array(n);
  for (let r = 0; r < d.validRow; r++) {
    const m = posM + r;
    const ni = Math.floor(m / mPer);
    const rem = m % mPer;
    const di = Math.floor(rem / (outH * outW));
    const oh = Math.floor((rem % (outH * outW)) / outW);
    const ow = (rem % (outH * outW)) % outW;
    for (let c = 0; c < d.validCol; c++) {
      const k = posK + c;
      const c1 = Math.floor(k / kC0HW);
      const c0 = k % C0;
      const ko = Math.floor((k % kC0HW) / C0);
      const ih = oh * sh + Math.floor(ko / fw) * dh - pt;
      const iw = ow * sw + (ko % fw) * dw - pl;
      const o = off(d, r, c) * n;
      if (ni < N && c1 < C1 && c0 < C0 && ih >= 0 && ih < H && iw >= 0 && iw < W) {
        const so = ((((ni * D + di) * C1 + c1) * H + ih) * W + iw) * C0 + c0;
        if (so >= s.numel)
          throw undefinedBehaviour(
            `TIMG2COL: feature-map element ${so} lies outside the ${s.numel}-element source`,
          );
        for (let b = 0; b < n; b++) d.bytes[o + b] = s.bytes[so * n + b]!;
      } else {
        for (let b = 0; b < n; b++) d.bytes[o + b] = pad[b]!;
      }
    }
  }
}

export const IMG2COL_OPS: readonly OpDef[] = [
  {
    name: 'TIMG2COL',
    family: 'layout',
    summary: 'dst = the im2col matrix of the feature map in src (conv attribute), from (posM, posK)',
    ref: 'pto-isa docs/isa/tile/ops/layout-and-rearrangement/timg2col.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
    ],
    attrs: [
      { name: 'conv', kind: 'pattern' },
      { name: 'posM', kind: 'index', optional: true },
      { name: 'posK', kind: 'index', optional: true },
      { name: 'scalar', kind: 'scalar', optional: true },
    ],
    primary: 'src',
    dtypes: {
      cpu: ALL,
      a2a3: ['f16', 'bf16', 'f32', 'i8'],
      a5: ['f16', 'bf16', 'f32', 'i8', 'f8e4m3', 'f8e5m2'],
    },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const s = ctx.tiles.src!;
      conv(ctx);
      for (const k of ['posM', 'posK']) {
        const v = ctx.attrs[k] ?? 0;
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffff)
          throw badInput(`TIMG2COL: ${k} must be an integer in 0..65535`);
      }
      if (d.dtype !== s.dtype)
        reject('TIMG2COL', s.dtype, `dst (${d.dtype}) must have the source type`, ctx.profile);
      if (s.loc !== 'mat') reject('TIMG2COL', s.dtype, 'the source must be a Mat tile', ctx.profile);
      if (d.loc !== 'left' || d.blayout !== 'col' || d.slayout !== 'row')
        reject(
          'TIMG2COL',
          s.dtype,
          'the destination must be a Left tile (ColMajor + RowMajor boxes)',
          ctx.profile,
        );
    },
    exec: img2col,
  },
];
