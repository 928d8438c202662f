/**
 * Builds the tray app into out/app/ (beside, never over, the CLI's tsc output in out/main/):
 *   out/app/main/index.js       ESM main process (dependencies stay external, from node_modules)
 *   out/app/main/desktop-worker.js  the nut-js worker, started as a utility process
 *   out/app/preload/preload.cjs CommonJS, because a sandboxed preload cannot be an ES module
 *   out/app/renderer/           the React settings window, with its CSP baked into index.html
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { DEVELOPMENT_CSP, PRODUCTION_CSP } from './main/tray/csp.js';

const root = import.meta.dirname;
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string };

/**
 * main/version.ts finds package.json relative to tsc's out/main/, which is not where the
 * bundle lives, and its module-level `const require` collides with the CommonJS shim
 * electron-vite adds to ESM bundles. The bundle knows its version at build time instead.
 */
function bakeVersion(): Plugin {
  return {
    name: 'bake-version',
    transform(code, id) {
      if (!id.replace(/\\/g, '/').endsWith('/main/version.ts')) return null;
      return code.replace(/export const VERSION = findVersion\(\);/, `export const VERSION = ${JSON.stringify(pkg.version)};`);
    },
  };
}

export default defineConfig(({ command }) => ({
  main: {
    plugins: [bakeVersion()],
    build: {
      outDir: resolve(root, 'out/app/main'),
      // The desktop worker runs in its own (utility) process: a second entry beside index.js.
      lib: { entry: { index: resolve(root, 'main/tray/main.ts'), 'desktop-worker': resolve(root, 'adapter/desktop/desktop-worker.ts') }, formats: ['es'] },
      rolldownOptions: { output: { entryFileNames: '[name].js' } },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/app/preload'),
      // Bundle everything: a sandboxed preload can only load the electron module and a few built-ins.
      externalizeDeps: false,
      lib: { entry: resolve(root, 'main/tray/preload.ts'), formats: ['cjs'], fileName: () => 'preload.cjs' },
      rolldownOptions: { output: { format: 'cjs', entryFileNames: 'preload.cjs' } },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    build: {
      outDir: resolve(root, 'out/app/renderer'),
      minify: true,
      rolldownOptions: { input: resolve(root, 'renderer/index.html') },
    },
    plugins: [
      react(),
      {
        name: 'settings-window-csp',
        transformIndexHtml: {
          order: 'pre' as const,
          handler: (html: string) => html.replace('__CSP__', command === 'serve' ? DEVELOPMENT_CSP : PRODUCTION_CSP),
        },
      },
    ],
  },
}));
