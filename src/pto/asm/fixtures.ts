/**
 * PTO-AS programs for the tests: one complete program per accept example of
 * shared/conformance/PTO-AS.md §5 (written for axsim around the statements that section quotes),
 * and one per reject row of §6 (plus the legacy spellings it lists).
 */

export const TB16 =
  '!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const TB128 =
  '!pto.tile_buf<loc=vec, dtype=f32, rows=128, cols=128, v_row=128, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const TB16x128 =
  '!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=128, v_row=16, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const COL16 =
  '!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=1, v_row=16, v_col=1, blayout=col_major, slayout=none_box, fractal=512, pad=0>';
const BF16x128 =
  '!pto.tile_buf<loc=vec, dtype=bf16, rows=16, cols=128, v_row=16, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const TB32 =
  '!pto.tile_buf<loc=vec, dtype=f32, rows=32, cols=32, v_row=32, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const LEFT =
  '!pto.tile_buf<loc=left, dtype=bf16, rows=16, cols=128, v_row=16, v_col=128, blayout=col_major, slayout=row_major, fractal=512, pad=0>';
const RIGHT =
  '!pto.tile_buf<loc=right, dtype=bf16, rows=128, cols=128, v_row=128, v_col=128, blayout=row_major, slayout=col_major, fractal=512, pad=0>';
const ACC =
  '!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=128, v_row=16, v_col=128, blayout=col_major, slayout=row_major, fractal=1024, pad=0>';
const MATA =
  '!pto.tile_buf<loc=mat, dtype=bf16, rows=16, cols=128, v_row=16, v_col=128, blayout=col_major, slayout=row_major, fractal=512, pad=0>';
const MATB =
  '!pto.tile_buf<loc=mat, dtype=bf16, rows=128, cols=128, v_row=128, v_col=128, blayout=row_major, slayout=col_major, fractal=512, pad=0>';
const DYN =
  '!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=32, v_row=1, v_col=?, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const FIX =
  '!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=32, v_row=1, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const MR = 'memref<16x16x16xf16, #pto.address_space<vec>>';

export interface Fixture {
  name: string;
  text: string;
  /** Accepted only without --strict (the pto-isa manual's short spellings). */
  lenient?: boolean;
  /** Accepted only with `legacy` (forms of older PTOAS samples). */
  legacy?: boolean;
}

export const ACCEPT: Fixture[] = [
  {
    name: '1 empty function',
    text: 'module {\n  func.func @hello() -> () {\n    return\n  }\n}\n',
  },
  {
    name: '2 record/wait event',
    text: `module {
  func.func @sync_ops() {
    pto.record_event [#pto.pipe_event_type<TLOAD>, #pto.pipe_event_type<TVEC>, #pto.event<EVENT_ID0>]
    pto.wait_event [#pto.pipe_event_type<TLOAD>, #pto.pipe_event_type<TVEC>, #pto.event<EVENT_ID0>]
    return
  }
}`,
  },
  {
    name: '3 cube section with get_buf / rls_buf',
    text: `module {
  func.func @buf_sync() {
    pto.section.cube {
      pto.get_buf[#pto.pipe_event_type<TLOAD>, 0]
      pto.rls_buf[#pto.pipe_event_type<TLOAD>, 0]
    }
    return
  }
}`,
  },
  {
    name: '4 views only, no module wrapper',
    text: `func.func @views(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<f32>) {
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %c1 = arith.constant 1 : index
  %0 = pto.make_tensor_view %arg0, shape = [%c16, %c128], strides = [%c128, %c1] : !pto.tensor_view<?x?xf32>
  return
}`,
  },
  {
    name: '5 load / tile-scalar / store',
    text: `module {
  func.func @add_scalar(%arg0: !pto.ptr<f32>, %arg1: f32, %arg2: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %0 = pto.alloc_tile : ${TB16}
    %1 = pto.alloc_tile : ${TB16}
    %2 = pto.make_tensor_view %arg0, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    %3 = pto.make_tensor_view %arg2, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    %4 = pto.partition_view %2, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
    %5 = pto.partition_view %3, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
    pto.tload ins(%4 : !pto.partition_tensor_view<16x16xf32>) outs(%0 : ${TB16})
    pto.tadds ins(%0, %arg1 : ${TB16}, f32) outs(%1 : ${TB16})
    pto.tstore ins(%1 : ${TB16}) outs(%5 : !pto.partition_tensor_view<16x16xf32>)
    return
  }
}`,
  },
  {
    name: '6 tadd on 128x128 tiles',
    text: `module {
  func.func @dag_add() {
    %0 = pto.alloc_tile : ${TB128}
    %1 = pto.alloc_tile : ${TB128}
    %2 = pto.alloc_tile : ${TB128}
    pto.tadd ins(%0, %1 : ${TB128}, ${TB128}) outs(%2 : ${TB128})
    return
  }
}`,
  },
  {
    name: '7 dynamic valid column in a loop inside a vector section',
    text: `module {
  func.func @dyn() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c33 = arith.constant 31 : index
    pto.section.vector {
      %c2 = arith.constant 2 : index
      scf.for %i = %c0 to %c2 step %c1 {
        %is0 = arith.cmpi eq, %i, %c0 : index
        %vcol = arith.select %is0, %c32, %c33 : index
        %tb0 = pto.alloc_tile valid_col = %vcol : ${DYN}
        %tb1 = pto.alloc_tile : ${FIX}
        pto.trelu ins(%tb0 : ${DYN}) outs(%tb1 : ${FIX})
        scf.yield
      }
    }
    return
  }
}`,
  },
  {
    name: '8 cube path mat -> left/right -> acc',
    text: `module {
  func.func @qk(%q: !pto.ptr<bf16>, %k: !pto.ptr<bf16>, %o: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %vq = pto.make_tensor_view %q, shape = [%c16, %c128], strides = [%c128, %c1] : !pto.tensor_view<?x?xbf16>
    %vk = pto.make_tensor_view %k, shape = [%c128, %c128], strides = [%c1, %c128] : !pto.tensor_view<?x?xbf16>
    %vo = pto.make_tensor_view %o, shape = [%c16, %c128], strides = [%c128, %c1] : !pto.tensor_view<?x?xf32>
    %pq = pto.partition_view %vq, offsets = [%c0, %c0], sizes = [%c16, %c128] : !pto.tensor_view<?x?xbf16> -> !pto.partition_tensor_view<16x128xbf16>
    %pk = pto.partition_view %vk, offsets = [%c0, %c0], sizes = [%c128, %c128] : !pto.tensor_view<?x?xbf16> -> !pto.partition_tensor_view<128x128xbf16>
    %po = pto.partition_view %vo, offsets = [%c0, %c0], sizes = [%c16, %c128] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x128xf32>
    %0 = pto.alloc_tile : ${MATA}
    %1 = pto.alloc_tile : ${MATB}
    %2 = pto.alloc_tile : ${LEFT}
    %3 = pto.alloc_tile : ${RIGHT}
    %4 = pto.alloc_tile : ${ACC}
    pto.tload ins(%pq : !pto.partition_tensor_view<16x128xbf16>) outs(%0 : ${MATA})
    pto.tload ins(%pk : !pto.partition_tensor_view<128x128xbf16>) outs(%1 : ${MATB})
    pto.tmov ins(%0 : ${MATA}) outs(%2 : ${LEFT})
    pto.tmov ins(%1 : ${MATB}) outs(%3 : ${RIGHT})
    pto.tmatmul ins(%2, %3 : ${LEFT}, ${RIGHT}) outs(%4 : ${ACC})
    pto.tstore ins(%4 : ${ACC}) outs(%po : !pto.partition_tensor_view<16x128xf32>)
    return
  }
}`,
  },
  {
    name: '9 softmax prepare: row reduce, row expand, attributes inside ins',
    text: `module {
  func.func @softmax_prepare() {
    %0 = pto.alloc_tile : ${TB16x128}
    %1 = pto.alloc_tile : ${TB16x128}
    %2 = pto.alloc_tile : ${COL16}
    %3 = pto.alloc_tile : ${TB16x128}
    %4 = pto.alloc_tile : ${BF16x128}
    pto.trowmax ins(%1, %0 : ${TB16x128}, ${TB16x128}) outs(%2 : ${COL16})
    pto.trowexpandsub ins(%1, %2 : ${TB16x128}, ${COL16}) outs(%3 : ${TB16x128})
    pto.texp ins(%3 : ${TB16x128}) outs(%1 : ${TB16x128})
    pto.tcvt ins(%1{rmode = #pto<round_mode ROUND>} : ${TB16x128}) outs(%4 : ${BF16x128})
    return
  }
}`,
  },
  {
    name: '10 tdivs in place',
    text: `module {
  func.func @gqa_div(%c32_f: f32) {
    %exp_vec = pto.alloc_tile : ${TB32}
    pto.tdivs ins(%exp_vec, %c32_f : ${TB32}, f32) outs(%exp_vec : ${TB32})
    return
  }
}`,
  },
  {
    name: '11 tmatmul.acc',
    text: `module {
  func.func @mm_acc() {
    %cAcc = pto.alloc_tile : ${ACC}
    %aLeft = pto.alloc_tile : ${LEFT}
    %bRight = pto.alloc_tile : ${RIGHT}
    pto.tmatmul.acc ins(%cAcc, %aLeft, %bRight : ${ACC}, ${LEFT}, ${RIGHT}) outs(%cAcc : ${ACC})
    return
  }
}`,
  },
  {
    name: '12 texpands',
    text: `module {
  func.func @init() {
    %cst = arith.constant -3.40282347E+38 : f32
    %6 = pto.alloc_tile : ${TB16x128}
    pto.texpands ins(%cst : f32) outs(%6 : ${TB16x128})
    return
  }
}`,
  },
  {
    name: '13 memref operands and an explicit barrier',
    text: `module {
  func.func @memrefs() {
    %ub0 = memref.alloc() : ${MR}
    %ub1 = memref.alloc() : ${MR}
    pto.tadd ins(%ub0, %ub0 : ${MR},
                             ${MR})
             outs(%ub1 : ${MR})
    pto.barrier <PIPE_V>
    return
  }
}`,
  },
  {
    name: '14 DPS with the type split over lines',
    text: `module {
  func.func @split(%a: ${TB16}, %b: ${TB16}, %c: ${TB16}) {
    pto.tadd
      ins(%a, %b :
          !pto.tile_buf<loc=vec, dtype=f32,
                        rows=16, cols=16,
                        v_row=16, v_col=16,
                        blayout=row_major, slayout=none_box,
                        fractal=512, pad=0>,
          ${TB16})
      outs(%c : !pto.tile_buf<
                   loc = vec, dtype = f32, rows = 16, cols = 16, v_row = 16, v_col = 16,
                   blayout = row_major, slayout = none_box, fractal = 512, pad = 0
                 >)
    return
  }
}`,
  },
  {
    name: '15 Level-1 SSA (canonical tile spelling)',
    text: `func.func @ssa(%src0: !pto.tile<16x16xf32>, %src1: !pto.tile<16x16xf32>) {
  %result = pto.tadd %src0, %src1 : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
  return
}`,
  },
  {
    name: '15b Level-1 SSA with the manual short spellings',
    lenient: true,
    text: `func.func @ssa_short(%src0: !pto.tile<f32, 16, 16>, %src1: !pto.tile<f32, 16, 16>, %d: !pto.tile_buf<f32, 16, 16>) {
  %result = pto.tadd %src0, %src1 : (!pto.tile<f32, 16, 16>, !pto.tile<f32, 16, 16>) -> !pto.tile<f32, 16, 16>
  pto.tadd ins(%d, %d : !pto.tile_buf<f32, 16, 16>, !pto.tile_buf<f32, 16, 16>)
           outs(%d : !pto.tile_buf<f32, 16, 16>)
  return
}`,
  },
  {
    name: '16 attribute dictionary on an SSA op',
    text: `func.func @ssa_cmp(%src0: !pto.tile<16x16xf32>, %src1: !pto.tile<16x16xf32>) {
  %result = pto.tcmp %src0, %src1 {cmp = "lt"} : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xui8>
  return
}`,
  },
  {
    name: 'seed assembly form',
    text: `func.func @asm(%dst: !pto.tile<16x16xf32>, %src0: !pto.tile<16x16xf32>, %src1: !pto.tile<16x16xf32>) {
  tadd %dst, %src0, %src1 : !pto.tile<16x16xf32>
  %d2 = tadd %src0, %src1 : !pto.tile<16x16xf32>
  tadds %dst, %src0, 0x3F800000 : !pto.tile<16x16xf32>
  return
}`,
  },
];

ACCEPT.push(
  {
    name: 'module / function attributes, visibility, block queries, flags, reshape',
    text: `module attributes {"pto.device-spec" = "Ascend910B1"} {
  func.func private @helper() attributes {hacc.entry, pto.func_core_type = #pto.func_core_type<AIV>} {
    %0 = pto.get_block_idx
    %1 = pto.get_subblock_num
    %2 = arith.muli %0, %1 : i64
    %3 = arith.index_cast %2 : i64 to index
    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    pto.record_event[<TLOAD>, <TVEC>, <EVENT_ID1>]
    pto.wait_event[#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TVEC>, <EVENT_ID1>]
    pto.sync.set <PIPE_FIX>, 16
    pto.sync.wait <PIPE_V>, 0
    %c = pto.alloc_tile : ${COL16}
    %r = pto.treshape %c : ${COL16} -> !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    return
  }
}`,
  },
  {
    name: 'legacy comma-less strides and an elided tile_buf prefix (legacy only)',
    lenient: true,
    legacy: true,
    text: `func.func @legacy(%p: !pto.ptr<f32>, %a: ${TB16}) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %v = pto.make_tensor_view %p, shape = [%c16, %c16] strides = [%c16, %c1] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
  pto.tadd ins(%a, %a : <loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>, ${TB16}) outs(%a : ${TB16})
  return
}`,
  },
);

/** A while loop with a result pack, a block label with arguments and `%r#i` uses. */
export const WHILE_PROGRAM = `func.func @count(%t: !pto.tile<2x8xf32>, %one: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %true = arith.constant true
  %final:2 = scf.while (%i = %c0, %go = %true) : (index, i1) -> (index, i1) {
    %lt = arith.cmpi slt, %i, %c3 : index
    %both = arith.andi %lt, %go : i1
    scf.condition(%both) %i, %go : index, i1
  } do {
  ^bb0(%i2: index, %go2: i1):
    tadds %t, %t, %one : !pto.tile<2x8xf32>
    %next = arith.addi %i2, %c1 : index
    %r:2 = scf.if %go2 -> (index, i1) {
      scf.yield %next, %go2 : index, i1
    } else {
      scf.yield %next, %go2 : index, i1
    }
    scf.yield %r#0, %r#1 : index, i1
  }
  %n = arith.index_cast %final#0 : index to i32
  return
}`;

ACCEPT.push({ name: 'scf.while with result packs', text: WHILE_PROGRAM });

/** affine.apply feeding a scalar: s = (7 * 3 + 5) floordiv 4 - 7 mod 3 + 10 ceildiv 4 = 6 - 1 + 3 = 8. */
export const AFFINE_PROGRAM = `func.func @affine(%t: !pto.tile<1x8xf32>) {
  %c7 = arith.constant 7 : index
  %c10 = arith.constant 10 : index
  %a = affine.apply affine_map<(d0)[s0] -> ((d0 * 3 + 5) floordiv 4 - d0 mod 3 + s0 ceildiv 4)>(%c7)[%c10]
  %i = arith.index_cast %a : index to i32
  %f = arith.sitofp %i : i32 to f32
  tadds %t, %t, %f : !pto.tile<1x8xf32>
  return
}`;

ACCEPT.push({ name: 'affine.apply', text: AFFINE_PROGRAM });

const MOD = (body: string, args = '') => `module {\n  func.func @k(${args}) {\n${body}\n    return\n  }\n}\n`;
const BAD_BUF = (inner: string) => MOD(`    %t = pto.alloc_tile : !pto.tile_buf<${inner}>`);
const KEYS = (over: Record<string, string>) => {
  const base: Record<string, string> = {
    loc: 'vec',
    dtype: 'f32',
    rows: '16',
    cols: '16',
    v_row: '16',
    v_col: '16',
    blayout: 'row_major',
    slayout: 'none_box',
    fractal: '512',
    pad: '0',
  };
  return Object.entries({ ...base, ...over })
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
};

/** Each must fail (parse or verify, strict mode) with an error carrying line:col. */
export const REJECT: Fixture[] = [
  {
    name: 'tile_buf keys out of order',
    text: BAD_BUF(
      'dtype=f32, loc=vec, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0',
    ),
  },
  {
    name: 'missing v_row/v_col',
    text: BAD_BUF(
      'loc=vec, dtype=f32, rows=16, cols=16, blayout=row_major, slayout=none_box, fractal=512, pad=0',
    ),
  },
  { name: 'v_row=-2', text: BAD_BUF(KEYS({ v_row: '-2' })) },
  { name: 'rows=-4', text: BAD_BUF(KEYS({ rows: '-4' })) },
  { name: 'loc=ub', text: BAD_BUF(KEYS({ loc: 'ub' })) },
  { name: 'loc=gm', text: BAD_BUF(KEYS({ loc: 'gm' })) },
  { name: 'loc=L1', text: BAD_BUF(KEYS({ loc: 'L1' })) },
  { name: 'blayout=RowMajor', text: BAD_BUF(KEYS({ blayout: 'RowMajor' })) },
  { name: 'slayout=nz', text: BAD_BUF(KEYS({ slayout: 'nz' })) },
  { name: 'pad=zero', text: BAD_BUF(KEYS({ pad: 'zero' })) },
  { name: 'pad=Null', text: BAD_BUF(KEYS({ pad: 'Null' })) },
  { name: 'pad=7', text: BAD_BUF(KEYS({ pad: '7' })) },
  { name: 'trailing extra key', text: BAD_BUF(`${KEYS({})}, extra=1`) },
  {
    name: 'missing closing >',
    text: MOD(`    %t = pto.alloc_tile : !pto.tile_buf<${KEYS({})}\n    %u = pto.alloc_tile : ${TB16}`),
  },
  { name: 'short !pto.tile spelling (strict)', text: MOD('', '%a: !pto.tile<f32, 16, 16>') },
  {
    name: 'make_tensor_view without the comma before strides',
    text: MOD(
      '    %c1 = arith.constant 1 : index\n    %v = pto.make_tensor_view %p, shape = [%c1] strides = [%c1] : !pto.tensor_view<?xf32>',
      '%p: !pto.ptr<f32>',
    ),
  },
  {
    name: 'make_tensor_view producing a partition view',
    text: MOD(
      '    %c1 = arith.constant 1 : index\n    %v = pto.make_tensor_view %p, shape = [%c1], strides = [%c1] : !pto.partition_tensor_view<1xf32>',
      '%p: !pto.ptr<f32>',
    ),
  },
  {
    name: 'tdivs with two tiles',
    text: MOD(
      `    pto.tdivs ins(%t0, %t1 : ${TB16}, ${TB16}) outs(%d : ${TB16})`,
      `%t0: ${TB16}, %t1: ${TB16}, %d: ${TB16}`,
    ),
  },
  {
    name: 'tdivs into a memref',
    text: MOD(
      `    pto.tdivs ins(%t, %s : ${TB16}, f32) outs(%d : memref<16x16xf32, #pto.address_space<vec>>)`,
      `%t: ${TB16}, %s: f32, %d: memref<16x16xf32, #pto.address_space<vec>>`,
    ),
  },
  {
    name: 'tadd with one type for two ins',
    text: MOD(
      `    pto.tadd ins(%a, %b : ${TB16}) outs(%c : ${TB16})`,
      `%a: ${TB16}, %b: ${TB16}, %c: ${TB16}`,
    ),
  },
  {
    name: 'tadd without outs',
    text: MOD(`    pto.tadd ins(%a, %b : ${TB16}, ${TB16})`, `%a: ${TB16}, %b: ${TB16}`),
  },
  {
    name: 'tcmp attributes after ins(...)',
    text: MOD(
      `    pto.tcmp ins(%a, %b : ${TB16}, ${TB16}) {cmpMode = #pto<cmp lt>} outs(%c : ${TB16})`,
      `%a: ${TB16}, %b: ${TB16}, %c: ${TB16}`,
    ),
  },
  {
    name: '#pto<cmp less_than>',
    text: MOD(
      `    pto.tcmp ins(%a, %b {cmpMode = #pto<cmp less_than>} : ${TB16}, ${TB16}) outs(%c : ${TB16})`,
      `%a: ${TB16}, %b: ${TB16}, %c: ${TB16}`,
    ),
  },
  {
    name: 'pto.tmatmul_acc (underscore spelling)',
    text: MOD(
      `    pto.tmatmul_acc ins(%a, %b, %c : ${ACC}, ${LEFT}, ${RIGHT}) outs(%a : ${ACC})`,
      `%a: ${ACC}, %b: ${LEFT}, %c: ${RIGHT}`,
    ),
  },
  {
    name: 'legacy valid=32x32',
    text: BAD_BUF(
      'loc=vec, dtype=f32, rows=32, cols=32, valid=32x32, blayout=row_major, slayout=none_box, fractal=512, pad=0',
    ),
  },
  {
    name: 'legacy tile_buf<32x64xf32, #pto.address_space<ub>>',
    text: MOD('    %t = pto.alloc_tile : !pto.tile_buf<32x64xf32, #pto.address_space<ub>>'),
  },
  {
    name: 'verifier: type mismatch in tadd',
    text: MOD(
      `    pto.tadd ins(%a, %b : ${TB16}, ${TB16.replace('dtype=f32', 'dtype=f16')}) outs(%c : ${TB16})`,
      `%a: ${TB16}, %b: ${TB16.replace('dtype=f32', 'dtype=f16')}, %c: ${TB16}`,
    ),
  },
  {
    name: 'verifier: use of an undefined value',
    text: MOD(`    pto.tadd ins(%a, %zz : ${TB16}, ${TB16}) outs(%a : ${TB16})`, `%a: ${TB16}`),
  },
];
