import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { f32ToBits } from '../../src/numeric/index.ts';
import { TensixMachine } from '../../src/tensix/index.ts';
import { chooseExample, pageForFile, readText, settled, shot, shownLregs } from './harness.ts';

// The page as a whole: a shared link reproduces a run, everything works from the keyboard, the dark
// theme, and a runaway program ends with the library's budget error while the page stays usable.

const s = pageForFile();

test('a shared link reproduces the run: program, arch, input and the values shown', async () => {
  await chooseExample(s.page, 'tensix/abs.sfpu');
  const src = `${readText('examples/tensix/abs.sfpu')}\nTTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG3, 1); // -x into L3\n`;
  let n = Number(await s.page.getAttribute('[data-testid=status]', 'data-runs'));
  await s.page.selectOption('[data-testid=arch]', 'blackhole');
  await settled(s.page, ++n);
  await s.page.selectOption('[data-testid=input]', 'ramp-fp32');
  await settled(s.page, ++n);
  await s.page.click('.cm-content');
  await s.page.keyboard.press('Control+A');
  await s.page.keyboard.insertText(src);
  await settled(s.page, n + 1);
  assert.equal(await s.page.getAttribute('[data-testid=status]', 'data-status'), 'ok');
  const url = s.page.url();
  assert.match(url, /#r=[A-Za-z0-9_-]+$/);
  const shown = await shownLregs(s.page);
  // the library on the same program and input (the ramp (i - 512) / 8, Blackhole)
  const m = new TensixMachine('blackhole');
  m.writeDstTile(
    0,
    Uint32Array.from({ length: 1024 }, (_, i) => f32ToBits((i - 512) / 8)),
    'fp32',
  );
  m.configure({ sfpuFp32: true, srcBFormat: 5 });
  m.run(m.load(src));
  assert.deepEqual(shown, Array.from({ length: 8 }, (_, r) => Array.from(m.lreg(r))).flat());
  // a fresh page (new context: nothing in memory or storage) opened at the link
  const ctx = await s.browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(url);
  await settled(page);
  assert.equal(await page.inputValue('[data-testid=arch]'), 'blackhole');
  assert.equal(await page.inputValue('[data-testid=input]'), 'ramp-fp32');
  assert.equal(await page.inputValue('[data-testid=example]'), 'tensix/abs.sfpu');
  assert.equal(
    await page.evaluate(() => document.querySelector('.cm-content')?.textContent),
    src.replace(/\n/g, ''),
  );
  assert.deepEqual(await shownLregs(page), shown);
  await ctx.close();
});

/** Presses Tab until the focused element matches, up to `max` times; returns the stops passed. */
async function tabTo(page: Page, selector: string, max = 40, key = 'Tab'): Promise<string[]> {
  const stops: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const here = await page.evaluate((sel) => {
      const a = document.activeElement;
      if (!a) return { match: false, name: '' };
      return {
        match: a.matches(sel),
        name: a.getAttribute('data-testid') ?? a.getAttribute('role') ?? a.id ?? a.tagName,
      };
    }, selector);
    stops.push(here.name);
    if (here.match) return stops;
  }
  throw new Error(`${selector} not reached with Tab: ${stops.join(', ')}`);
}

test('keyboard only: Tab reaches run, step and the views; Enter runs and steps; arrows switch views and move cursors', async () => {
  const ctx = await s.browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(s.url);
  await settled(page);
  const runs = Number(await page.getAttribute('[data-testid=status]', 'data-runs'));
  await page.focus('body');
  const toRun = await tabTo(page, '[data-testid=run]');
  assert.ok(toRun.includes('example'), toRun.join());
  await page.keyboard.press('Enter');
  await settled(page, runs + 1);
  // back one step: Tab to the enabled step-back button, Enter
  await tabTo(page, '[data-testid=step-back]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#view-lregs table[data-step="193"]');
  // forward again
  await tabTo(page, '[data-testid=step-forward]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#view-lregs table[data-step="194"]');
  // and Alt+arrow from anywhere
  await page.keyboard.press('Alt+ArrowLeft');
  await page.waitForSelector('#view-lregs table[data-step="193"]');
  // the editor is a Tab stop that does not trap Tab, then the selected view tab
  const toTabs = await tabTo(page, '[role=tab][aria-selected=true]');
  assert.ok(toTabs.includes('textbox'), toTabs.join());
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('[data-testid=tab-dst]', 'aria-selected'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'tab-dst');
  // into the Dst view: the heat map's cursor moves with the arrows and reads its value out
  await tabTo(page, '#dst-grid canvas');
  const before = await page.textContent('#dst-grid-readout');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const after = await page.textContent('#dst-grid-readout');
  assert.notEqual(after, before);
  assert.match(after ?? '', /^Dst row 1, col 1: /);
  // the timeline and the Lanes view by keyboard too
  // back past the view's controls (tile, format) to the selected view tab
  const backStops = await tabTo(page, '[data-testid=tab-dst]', 6, 'Shift+Tab');
  assert.ok(backStops.includes('dst-tile'), backStops.join());
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('[data-testid=tab-timeline]', 'aria-selected'), 'true');
  await tabTo(page, '#tl-scroll');
  await page.keyboard.press('ArrowDown');
  assert.match((await page.textContent('#tl-readout')) ?? '', /^cycle 1,/);
  await ctx.close();
});

test('the dark theme: toggled from the keyboard, remembered, every view readable', async () => {
  const ctx = await s.browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'dark' });
  const page = await ctx.newPage();
  await page.goto(s.url);
  await settled(page);
  // the system's preference is followed on a first visit
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const fg = await page.evaluate(() => getComputedStyle(document.body).color);
  assert.notEqual(bg, fg);
  await shot(page, 'dark-lanes', 'page');
  await page.click('[data-testid=tab-timeline]');
  await shot(page, 'dark-timeline');
  await page.focus('[data-testid=theme]');
  await page.keyboard.press('Enter');
  // the theme is applied by an effect after the re-render: wait for it rather than race it
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, {
    timeout: 10_000,
  });
  await page.reload();
  await settled(page);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  await ctx.close();
});

test('a runaway program ends with the library’s budget error and the page stays usable', async () => {
  await chooseExample(s.page, 'tensix/relu.sfpu');
  const n = Number(await s.page.getAttribute('[data-testid=status]', 'data-runs'));
  await s.page.click('.cm-content');
  await s.page.keyboard.press('Control+A');
  await s.page.keyboard.insertText('.rept 60000\n.rept 60000\nSFPNOP\n.endr\n.endr\n');
  await settled(s.page, n + 1);
  assert.equal(await s.page.textContent('[data-testid=error-category]'), 'ResourceLimit');
  // still responsive: another example runs
  await chooseExample(s.page, 'tensix/abs.sfpu');
  assert.equal(await s.page.getAttribute('[data-testid=status]', 'data-status'), 'ok');
});

test('the page stops a run that outlives its time limit and starts a fresh worker', async () => {
  // ?limit=300: a 300 ms limit instead of 10 s, so that a long (not endless) program reaches it
  const ctx = await s.browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${s.url}?limit=300`);
  await settled(page);
  const n = Number(await page.getAttribute('[data-testid=status]', 'data-runs'));
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  // a million instructions: assembling, the cycle model and the run take far longer than 300 ms
  await page.keyboard.insertText('.rept 1000\n.rept 1000\nTTI_SFPABS(0, 0, 0, 1);\n.endr\n.endr\n');
  await settled(page, n + 1);
  assert.equal(await page.textContent('[data-testid=error-category]'), 'ResourceLimit');
  assert.match(
    (await page.textContent('[data-testid=error-message]')) ?? '',
    /longer than 0.3 s and was stopped/,
  );
  // the page is usable at once: views switch, the editor takes text and a new run starts
  await page.click('[data-testid=tab-timeline]');
  assert.equal(await page.getAttribute('[data-testid=tab-timeline]', 'aria-selected'), 'true');
  await page.keyboard.press('Control+A');
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText('SFPNOP\n');
  await settled(page, n + 2);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('views keep their place while a program runs (no layout shift)', async () => {
  const box = async () => s.page.locator('[data-testid=panel]').boundingBox();
  const editor = async () => s.page.locator('.editor').boundingBox();
  const b0 = await box();
  const e0 = await editor();
  const n = Number(await s.page.getAttribute('[data-testid=status]', 'data-runs'));
  await s.page.click('[data-testid=run]');
  await settled(s.page, n + 1);
  assert.deepEqual(await box(), b0);
  assert.deepEqual(await editor(), e0);
});
