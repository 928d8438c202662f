#!/usr/bin/env node
/**
 * `npm start`: builds the tray app and launches it with Electron, downloading the Electron
 * binary once on a desktop (the npm package does not). Where there is no desktop (Linux
 * without a display) or no binary could be had, it says so and runs the same MCP server
 * headless (`chatgpt-mcp serve --http`), so the quick start works on servers too. Arguments
 * after `npm start --` go to whichever runs.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

/** The same lookup as electron's own index.js, minus its download-on-require side effect. */
export function electronBinary(env = process.env) {
  let dir;
  try {
    dir = path.dirname(require.resolve('electron/package.json', { paths: [root] }));
  } catch {
    return null;
  }
  const pathFile = path.join(dir, 'path.txt');
  const relative = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : null;
  const candidate = env.ELECTRON_OVERRIDE_DIST_PATH
    ? path.join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || (process.platform === 'win32' ? 'electron.exe' : 'electron'))
    : relative && path.join(dir, 'dist', relative);
  return candidate && fs.existsSync(candidate) ? candidate : null;
}

export const MISSING_ELECTRON = `The Electron binary is not installed, so the tray app cannot start here.

  Install it (downloads Electron for this OS):   npx install-electron
  Or point at an Electron you already have:      ELECTRON_OVERRIDE_DIST_PATH=/path/to/electron/dist npm start
`;

export const NO_DISPLAY = `There is no graphical display (DISPLAY and WAYLAND_DISPLAY are unset), so the tray app cannot start here.
`;

const HEADLESS = `Starting the same MCP server headless instead (no tray, no settings window; Ctrl+C stops it).
Configure it with the config file ("npx chatgpt-mcp config path" prints where) or CHATGPT_MCP_* variables.

`;

/** Why the tray app cannot run here, or null when it can. */
export function headlessReason(electron, env = process.env, platform = process.platform) {
  if (!electron) return MISSING_ELECTRON;
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return NO_DISPLAY;
  return null;
}

/** The newest modification time of the TypeScript sources the headless build compiles. */
function newestSource(dirs = ['main', 'adapter']) {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(file).mtimeMs);
    }
  };
  for (const dir of dirs) walk(path.join(root, dir));
  return newest;
}

/** Compiles the headless server unless out/ is already newer than every source (rewriting it under a running test would race). */
export function headlessBuildIsCurrent() {
  const cli = path.join(root, 'out', 'main', 'cli.js');
  return fs.existsSync(cli) && fs.statSync(cli).mtimeMs >= newestSource();
}

/** Fetches the Electron binary once (electron's own install.js), where a desktop could show the tray. */
function installElectron() {
  let dir;
  try {
    dir = path.dirname(require.resolve('electron/package.json', { paths: [root] }));
  } catch {
    return null;
  }
  process.stderr.write('Downloading Electron for the tray app (once)...\n');
  const install = spawnSync(process.execPath, [path.join(dir, 'install.js')], { cwd: root, stdio: 'inherit' });
  return install.status === 0 ? electronBinary() : null;
}

function runHeadless(reason) {
  process.stderr.write(`${reason}\n${HEADLESS}`);
  if (!headlessBuildIsCurrent()) {
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) return build.status ?? 1;
  }
  return forward(
    spawn(process.execPath, [path.join(root, 'out', 'main', 'cli.js'), 'serve', '--http', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' }),
  );
}

function forward(child) {
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return null;
}

function main() {
  let electron = electronBinary();
  // On a desktop, get the binary the package does not download at install time (not when the owner points at one).
  if (!electron && !process.env.ELECTRON_OVERRIDE_DIST_PATH && headlessReason('electron') === null) electron = installElectron();
  const reason = headlessReason(electron);
  if (reason) return runHeadless(reason);
  const cli = path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const build = spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) return build.status ?? 1;
  return forward(spawn(electron, ['.', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' }));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const code = main();
  if (code !== null) process.exitCode = code;
}
