// Shared set-up of the browser tests (`npm run test:web`): a tiny static server for dist-web/ on
// 127.0.0.1 (node:http) and Debian's Chromium driven by playwright-core (never a downloaded browser).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { AxsimError } from '../../src/errors.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DIST = join(ROOT, 'dist-web');
export const RESULTS = join(ROOT, 'test-results', 'web');
export const DOC_SHOTS = join(ROOT, 'docs', 'playground');
export const CHROMIUM = process.env.AXSIM_CHROMIUM ?? '/usr/bin/chromium';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/** Serves dist-web/ (GET only, no directory listings, nothing outside it). */
export function serve(): Promise<{ server: Server; url: string }> {
  statSync(join(DIST, 'index.html')); // built first: npm run build:web
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = normalize(join(DIST, path === '/' ? 'index.html' : path));
    if (!file.startsWith(DIST)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/` });
    });
  });
}

export async function launch(): Promise<Browser> {
  // playwright gives every launch a fresh, empty user-data-dir of its own
  return chromium.launch({
    headless: true,
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Session {
  browser: Browser;
  server: Server;
  url: string;
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors: a test fails if any appear. */
  problems: string[];
  close(): Promise<void>;
}

export async function open(hash = '', opts: { colorScheme?: 'light' | 'dark' } = {}): Promise<Session> {
  const { server, url } = await serve();
  const browser = await launch();
  const context = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    colorScheme: opts.colorScheme ?? 'light',
  });
  // waits are for conditions; on a loaded 2-core machine one can take longer than playwright's 30 s
  context.setDefaultTimeout(120_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(url + hash);
  return {
    browser,
    server,
    url,
    context,
    page,
    problems,
    async close() {
      await browser.close();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Waits until a run finished (the status says ok or error) after at least `runs` runs. */
export async function settled(page: Page, runs = 1): Promise<string> {
  await page.waitForFunction(
    (n) => {
      const s = document.querySelector('[data-testid=status]');
      return (
        s &&
        Number(s.getAttribute('data-runs')) >= n &&
        /^(ok|error)$/.test(s.getAttribute('data-status') ?? '')
      );
    },
    runs,
    { timeout: 60_000 },
  );
  return (await page.getAttribute('[data-testid=status]', 'data-status')) ?? '';
}

export async function runs(page: Page): Promise<number> {
  return Number(await page.getAttribute('[data-testid=status]', 'data-runs'));
}

/** Chooses an example and waits for its run. */
export async function chooseExample(page: Page, path: string): Promise<void> {
  const before = await runs(page);
  await page.selectOption('[data-testid=example]', path);
  await settled(page, before + 1);
}

/** The screenshots docs/playground.md shows (whole page, so the editor is in the picture). */
const DOC_NAMES = new Set([
  'tensix-lanes',
  'tensix-dst',
  'tensix-timeline',
  'tensix-hazard',
  'tensix-error',
  'amx-registers',
  'amx-perf',
  'amx-footprint',
  'amx-c-step',
  'pto-tiles',
  'pto-cost',
  'dark-timeline',
]);

/**
 * A screenshot of the view panel (or the page) into test-results/web/ (a CI artefact, not
 * committed) and, with AXSIM_DOC_SHOTS=1, into docs/playground/ for docs/playground.md.
 */
export async function shot(page: Page, name: string, what: 'panel' | 'page' = 'panel'): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  const target = what === 'page' ? page : page.locator('[data-testid=panel]');
  await target.screenshot({ path: join(RESULTS, `${name}.png`) });
  if (process.env.AXSIM_DOC_SHOTS === '1' && DOC_NAMES.has(name)) {
    mkdirSync(DOC_SHOTS, { recursive: true });
    await page.screenshot({ path: join(DOC_SHOTS, `${name}.png`) });
  }
}

/** A number list from a data-values attribute (the texts the view shows, one per cell). */
export function values(attr: string | null): string[] {
  return (attr ?? '').split(' ').filter((x) => x !== '');
}

export function readText(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** The AxsimError `f` throws (the library's own verdict the page is compared with); fails if none. */
export function thrown(f: () => unknown): AxsimError {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof AxsimError, String(e));
    return e;
  }
  assert.fail('expected an AxsimError');
}

/** Replaces the editor's text as a user would (select all, type) and waits for the run it starts. */
export async function typeSource(page: Page, text: string): Promise<void> {
  const n = await runs(page);
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
  await settled(page, n + 1);
}

/**
 * The editor's first error underline: the text of the line it is on and its 1-based column (the
 * editor draws only the lines in view, so the caller brings the line into view first).
 */
export async function underline(page: Page): Promise<{ range: Locator; line: string; col: number }> {
  const range = page.locator('.cm-lintRange-error').first();
  await range.waitFor();
  const line = (await range.evaluate((e) => e.closest('.cm-line')?.textContent)) ?? '';
  const col = await range.evaluate((e) => {
    const l = e.closest('.cm-line')!;
    const r = document.createRange();
    r.setStart(l, 0);
    r.setEndBefore(e);
    return r.toString().length + 1;
  });
  return { range, line, col };
}

/**
 * One page for the whole test file: opened (and the example chosen, if given) before the first
 * test, checked for console errors and closed after the last. The object is filled in by `before`.
 */
export function pageForFile(example?: string): Session {
  const s = {} as Session;
  before(async () => {
    Object.assign(s, await open());
    await settled(s.page);
    if (example) await chooseExample(s.page, example);
  });
  after(async () => {
    assert.deepEqual(s.problems, []);
    await s.close();
  });
  return s;
}

/** The LReg cells the page shows, as bit patterns, ordered by register then lane. */
export async function shownLregs(page: Page): Promise<number[]> {
  return page.$$eval('[data-lreg]', (els) =>
    els
      .map((e) => [
        Number(e.getAttribute('data-lreg')),
        Number(e.getAttribute('data-lane')),
        Number(e.getAttribute('data-bits')),
      ])
      .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!)
      .map((x) => x[2]!),
  );
}
