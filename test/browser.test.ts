import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { build, type Plugin } from 'esbuild';

// Everything but `axsim/io` (and the CLI, the conformance harness, file readers) must run in a
// browser and a Web Worker: no node: modules, no Buffer, process, require or __dirname. Each browser
// entry point of package.json is bundled from its sources for the browser (esbuild, as a web app
// would), the bundle is checked for Node.js globals, and then run in a bare JavaScript context
// (node:vm: the language's own globals, no Node.js or DOM ones) where a small program uses it.
// src/host.ts alone reaches the file system, feature-detected through globalThis.process (absent here).

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  exports: Record<string, string | Record<string, string>>;
};

/** Node.js-only globals; a reference to one in a bundle becomes this marker (esbuild `define`). */
const NODE_GLOBALS = ['process', 'Buffer', 'require', '__dirname', '__filename', 'global', 'setImmediate'];
const MARK = '__AXSIM_NODE_GLOBAL_';

const rejectNode: Plugin = {
  name: 'reject-node-builtins',
  setup(b) {
    b.onResolve(
      { filter: /^node:|^(fs|path|url|os|zlib|stream|crypto|child_process|util|assert)(\/.*)?$/ },
      (a) => ({
        errors: [{ text: `Node.js module '${a.path}' imported by ${a.importer}` }],
      }),
    );
  },
};

interface Bundled {
  code: string;
  problems: string[];
}

async function bundle(entry: { path: string } | { contents: string }): Promise<Bundled> {
  try {
    const r = await build({
      ...('path' in entry
        ? { entryPoints: [entry.path] }
        : { stdin: { contents: entry.contents, loader: 'ts', resolveDir: root } }),
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'iife',
      globalName: 'lib',
      target: 'es2022',
      logLevel: 'silent',
      define: Object.fromEntries(NODE_GLOBALS.map((g) => [g, `${MARK}${g}`])),
      plugins: [rejectNode],
    });
    const code = r.outputFiles[0]!.text;
    const used = NODE_GLOBALS.filter((g) => code.includes(`${MARK}${g}`));
    return { code, problems: used.map((g) => `uses the Node.js global '${g}'`) };
  } catch (e) {
    const errors = (e as { errors?: { text: string }[] }).errors;
    if (!errors) throw e;
    return { code: '', problems: errors.map((x) => x.text) };
  }
}

/** Runs a bundle in a fresh context with only the language globals (plus console); returns its exports. */
function runBare(code: string, use: string): unknown {
  const ctx = createContext({ console });
  runInContext(code, ctx);
  return runInContext(`(() => { ${use} })()`, ctx);
}

// What each entry point's smoke program does in the bare context; it returns a value the test checks.
const USES: Record<string, { use: string; expect: unknown }> = {
  '.': { use: `return new lib.AxsimError('BadInput', 'x').format();`, expect: 'BadInput: x' },
  './tensix': {
    use: `const m = new lib.TensixMachine('wormhole'); m.writeDstRows(0, [0xbf800000], 'fp32');
          m.run(m.load('TTI_SFPLOAD(0, 3, 3, 0); TTI_SFPABS(0, 0, 0, 1); TTI_SFPSTORE(0, 3, 3, 0);'));
          return m.readDstRows(0, 1, 'fp32')[0];`,
    expect: 0x3f800000, // |-1.0|
  },
  './tensix/asm': { use: `return lib.assemble('SFPNOP', 'wormhole').words.length;`, expect: 1 },
  './amx': {
    use: `const m = new lib.AmxMachine('m1'); m.run('set'); return m.state.enabled;`,
    expect: true,
  },
  './pto': {
    use: `const m = new lib.PtoMachine('cpu');
          m.write('a', { dtype: 'f4', shape: [16, 16], data: new Float32Array(256).fill(1.5) });
          m.write('c', { dtype: 'f4', shape: [16, 16], data: new Float32Array(256) });
          m.run(${JSON.stringify(readFileSync(`${root}examples/pto/add-scalar.pto`, 'utf8'))}, { scalars: { s: 2 } });
          return m.read('c').data[255];`,
    expect: 3.5,
  },
  './numeric': { use: `return lib.f32BitsToBf16(0x3f800000);`, expect: 0x3f80 },
};

test('the browser entry points are the exports other than axsim/io and package.json', () => {
  const entries = Object.keys(pkg.exports).filter((k) => k !== './io' && k !== './package.json');
  assert.deepEqual(entries.sort(), Object.keys(USES).sort());
});

for (const [name, { use, expect }] of Object.entries(USES)) {
  const spec = pkg.exports[name] as Record<string, string>;
  test(`axsim${name.slice(1)} bundles for the browser without Node.js and runs in a bare context`, async () => {
    const b = await bundle({ path: `${root}${spec['axsim-source']!.slice(2)}` });
    assert.deepEqual(b.problems, []);
    assert.equal(runBare(b.code, use), expect);
  });
}

test('the check catches a node: import and a Node.js global', async () => {
  const viaImport = await bundle({
    contents: `import { readFileSync } from 'node:fs'; export const f = readFileSync;`,
  });
  assert.match(viaImport.problems.join('\n'), /Node\.js module 'node:fs'/);
  const viaGlobal = await bundle({
    contents: `export const env = process.env.HOME; export const b = Buffer.from('x');`,
  });
  assert.deepEqual(viaGlobal.problems, [
    `uses the Node.js global 'process'`,
    `uses the Node.js global 'Buffer'`,
  ]);
  // and one that reaches Node.js through a module of axsim's own
  const viaAxsim = await bundle({ contents: `export * from './src/io/index.ts';` });
  assert.match(viaAxsim.problems.join('\n'), /node:fs/);
});
