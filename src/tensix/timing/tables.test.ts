/** Every instruction of each arch has a timing entry with a source; the sub-unit columns match SFPLOADMACRO.md. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ARCHES, instructionSet } from '../encoding.ts';
import { canExecuteOn, timingOf, timingTable } from './tables.ts';

describe('timing tables', () => {
  for (const arch of ARCHES) {
    it(`${arch}: every instruction has an entry with a source`, () => {
      for (const d of instructionSet(arch)) {
        const t = timingOf(d.name, arch);
        assert.ok(t, `${d.name} has no timing entry`);
        assert.ok(t.source.length > 10, `${d.name} has no source`);
        assert.ok(t.latency === 1 || t.latency === 2);
      }
      for (const [name, t] of timingTable(arch)) assert.ok(t.source, name);
    });
  }
  it('latencies and sub-units of the VectorUnit.md / SFPLOADMACRO.md rows', () => {
    assert.equal(timingOf('SFPMAD', 'wormhole')!.latency, 2);
    assert.equal(timingOf('SFPMAD', 'wormhole')!.unit, 'mad');
    assert.equal(timingOf('SFPSWAP', 'blackhole')!.latency, 2);
    assert.equal(timingOf('SFPSWAP', 'blackhole')!.unit, 'simple');
    assert.equal(timingOf('SFPSHFT2', 'wormhole', 3)!.latency, 2);
    assert.equal(timingOf('SFPSHFT2', 'wormhole', 5)!.latency, 1);
    assert.equal(timingOf('SFP_STOCH_RND', 'wormhole')!.unit, 'round');
    assert.equal(timingOf('SFPSTORE', 'wormhole')!.unit, 'store');
    assert.equal(timingOf('SFPNOP', 'wormhole')!.unit, 'load');
    assert.equal(timingOf('SFPARECIP', 'blackhole')!.unit, 'simple');
    assert.equal(timingOf('SFPMUL24', 'blackhole')!.latency, 2);
    assert.equal(timingOf('SETRWC', 'wormhole')!.unit, 'issue');
    // eligibility: SFPNOP everywhere but Store; MAD family not on Simple; BH-only instructions
    assert.ok(canExecuteOn('mad', 'SFPNOP', 'wormhole'));
    assert.ok(!canExecuteOn('store', 'SFPNOP', 'wormhole'));
    assert.ok(!canExecuteOn('simple', 'SFPMAD', 'blackhole'));
    assert.ok(canExecuteOn('simple', 'SFPARECIP', 'blackhole'));
    assert.ok(!canExecuteOn('simple', 'SFPARECIP', 'wormhole'));
    assert.ok(canExecuteOn('round', 'SFP_STOCH_RND', 'blackhole'));
  });
});
