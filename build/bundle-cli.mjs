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
const entry = path.join(outDir, 'cli.js');
const NATIVE = ['pdfjs-dist', 'sharp', '@nut-tree-fork/nut-js', '@nut-tree-fork/node-mac-permissions', '@napi-rs/keyring', '@jellybrick/dbus-next', 'electron'];

export async function bundleCli() {
  // tsc wrote the entry just now; bundle from a copy, so the bundle can take its place.
  const source = path.join(outDir, 'cli.source.js');
  fs.copyFileSync(entry, source);
  fs.rmSync(path.join(outDir, 'chunks'), { recursive: true, force: true });
  try {
    await build({
      input: { cli: source },
      platform: 'node',
      logLevel: 'warn',
      external: [/^node:/, ...NATIVE.map((name) => new RegExp(`^${name.replace(/[/.]/g, '\\$&')}(/|$)`))],
      output: { dir: outDir, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    });
  } finally {
    fs.rmSync(source, { force: true });
  }
  fs.chmodSync(entry, 0o755);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await bundleCli();
