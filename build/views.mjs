#!/usr/bin/env node
/**
 * Builds the MCP Apps views (renderer/views/<name>/) into one self-contained HTML file each,
 * out/main/views/<name>.html, which the server serves as a `ui://` resource: the view's code
 * bundled by vite and inlined, no remote asset, and a CSP that allows only that script and
 * style (by hash), images from data: URLs and nothing else (no fetch, no frames, no forms).
 * `__CONFIG__` stays for the server to fill (the tool names it calls, as the config exposes them).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
const source = path.join(root, 'renderer', 'views');
const outDir = path.join(root, 'out', 'main', 'views');
export const VIEWS = ['screenshot', 'changes', 'process', 'activity'];

const hash = (text) => `'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`;

async function bundle(entry) {
  const output = await build({
    configFile: false,
    logLevel: 'warn',
    build: { write: false, minify: true, lib: { entry, formats: ['iife'], name: 'view', fileName: () => 'view.js' } },
  });
  const chunk = [output].flat()[0].output.find((file) => file.type === 'chunk');
  // Inline, so `</script>` inside a string must not close the tag.
  return chunk.code.replace(/<\/script/gi, '<\\/script');
}

export async function buildViews() {
  fs.mkdirSync(outDir, { recursive: true });
  const sizes = {};
  const base = fs.readFileSync(path.join(source, 'shared', 'base.css'), 'utf8');
  for (const name of VIEWS) {
    const code = await bundle(path.join(source, name, 'main.ts'));
    const page = fs.readFileSync(path.join(source, name, 'index.html'), 'utf8');
    // Every view starts from the shared base (colours, fonts, the text answer, hidden), then its own rules.
    const style = `\n${base}${/<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? ''}`;
    const csp = ["default-src 'none'", `script-src ${hash(code)}`, `style-src ${hash(style)}`, 'img-src data:', "base-uri 'none'", "form-action 'none'"].join(
      '; ',
    );
    const html = page
      .replace(/<style>[\s\S]*?<\/style>/, () => `<style>${style}</style>`)
      .replace('__CSP__', csp)
      .replace(/<script type="module" src="\.\/main\.ts"><\/script>/, () => `<script>${code}</script>`);
    if (html.includes('main.ts')) throw new Error(`renderer/views/${name}/index.html: the module script tag was not replaced`);
    fs.writeFileSync(path.join(outDir, `${name}.html`), html);
    sizes[name] = html.length;
  }
  return sizes;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const sizes = await buildViews();
  for (const [name, size] of Object.entries(sizes)) process.stdout.write(`view ${name}: ${(size / 1024).toFixed(1)} KiB\n`);
}
