/**
 * POSIX path arithmetic for `#include` candidates, as node:path's `posix` functions compute it
 * (checked against them in paths.test.ts), without importing Node.js so the front end also runs in
 * a browser.
 */

export function isAbsolute(p: string): boolean {
  return p.startsWith('/');
}

/** The directory part: what precedes the last `/` that follows the final name ('.' without one). */
export function dirname(p: string): string {
  if (p.length === 0) return '.';
  const hasRoot = p[0] === '/';
  let end = -1;
  let matchedSlash = true;
  for (let i = p.length - 1; i >= 1; i--) {
    if (p[i] === '/') {
      if (!matchedSlash) {
        end = i;
        break;
      }
    } else matchedSlash = false;
  }
  if (end === -1) return hasRoot ? '/' : '.';
  if (hasRoot && end === 1) return '//';
  return p.slice(0, end);
}

/** Resolves `.` and `..` segments and repeated slashes; keeps a trailing slash. */
export function normalize(p: string): string {
  if (p.length === 0) return '.';
  const abs = isAbsolute(p);
  const trailing = p.endsWith('/');
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!abs) out.push('..');
    } else out.push(seg);
  }
  let s = out.join('/');
  if (s.length === 0 && !abs) s = '.';
  if (s.length > 0 && trailing) s += '/';
  return abs ? `/${s}` : s;
}

/** Joins non-empty parts with `/` and normalises the result. */
export function join(...parts: string[]): string {
  const s = parts.filter((x) => x.length > 0).join('/');
  return s.length === 0 ? '.' : normalize(s);
}
