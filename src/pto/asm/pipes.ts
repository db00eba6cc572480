/**
 * The cube <-> vector FIFOs behind PTOAS's `tpush` / `tpop` / `tfree` (docs/pto-as.md, "Cube <->
 * vector pipes"), on part 1's tiles. The model follows pto-isa's TPUSH / TPOP / TFREE pages and its
 * CPU simulator (include/pto/cpu/TPush.hpp), as data, not as its slot bookkeeping:
 *
 * - an entry is the pushed tile's logical contents (row-major, its element type), so a pop reads
 *   element (r, c) whatever the two tiles' layouts (the device converts through the fixpipe / the
 *   UB -> L1 path; the CPU simulator copies element-wise too);
 * - C2V with TILE_UP_DOWN / TILE_LEFT_RIGHT: vector sub-block `s` pops the row / column half that
 *   starts at `s` x half the pushed tile; with TILE_NO_SPLIT it pops from (0, 0);
 * - V2C with a split: sub-block `s` pushes its tile into half `s` of an entry twice as tall / wide,
 *   and the cube's pop waits until both halves are in (TILE_NO_SPLIT: one producer, the rest of the
 *   entry zero, as the CPU simulator's `FillLinearRegion`);
 * - a pushed entry needs the split's consumer count of frees (2 with a split, else 1) before its
 *   slot is free again; a push waits while `slot_num` entries are not free;
 * - a pop copies the consumer's valid region; elements outside the pushed tile read as zero.
 */
import { badInput, unsupported } from '../../errors.ts';
import type { Tile } from '../tile.ts';
import type { CoreInfo, PipeDesc, PipeDir, PipeHooks, TileValue } from './exec.ts';

interface Entry {
  dtype: string;
  elemBytes: number;
  rows: number;
  cols: number;
  /** rows x cols elements, row-major. */
  data: Uint8Array;
  /** Producers that must push into it (2 for a split V2C entry) and those that have. */
  producers: number;
  pushed: number;
  /** Frees that release its slot, and frees so far. */
  consumers: number;
  freed: number;
}

interface Channel {
  entries: Entry[];
  /** Per producer lane: the entry index its next push fills. */
  pushAt: number[];
  /** Per consumer lane: the entry index its next pop reads. */
  popAt: number[];
  /** Per consumer lane: popped entries not freed yet, oldest first. */
  popped: number[][];
  /** Entries whose slot is free again. */
  released: number;
}

/** The run's FIFOs, keyed by pipe (PipeDesc.key) and direction. */
export class PipeHub implements PipeHooks {
  private readonly channels = new Map<string, Channel>();

  constructor(private readonly note: (text: string) => void) {}

  private channel(p: PipeDesc, dir: PipeDir): Channel {
    const k = `${p.key}/${dir}`;
    let c = this.channels.get(k);
    if (!c) {
      c = { entries: [], pushAt: [0, 0], popAt: [0, 0], popped: [[], []], released: 0 };
      this.channels.set(k, c);
    }
    return c;
  }

  private static split(split: number): number {
    if (split < 0 || split > 2) {
      throw badInput(`split = ${split} is not a TileSplitAxis`, {
        hint: '0 = TILE_NO_SPLIT, 1 = TILE_UP_DOWN, 2 = TILE_LEFT_RIGHT',
      });
    }
    return split;
  }

  canPush(p: PipeDesc, dir: PipeDir, core: CoreInfo, _split: number): boolean {
    const c = this.channel(p, dir);
    const at = c.pushAt[core.lane] ?? 0;
    // an entry another lane has started is already counted; a new one needs a free slot
    return at < c.entries.length || c.entries.length - c.released < p.slotNum;
  }

  push(p: PipeDesc, dir: PipeDir, src: TileValue, core: CoreInfo, split: number): void {
    const s = PipeHub.split(split);
    const t = src.handle as Tile | undefined;
    if (!t) throw badInput('tpush: the pushed tile has no storage (a declared tile never written)');
    const c = this.channel(p, dir);
    const at = c.pushAt[core.lane] ?? 0;
    c.pushAt[core.lane] = at + 1;
    const split2 = s !== 0;
    let e = c.entries[at];
    if (!e) {
      // V2C halves stack into an entry twice the producer tile; C2V entries are the pushed tile
      const rows = dir === 'v2c' && s === 1 ? t.rows * 2 : t.rows;
      const cols = dir === 'v2c' && s === 2 ? t.cols * 2 : t.cols;
      e = {
        dtype: t.dtype,
        elemBytes: t.elemBytes,
        rows,
        cols,
        data: new Uint8Array(rows * cols * t.elemBytes),
        producers: dir === 'v2c' && split2 ? core.lanes : 1,
        pushed: 0,
        consumers: dir === 'c2v' && split2 ? 2 : 1,
        freed: 0,
      };
      c.entries[at] = e;
    }
    if (e.dtype !== t.dtype) {
      throw unsupported(`tpush: a ${t.dtype} half pushed into a ${e.dtype} entry`, {
        hint: 'both vector sub-blocks must push tiles of one element type',
      });
    }
    // the CPU simulator's local slot holds SlotSize bytes, twice that when the pipe also carries
    // C2V traffic (TPush.hpp TPipe: LOCAL_SPLIT_COPIES = is_c2v ? 2 : 1), and TPush_v2c writes the
    // whole consumer tile there
    const capacity = p.slotSize * (dir === 'v2c' && (p.dirMask & 1) !== 0 ? 2 : 1);
    if (e.data.length > capacity) {
      throw badInput(
        `tpush: a ${e.rows}x${e.cols} ${e.dtype} entry (${e.data.length} bytes) does not fit the pipe's ${capacity}-byte slot`,
        {
          hint: 'pto-isa TPUSH: SlotSize must hold one logical FIFO entry (the whole, unsplit tile)',
        },
      );
    }
    const r0 = dir === 'v2c' && s === 1 ? core.lane * t.rows : 0;
    const c0 = dir === 'v2c' && s === 2 ? core.lane * t.cols : 0;
    // the producer's valid region (the rest of the entry stays zero)
    const n = t.elemBytes;
    for (let r = 0; r < t.validRow; r++) {
      for (let k = 0; k < t.validCol; k++) {
        const from = t.offset(r, k) * n;
        const to = ((r0 + r) * e.cols + c0 + k) * n;
        e.data.set(t.bytes.subarray(from, from + n), to);
      }
    }
    e.pushed++;
  }

  canPop(p: PipeDesc, dir: PipeDir, core: CoreInfo): boolean {
    const c = this.channel(p, dir);
    const e = c.entries[c.popAt[core.lane] ?? 0];
    return e !== undefined && e.pushed >= e.producers;
  }

  pop(p: PipeDesc, dir: PipeDir, dst: TileValue, core: CoreInfo, split: number): void {
    const s = PipeHub.split(split);
    const t = dst.handle as Tile;
    const c = this.channel(p, dir);
    const at = c.popAt[core.lane] ?? 0;
    const e = c.entries[at]!;
    c.popAt[core.lane] = at + 1;
    c.popped[core.lane]!.push(at);
    if (e.dtype !== t.dtype) {
      throw unsupported(
        `tpop: the entry holds ${e.dtype} elements, the ${t.dtype} destination would need the fixpipe's conversion (not modelled)`,
        { hint: 'pop into a tile of the pushed element type' },
      );
    }
    const r0 = dir === 'c2v' && s === 1 ? core.lane * (e.rows / 2) : 0;
    const c0 = dir === 'c2v' && s === 2 ? core.lane * (e.cols / 2) : 0;
    const n = t.elemBytes;
    for (let r = 0; r < t.validRow; r++) {
      for (let k = 0; k < t.validCol; k++) {
        const to = t.offset(r, k) * n;
        const rr = r0 + r;
        const cc = c0 + k;
        if (rr < e.rows && cc < e.cols) {
          const from = (rr * e.cols + cc) * n;
          t.bytes.set(e.data.subarray(from, from + n), to);
        } else t.bytes.fill(0, to, to + n);
      }
    }
  }

  free(p: PipeDesc, dir: PipeDir, core: CoreInfo): void {
    const c = this.channel(p, dir);
    const at = c.popped[core.lane]!.shift();
    if (at === undefined) {
      // pto-isa's CPU simulator releases the current slot without a pending pop; nothing to free here
      this.note(
        `tfree on the ${dir.toUpperCase()} pipe of ${core.kind ?? 'the entry'} core ${core.id} released no popped tile (nothing popped and not freed on this sub-block): ignored`,
      );
      return;
    }
    const e = c.entries[at]!;
    e.freed++;
    if (e.freed === e.consumers) c.released++;
  }
}
