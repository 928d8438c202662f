/**
 * Builds the tray app (main, preload, renderer) with the project's electron-vite config into
 * a fresh folder inside the project (so the main bundle resolves its external dependencies
 * from node_modules, as it does in the real app), and removes it afterwards.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

export const REPO = path.resolve(import.meta.dirname, '..', '..', '..');

export interface BuiltApp {
  dir: string;
  mainEntry: string;
  preload: string;
  rendererDir: string;
  cleanup(): void;
}

export async function buildApp(): Promise<BuiltApp> {
  const parent = path.join(REPO, 'out');
  fs.mkdirSync(parent, { recursive: true });
  const dir = fs.mkdtempSync(path.join(parent, '.test-app-'));
  const cli = path.join(REPO, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  await promisify(execFile)(process.execPath, [cli, 'build', '--outDir', dir, '--logLevel', 'warn'], {
    cwd: REPO,
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return {
    dir,
    mainEntry: path.join(dir, 'main', 'index.js'),
    preload: path.join(dir, 'preload', 'preload.cjs'),
    rendererDir: path.join(dir, 'renderer'),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
