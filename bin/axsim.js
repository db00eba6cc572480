#!/usr/bin/env node
// Entry point installed as `axsim`: registers tsx so the TypeScript sources run as they are.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
