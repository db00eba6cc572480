// The run in the URL: program, ISA, example and options, deflated and base64url-encoded in the
// hash (`#r=...`), so a link reproduces the run. CompressionStream is in every current browser.
import type { Isa } from './protocol.ts';

export interface Shared {
  isa: Isa;
  /** The example the program started from (a path under examples/), if any. */
  example?: string;
  source: string;
  options: Record<string, string>;
}

async function pipe(bytes: Uint8Array, t: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(t);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function toBase64Url(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): Uint8Array {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

export async function encodeShared(s: Shared): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(s));
  return `r=${toBase64Url(await pipe(json, new CompressionStream('deflate-raw')))}`;
}

/** The run in a hash (without '#'), or undefined when there is none or it is damaged. */
export async function decodeShared(hash: string): Promise<Shared | undefined> {
  const m = /^#?r=([A-Za-z0-9_-]+)$/.exec(hash);
  if (!m) return undefined;
  try {
    const json = new TextDecoder().decode(
      await pipe(fromBase64Url(m[1]!), new DecompressionStream('deflate-raw')),
    );
    const v = JSON.parse(json) as Shared;
    if (!['tensix', 'amx', 'pto'].includes(v.isa) || typeof v.source !== 'string') return undefined;
    return { isa: v.isa, example: v.example, source: v.source, options: { ...(v.options ?? {}) } };
  } catch {
    return undefined;
  }
}
