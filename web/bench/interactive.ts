// How fast the built playground becomes usable (issue 16: interactive in < 2 s). A measurement,
// not a test: `npm run build:web && node --import tsx web/bench/interactive.ts`. For each of five
// cold loads (a new browser context: empty cache and storage) it reports, in ms after navigation
// start: DOM interactive, the editor shown, and the default example's first run shown in the views.
import { launch, serve } from '../test/harness.ts';

const { server, url } = await serve();
const browser = await launch();
const rows: { interactive: number; editor: number; firstRun: number }[] = [];
try {
  for (let i = 0; i < 5; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(url);
    await page.waitForSelector('.cm-content');
    const editor = await page.evaluate(() => performance.now());
    await page.waitForSelector('[data-lreg]');
    const firstRun = await page.evaluate(() => performance.now());
    const interactive = await page.evaluate(
      () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domInteractive,
    );
    rows.push({ interactive, editor, firstRun });
    await ctx.close();
  }
} finally {
  await browser.close();
  server.close();
}
const med = (k: keyof (typeof rows)[0]) =>
  rows
    .map((r) => r[k])
    .sort((a, b) => a - b)[2]!
    .toFixed(0);
console.log(`cold loads: ${rows.length}; median ms after navigation start:`);
console.log(
  `  DOM interactive ${med('interactive')}, editor shown ${med('editor')}, first run in the views ${med('firstRun')}`,
);
