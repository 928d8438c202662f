#!/usr/bin/env node
/**
 * Bundles the compiled CLI (out/main/cli.js, from tsc) into one module plus a chunk per
 * command (out/main/cli.js and out/main/chunks/), replacing tsc's entry file. Node then loads
 * a handful of files instead of a few hundred: cold start (spawn to the first answer, which
 * every host that spawns the server waits for) went from ~1.9x to ~1.1x of a bare SDK server.
 * Native and optional packages stay external, and so does pdf.js (loaded by its path into a
 * worker thread, on the first PDF); the desktop worker stays its own compiled file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'rolldown';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'out', 'main');
/** The entries: the CLI, and the Claude Desktop bundle's server (build/bundle-mcpb.mjs), which shares its chunks. */
const ENTRIES = ['cli', 'mcpb-server'];
// pdfjs-dist, @napi-rs/canvas and mammoth run in worker threads (adapter/fs/formats/), loaded from node_modules.
const NATIVE = [
  'pdfjs-dist',
  'mammoth',
  '@napi-rs/canvas',
  'sharp',
  '@nut-tree-fork/nut-js',
  '@nut-tree-fork/node-mac-permissions',
  '@napi-rs/keyring',
  '@jellybrick/dbus-next',
  'electron',
];

export async function bundleCli() {
  // tsc wrote the entries just now; bundle from copies, so the bundle can take their place.
  const sources = Object.fromEntries(ENTRIES.map((name) => [name, path.join(outDir, `${name}.source.js`)]));
  for (const name of ENTRIES) fs.copyFileSync(path.join(outDir, `${name}.js`), sources[name]);
  fs.rmSync(path.join(outDir, 'chunks'), { recursive: true, force: true });
  try {
    await build({
      input: sources,
      platform: 'node',
      logLevel: 'warn',
      external: [/^node:/, ...NATIVE.map((name) => new RegExp(`^${name.replace(/[/.]/g, '\\$&')}(/|$)`))],
      output: { dir: outDir, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    });
  } finally {
    for (const source of Object.values(sources)) fs.rmSync(source, { force: true });
  }
  for (const name of ENTRIES) fs.chmodSync(path.join(outDir, `${name}.js`), 0o755);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await bundleCli();
