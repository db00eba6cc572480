/**
 * The stack's written-bytes shadow (memory.ts) against a plain model: one flag per byte, set by
 * `markUnset`, cleared by every kind of write, copied by `copy`, and cleared for everything at or
 * above a fresh allocation (what lies above the stack pointer is dead). Random operation sequences;
 * after each one, every live range's `isUnset` and `read` agree with the model, and no marked byte
 * lies at or above `unsetTop` (the bound that lets loads skip the shadow), which is the stack's
 * base whenever nothing is marked.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AxsimError } from '../errors.ts';
import { Memory, STACK_BASE } from './memory.ts';

type Op =
  | { k: 'alloca'; size: number; align: number }
  | { k: 'pop'; to: number }
  | { k: 'mark' | 'store' | 'zero' | 'view'; at: number; n: number }
  | { k: 'copy'; dst: number; src: number; n: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    k: fc.constant('alloca' as const),
    size: fc.integer({ min: 1, max: 48 }),
    align: fc.constantFrom(1, 4, 8),
  }),
  fc.record({ k: fc.constant('pop' as const), to: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    k: fc.constantFrom('mark' as const, 'store' as const, 'zero' as const, 'view' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    n: fc.integer({ min: 1, max: 16 }),
  }),
  fc.record({
    k: fc.constant('copy' as const),
    dst: fc.double({ min: 0, max: 1, noNaN: true }),
    src: fc.double({ min: 0, max: 1, noNaN: true }),
    n: fc.integer({ min: 1, max: 24 }),
  }),
) as fc.Arbitrary<Op>;

describe('memory: the written-bytes shadow of the stack', () => {
  it('agrees with a byte-per-flag model under random allocations, marks, writes, copies and pops', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const mem = new Memory(undefined);
        const model = new Uint8Array(1 << 12);
        const live = () => mem.sp - STACK_BASE;
        /** A range [a, a+n) inside the live stack, or undefined when it does not fit. */
        const range = (f: number, n: number): number | undefined => {
          const room = live() - n;
          return room < 0 ? undefined : STACK_BASE + Math.floor(f * room);
        };
        for (const o of ops) {
          switch (o.k) {
            case 'alloca': {
              const a = mem.alloca(o.size, o.align);
              model.fill(0, a - STACK_BASE);
              break;
            }
            case 'pop':
              mem.sp = STACK_BASE + Math.floor(o.to * live());
              break;
            case 'copy': {
              const d = range(o.dst, o.n);
              const s = range(o.src, o.n);
              if (d === undefined || s === undefined) break;
              mem.copy(d, s, o.n);
              model.set(model.slice(s - STACK_BASE, s - STACK_BASE + o.n), d - STACK_BASE);
              break;
            }
            default: {
              const a = range(o.at, o.n);
              if (a === undefined) break;
              if (o.k === 'mark') mem.markUnset(a, o.n, 'x');
              else if (o.k === 'store') mem.wrote(mem.stack, a, o.n);
              else if (o.k === 'zero') mem.zero(a, o.n);
              else mem.view(a, o.n);
              model.fill(o.k === 'mark' ? 1 : 0, a - STACK_BASE, a - STACK_BASE + o.n);
            }
          }
          for (let i = 0; i < model.length; i++)
            if (model[i]) assert.ok(STACK_BASE + i < mem.unsetTop, `byte ${i} marked above unsetTop`);
          // with nothing marked the loads skip the shadow again
          if (!model.some((b) => b !== 0)) assert.equal(mem.unsetTop, STACK_BASE);
          for (let a = 0; a < live(); a += 3)
            for (const n of [1, 4]) {
              if (a + n > live()) continue;
              const want = model.subarray(a, a + n).some((b) => b !== 0);
              assert.equal(mem.isUnset(STACK_BASE + a, n), want);
              let threw = false;
              try {
                mem.read(STACK_BASE + a, n);
              } catch (e) {
                assert.ok(e instanceof AxsimError && e.category === 'UndefinedBehaviour', String(e));
                threw = true;
              }
              assert.equal(threw, want);
            }
        }
      }),
      { numRuns: 1000, seed: 11 },
    );
  });
});
