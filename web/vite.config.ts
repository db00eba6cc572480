import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The playground (docs/playground.md): a static site built from web/ into dist-web/ with relative
// URLs, so it works from any static host and offline. The simulator is the library itself
// (../src), bundled into a Web Worker.
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: './',
  publicDir: false,
  assetsInclude: ['**/*.npy'],
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  resolve: {
    // src/io/npy.ts (parseNpy, used for the bundled example inputs) imports node:fs for its file
    // readers, which the browser never calls; they get a stub that throws if ever reached.
    alias: { 'node:fs': here('src/node-fs-stub.ts') },
  },
  worker: { format: 'es' },
  build: {
    outDir: here('../dist-web'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
  },
  server: { fs: { allow: [here('..')] } },
});
