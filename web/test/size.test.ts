import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { DIST } from './harness.ts';

// Issue 16: the first load of the built site is under 1.5 MB of JavaScript, gzip. Counted here as
// an upper bound: every .js file in dist-web/ (the page, the worker and every lazily loaded example
// chunk), each gzipped at level 9. Deterministic: it depends only on the build.

const LIMIT = 1.5 * 1024 * 1024;

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

test('all of dist-web’s JavaScript is under 1.5 MB gzip', () => {
  const files = jsFiles(DIST);
  assert.ok(files.length >= 2, 'the page and the worker are built');
  assert.ok(
    files.some((f) => /worker/.test(f)),
    'the simulator runs in a worker chunk',
  );
  const total = files.reduce((n, f) => n + gzipSync(readFileSync(f), { level: 9 }).length, 0);
  assert.ok(total < LIMIT, `${total} bytes gzip`);
});

test('the built page uses relative URLs only (works from any static host or directory)', () => {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  assert.ok(urls.length > 0);
  for (const u of urls) assert.ok(u.startsWith('./') || u.startsWith('data:'), u);
});
