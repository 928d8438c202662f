#!/usr/bin/env node
/**
 * `npm start`: builds the tray app and launches it with Electron, downloading the Electron
 * binary on a desktop (the npm package does not). Where there is no desktop (Linux without a
 * display) or no binary could be had, it says so and runs the same MCP server headless
 * (`chatgpt-mcp serve --http`) in this very process, so the quick start works on servers too
 * and a signal to `npm start` stops the server with it. Arguments after `npm start --` go to
 * whichever runs.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

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

export const GET_ELECTRON = `  Download it again:                    node node_modules/electron/install.js
  Through a mirror:                     ELECTRON_MIRROR=https://your.mirror/electron/ npm start
  Use an Electron you already have:     ELECTRON_OVERRIDE_DIST_PATH=/path/to/electron/dist npm start
`;

export const MISSING_ELECTRON = `The Electron binary is not installed, so the tray app cannot start here.
${GET_ELECTRON}`;

export const NO_DISPLAY = `There is no graphical display (DISPLAY and WAYLAND_DISPLAY are unset), so the tray app cannot start here.
`;

const HEADLESS = `Starting the same MCP server headless instead (no tray, no settings window; Ctrl+C stops it).
Configure it with the config file ("node out/main/cli.js config path" prints where) or CHATGPT_MCP_* variables.

`;

/** Why the tray app cannot run here, or null when it can. No display is the first reason: no Electron could help then. */
export function headlessReason(electron, env = process.env, platform = process.platform) {
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return NO_DISPLAY;
  if (!electron) return MISSING_ELECTRON;
  return null;
}

/** Where a failed download is remembered, so a machine without network is not retried at every start. */
const FAILED_DOWNLOAD = path.join(root, 'node_modules', '.cache', 'chatgpt-mcp', 'electron-download-failed');
const RETRY_AFTER_MS = 24 * 3600 * 1000;

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

/**
 * Fetches the Electron binary (electron's own install.js) where a desktop could show the tray.
 * A failure is one readable line, remembered for a day so an offline machine starts at once.
 */
export function installElectron(env = process.env, now = Date.now()) {
  let dir;
  try {
    dir = path.dirname(require.resolve('electron/package.json', { paths: [root] }));
  } catch {
    return { binary: null, message: MISSING_ELECTRON };
  }
  const failedAt = fs.existsSync(FAILED_DOWNLOAD) ? fs.statSync(FAILED_DOWNLOAD).mtimeMs : 0;
  if (now - failedAt < RETRY_AFTER_MS) {
    return {
      binary: null,
      message: `The Electron download failed earlier (${new Date(failedAt).toISOString()}); not trying again until a day has passed.\n${GET_ELECTRON}`,
    };
  }
  process.stderr.write('Downloading Electron for the tray app (about 100 MB)...\n');
  const install = spawnSync(process.execPath, [path.join(dir, 'install.js')], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const binary = install.status === 0 ? electronBinary(env) : null;
  if (binary) {
    fs.rmSync(FAILED_DOWNLOAD, { force: true });
    return { binary, message: null };
  }
  fs.mkdirSync(path.dirname(FAILED_DOWNLOAD), { recursive: true });
  fs.writeFileSync(FAILED_DOWNLOAD, `${new Date(now).toISOString()}\n`);
  return { binary: null, message: `Could not download Electron: ${firstLine(`${install.stderr ?? ''}\n${install.error?.message ?? ''}`)}\n${GET_ELECTRON}` };
}

/** The one line of a failure worth showing (no stack trace): the error message, not the frames. */
export function firstLine(output) {
  const lines = output.split('\n').map((line) => line.trim());
  const message = lines.find(
    (line) => /(Error|error|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|getaddrinfo|status code)/.test(line) && !line.startsWith('at '),
  );
  return message ?? lines.find((line) => line && !line.startsWith('at ')) ?? 'unknown error';
}

/** The headless server in this process: signals to `npm start` reach it directly, so nothing is left running. */
async function runHeadless(reason) {
  process.stderr.write(`${reason}\n${HEADLESS}`);
  if (!headlessBuildIsCurrent()) {
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) return build.status ?? 1;
    await (await import('./bundle-cli.mjs')).bundleCli();
  }
  const cli = path.join(root, 'out', 'main', 'cli.js');
  process.argv = [process.argv[0], cli, 'serve', '--http', ...process.argv.slice(2)];
  stopWhenOrphaned(() => process.kill(process.pid, 'SIGTERM'));
  await import(pathToFileURL(cli).href);
  return null;
}

/** The tray app as a child: signals are passed on, and it is stopped when npm (our parent) goes away. */
function forward(child) {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal));
  stopWhenOrphaned(() => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return null;
}

/**
 * npm runs this script through \`sh -c\`, and a SIGTERM to npm kills that shell without passing
 * the signal on: then this process is re-parented. Noticing that is the only portable way to
 * stop with npm.
 */
function stopWhenOrphaned(stop) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      stop();
    }
  }, 250);
  timer.unref();
}

async function main() {
  const noDisplay = headlessReason('electron');
  if (noDisplay) return runHeadless(noDisplay);
  let electron = electronBinary();
  let reason = headlessReason(electron);
  // On a desktop, get the binary the package does not download at install time (not when the owner points at one).
  if (!electron && !process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const installed = installElectron();
    electron = installed.binary;
    reason = installed.message;
  }
  if (reason) return runHeadless(reason);
  const cli = path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const build = spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) return build.status ?? 1;
  return forward(spawn(electron, ['.', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' }));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const code = await main();
  if (code !== null) process.exitCode = code;
}
