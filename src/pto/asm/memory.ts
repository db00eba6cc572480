/**
 * On-chip buffer memories for PTO-AS runs. Each storage location of a tile (Vec = UB, Mat = L1,
 * Left = L0A, Right = L0B, Acc = L0C, Bias, Scaling = FBuffer) is one byte memory per run; a tile is
 * a typed view of `rows*cols*sizeof(T)` bytes at a byte address in its location's memory, so two
 * tiles at overlapping addresses share bytes exactly as on the device (docs/pto-as.md, "Tile
 * storage").
 *
 * Capacities and alignment follow pto-isa `include/pto/common/buffer_limits.hpp` and the TASSIGN
 * page (`docs/isa/tile/ops/sync-and-config/tassign.md`, checks SA-0351..SA-0354). The `cpu` profile
 * follows the CPU simulator's `NPUMemoryModel` (`include/pto/cpu/NPUMemoryModel.hpp`): A2/A3 sizes,
 * but UB is a 512 KiB scratch, and Bias / Scaling tiles resolve into UB.
 */
import { badInput, unsupported } from '../../errors.ts';
import type { Profile } from '../arith.ts';
import { allocBytes, pin } from '../simd.ts';
import type { TileLoc } from '../tile.ts';

/** One physical memory: its name as the references spell it, capacity and address alignment. */
export interface SpaceSpec {
  name: string;
  size: number;
  align: number;
}

const KIB = 1024;
const ALIGN = 32;

/** Which physical memory each tile location lives in, with its size, per profile. */
export const BUFFER_SPACES: Readonly<Record<Profile, Readonly<Record<TileLoc, SpaceSpec>>>> = {
  a2a3: {
    vec: { name: 'UB', size: 192 * KIB, align: ALIGN },
    mat: { name: 'L1', size: 512 * KIB, align: ALIGN },
    left: { name: 'L0A', size: 64 * KIB, align: ALIGN },
    right: { name: 'L0B', size: 64 * KIB, align: ALIGN },
    acc: { name: 'L0C', size: 128 * KIB, align: ALIGN },
    bias: { name: 'Bias', size: 1 * KIB, align: ALIGN },
    scaling: { name: 'FBuffer', size: 2 * KIB, align: ALIGN },
  },
  a5: {
    vec: { name: 'UB', size: 256 * KIB, align: ALIGN },
    mat: { name: 'L1', size: 512 * KIB, align: ALIGN },
    left: { name: 'L0A', size: 64 * KIB, align: ALIGN },
    right: { name: 'L0B', size: 64 * KIB, align: ALIGN },
    acc: { name: 'L0C', size: 256 * KIB, align: ALIGN },
    bias: { name: 'Bias', size: 4 * KIB, align: ALIGN },
    scaling: { name: 'FBuffer', size: 4 * KIB, align: ALIGN },
  },
  // the CPU simulator: UB is max(192 KiB, 512 KiB scratch); Bias and Scaling fall through to UB
  cpu: {
    vec: { name: 'UB', size: 512 * KIB, align: ALIGN },
    mat: { name: 'L1', size: 512 * KIB, align: ALIGN },
    left: { name: 'L0A', size: 64 * KIB, align: ALIGN },
    right: { name: 'L0B', size: 64 * KIB, align: ALIGN },
    acc: { name: 'L0C', size: 128 * KIB, align: ALIGN },
    bias: { name: 'UB', size: 512 * KIB, align: ALIGN },
    scaling: { name: 'UB', size: 512 * KIB, align: ALIGN },
  },
};

/** A placed byte range: which memory, where, and who placed it (for messages). */
export interface Placement {
  space: string;
  addr: number;
  size: number;
  /** `line:col` of the allocation or `tassign` that placed it, or an argument name. */
  where: string;
}

/** Do two placements share at least one byte? */
export function overlaps(a: Placement, b: Placement): boolean {
  return a.space === b.space && a.addr < b.addr + b.size && b.addr < a.addr + a.size;
}

/** The same bytes exactly (an in-place operand), rather than a partial overlap. */
export function samePlace(a: Placement, b: Placement): boolean {
  return a.space === b.space && a.addr === b.addr && a.size === b.size;
}

/**
 * The buffer memories of one run. Memories are created on first use, zero-filled (as the CPU
 * simulator's), from the SIMD pool when they fit so the f32 fast paths apply to tiles inside them.
 *
 * Tiles without an address are placed by `autoPlace`: one region per allocation site (an
 * `alloc_tile` / `memref.alloc` op or a tile argument), chosen the first time the site executes and
 * reused by later executions (loop iterations), carved from the top of the memory downwards so that
 * it stays clear of the low addresses ptoas's planner and hand-written kernels use. Explicit
 * addresses that overlap an automatically placed region or a reserved buffer are reported.
 */
export class BufferMemory {
  private readonly spaces = new Map<string, Uint8Array>();
  private readonly tops = new Map<string, number>();
  private readonly autoSites = new Map<object, Placement>();
  /** Regions the allocator handed out (auto placement) or reserved (`pto.reserve_buffer`). */
  private readonly claimed: Placement[] = [];

  constructor(readonly profile: Profile) {}

  spec(loc: TileLoc): SpaceSpec {
    return BUFFER_SPACES[this.profile][loc];
  }

  /** The whole memory of `loc` (created zeroed on first use). */
  memory(loc: TileLoc): Uint8Array {
    const s = this.spec(loc);
    let m = this.spaces.get(s.name);
    if (!m) {
      m = allocBytes(s.size, this);
      this.spaces.set(s.name, m);
    }
    return m;
  }

  /**
   * Checks an explicit placement (range and alignment, SA-0352..SA-0354) and returns its
   * description. `what` names the tile in messages.
   */
  check(
    loc: TileLoc,
    addr: number,
    size: number,
    where: string,
    what: string,
    /** A pipe's consumer slot: it lies inside its reserved FIFO buffer by design. */
    inReserved = false,
  ): Placement {
    const s = this.spec(loc);
    if (!Number.isSafeInteger(addr) || addr < 0) {
      throw badInput(`${what}: address ${addr} is not a byte offset in ${s.name}`, {
        hint: `addresses are non-negative byte offsets inside the ${s.size}-byte ${s.name} (${this.profile})`,
      });
    }
    if (size > s.size) {
      throw badInput(
        `${what}: the tile needs ${size} bytes, more than the whole ${s.size}-byte ${s.name} of the ${this.profile} profile`,
        { hint: 'pto-isa TASSIGN check SA-0352: reduce the tile shape or element size' },
      );
    }
    if (addr + size > s.size) {
      throw badInput(
        `${what}: bytes ${addr}..${addr + size - 1} leave the ${s.size}-byte ${s.name} of the ${this.profile} profile`,
        { hint: `pto-isa TASSIGN check SA-0353: use an address at most ${s.size - size}` },
      );
    }
    if (addr % s.align !== 0) {
      throw badInput(`${what}: address ${addr} in ${s.name} is not a multiple of ${s.align} bytes`, {
        hint: `pto-isa TASSIGN check SA-0354: round the address to ${s.align} bytes (e.g. ${Math.floor(addr / s.align) * s.align})`,
      });
    }
    const p: Placement = { space: s.name, addr, size, where };
    for (const c of inReserved ? [] : this.claimed) {
      if (overlaps(p, c)) {
        throw badInput(
          `${what}: bytes ${addr}..${addr + size - 1} of ${s.name} overlap ${c.where} (bytes ${c.addr}..${c.addr + c.size - 1})`,
          {
            hint: 'give every tile an address (alloc_tile addr = …) or none; explicit addresses must not fall inside automatically placed or reserved regions',
          },
        );
      }
    }
    return p;
  }

  /** A view of `size` bytes at `addr` (already checked). */
  view(loc: TileLoc, addr: number, size: number): Uint8Array {
    const m = this.memory(loc);
    return pin(m.subarray(addr, addr + size), m);
  }

  /**
   * The placement of an allocation site without an address (first call places it), or undefined
   * when the memory has no room left: the caller then gives the tile storage of its own and says so
   * (ptoas's planner reuses space by liveness, which this allocator does not model; tiles without
   * addresses never rely on sharing bytes, so results are the same).
   */
  autoPlace(site: object, loc: TileLoc, size: number, where: string): Placement | undefined {
    const had = this.autoSites.get(site);
    if (had) {
      if (had.size !== size)
        throw badInput(`the allocation at ${where} changed size between executions (${had.size} -> ${size})`);
      return had;
    }
    const s = this.spec(loc);
    const top = this.tops.get(s.name) ?? s.size;
    const addr = Math.floor((top - size) / s.align) * s.align;
    if (size > s.size || addr < 0) return undefined;
    const p: Placement = { space: s.name, addr, size, where };
    this.tops.set(s.name, addr);
    this.autoSites.set(site, p);
    this.claimed.push(p);
    return p;
  }

  /** `pto.reserve_buffer`: claims `size` bytes (at `base`, or placed by the allocator). */
  reserve(site: object, loc: TileLoc, size: number, base: number | undefined, where: string): Placement {
    if (base === undefined) {
      const p = this.autoPlace(site, loc, size, where);
      if (!p) {
        const s = this.spec(loc);
        throw unsupported(`pto.reserve_buffer: no room for ${size} bytes in the ${s.size}-byte ${s.name}`, {
          hint: 'axsim places every allocation site without an address in its own region; give the buffer a base',
        });
      }
      return p;
    }
    const p = this.check(loc, base, size, where, 'pto.reserve_buffer');
    this.claimed.push(p);
    return p;
  }
}
