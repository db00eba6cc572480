#!/usr/bin/env node
// Entry point installed as `axsim`: runs the compiled CLI in dist/, or the TypeScript sources through
// tsx in a checkout whose build is missing or stale (bin/which-build.js), with the V8 flags the CLI
// gives its own process (bin/v8-flags.js).
import { applyCliV8Flags } from './v8-flags.js';
import { useSource } from './which-build.js';

applyCliV8Flags();

if (useSource()) {
  const { register } = await import('tsx/esm/api');
  register();
  await (await import('../src/cli/main.ts')).main(process.argv);
} else {
  await (await import('../dist/cli/main.js')).main(process.argv);
}
