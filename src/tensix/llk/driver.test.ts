import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { addrMod6Incr, callStatement, driverSource } from './driver.ts';
import { llkHeaders } from './headers.ts';

describe('llk driver: the generated set-up', () => {
  it('ADDR_MOD_6 per API, arch and op type (tt-llk llk_math_eltwise_*_sfpu.h)', () => {
    assert.equal(addrMod6Incr('unary', 'wormhole', 'typecast'), 2);
    assert.equal(addrMod6Incr('unary', 'wormhole', 'reciprocal'), undefined); // BH only
    assert.equal(addrMod6Incr('unary', 'blackhole', 'reciprocal'), 2);
    assert.equal(addrMod6Incr('unary', 'blackhole', 'topk_local_sort'), 32);
    assert.equal(addrMod6Incr('binary', 'wormhole', 'mul_int32'), 2);
    assert.equal(addrMod6Incr('binary', 'wormhole', 'typecast'), undefined);
    assert.equal(addrMod6Incr('ternary', 'blackhole', 'where'), 2);
    assert.equal(addrMod6Incr('unary', 'wormhole', undefined), undefined);
  });
  it('entry and init expressions become call statements', () => {
    assert.equal(callStatement('f<false, 8>', 'entry'), 'f<false, 8>();');
    assert.equal(callStatement(' g<1>(0, 1, 0); ', 'entry'), 'g<1>(0, 1, 0);');
    assert.throws(() => callStatement('a(); b()', 'entry'), AxsimError);
    // braces only as balanced initialisers inside the call
    assert.equal(
      callStatement('f<2>(0, std::array<int, 2>{{1, 2}})', 'entry'),
      'f<2>(0, std::array<int, 2>{{1, 2}});',
    );
    assert.throws(() => callStatement('f(x{)', 'entry'), AxsimError);
    assert.throws(() => callStatement('{ f(); }', 'entry'), AxsimError);
    assert.throws(() => callStatement('f([]{ g(); })', 'entry'), AxsimError);
    assert.throws(() => callStatement('  ', 'init'), AxsimError);
  });
  it('Wormhole: CC enable, API init, addr-mod base, 4-face loop, done', () => {
    const s = driverSource({
      arch: 'wormhole',
      entry: 'k<false, 8>',
      init: ['i<false>'],
      sfpuType: 'typecast',
    });
    const order = [
      'TTI_SFPENCC(3, 0, 0, 10);',
      'TTI_SFPCONFIG(0, 11, 1);',
      'TTI_SFPCONFIG(0, 0xF, 1);',
      '.set(ADDR_MOD_7);',
      '.dest = {.incr = 2}}.set(ADDR_MOD_6);',
      'TTI_SETRWC(0, 0, 0, 0, 0, 15);',
      'i<false>();',
      'TT_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, 0);',
      'TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);',
      'for (int face = 0; face < 4; face++) {',
      'k<false, 8>();',
      'TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 0);',
    ];
    let at = 0;
    for (const piece of order) {
      const k = s.indexOf(piece, at);
      assert.ok(k >= 0, `missing or out of order: ${piece}`);
      at = k;
    }
    assert.equal(s.split('p_setrwc::CR_D, 8').length - 1, 2); // two +8 row steps per face
  });
  it('Blackhole has no addr-mod base; seed, tile and vector modes', () => {
    const s = driverSource({ arch: 'blackhole', entry: 'k', seed: 7, dstTile: 2, vectorMode: 'none' });
    assert.ok(!s.includes('ADDR_MOD_SET_Base'));
    assert.ok(s.includes('init_prng_seed(7u);'));
    assert.ok(s.includes('TT_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, 128);'));
    assert.ok(!s.includes('for (int face'));
    assert.throws(() => driverSource({ arch: 'blackhole', entry: 'k', seed: -1 }), AxsimError);
    const c = driverSource({ arch: 'blackhole', entry: 'k', vectorMode: 'c' });
    assert.equal(c.split('p_setrwc::CR_D, 8').length - 1, 4); // faces 0 and 2: skip one face each time
  });
  it('--bare: only the init and entry calls', () => {
    const s = driverSource({ arch: 'wormhole', entry: 'k', init: ['i'], bare: true });
    assert.ok(!s.includes('SFPENCC') && !s.includes('addr_mod_t'));
    assert.ok(s.indexOf('i();') < s.indexOf('k();'));
  });
  it("headers carry the arch's ADDR_MOD register indices (src/tensix/state.ts)", () => {
    assert.ok(llkHeaders('wormhole')['ckernel_addrmod.h']!.includes('AXSIM_ADDR_MOD_DST_REG[8] = {23, 24,'));
    assert.ok(llkHeaders('blackhole')['ckernel_addrmod.h']!.includes('AXSIM_ADDR_MOD_DST_REG[8] = {28, 29,'));
    assert.ok(llkHeaders('wormhole')['ckernel.h']!.includes('#define ADDR_MOD_SET_Base_ADDR32 2'));
  });
});
