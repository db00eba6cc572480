/** Reading PTO-AS files (node only; everything else in src/pto/asm runs in a browser too). */
import { readFileSync } from 'node:fs';
import { badInput } from '../../errors.ts';
import type { Module } from './ast.ts';
import { type ParseOptions, parsePtoAs } from './parser.ts';
import { type Profile, verifyModule } from './verify.ts';

/** Reads, parses and verifies a PTO-AS file. */
export function loadProgram(file: string, opts: ParseOptions & { profile?: Profile } = {}): Module {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw badInput(`cannot read ${file}: ${(e as Error).message}`, { location: { file } });
  }
  const m = parsePtoAs(text, { ...opts, file });
  verifyModule(m, { file, profile: opts.profile });
  return m;
}
