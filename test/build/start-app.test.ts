/**
 * `npm start` as a person runs it, as real process trees: npm, its shell, the launcher and the
 * server it starts. Headless here (no Electron binary can be had on this machine).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/servers.js';
import { processesWith } from '../helpers/proc.js';

const LAUNCHER = path.join(REPO_ROOT, 'build', 'start-app.mjs');
const MARKER = path.join(REPO_ROOT, 'node_modules', '.cache', 'chatgpt-mcp', 'electron-download-failed');

let home: string | null = null;
let running: ChildProcess | null = null;
afterEach(async () => {
  if (running && running.exitCode === null && running.signalCode === null) {
    running.kill('SIGKILL');
    await new Promise((resolve) => running!.once('close', resolve));
  }
  running = null;
  if (home) fs.rmSync(home, { recursive: true, force: true });
  home = null;
  fs.rmSync(MARKER, { force: true });
});

function env(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'start-app-'));
  const base: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache') };
  for (const key of Object.keys(base)) if (key.startsWith('CHATGPT_MCP_') || key.startsWith('npm_')) delete base[key];
  return { ...base, CHATGPT_MCP_LOG_LEVEL: 'info', ...extra };
}

/** Starts `command`, resolves with the server's URL and everything on stderr so far. */
function start(command: string, args: string[], environment: NodeJS.ProcessEnv): Promise<{ url: string; stderr: () => string; child: ChildProcess }> {
  const child = spawn(command, args, { cwd: REPO_ROOT, env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
  running = child;
  let stderr = '';
  const collect = (chunk: Buffer) => (stderr += chunk);
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no server: ${stderr}`)), 90_000);
    child.stderr!.on('data', () => {
      const match = /"msg":"listening","url":"([^"]+)"/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, stderr: () => stderr, child });
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
}

async function serving(url: string): Promise<boolean> {
  return fetch(url.replace('/mcp', '/healthz'), { signal: AbortSignal.timeout(1000) }).then(
    (r) => r.ok,
    () => false,
  );
}

/** Processes (other than `exclude`) whose command line contains `needle`: what a signal may have left behind. */
function survivors(needle: string): string[] {
  return processesWith(needle).map((p) => p.commandLine);
}

async function until(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) if (await check()) return true;
  return false;
}

describe('npm start, headless', () => {
  it('with no display says so (not that Electron is missing), and serves MCP headless', async () => {
    const server = await start(process.execPath, [LAUNCHER, '--port', '0'], env({ DISPLAY: undefined, WAYLAND_DISPLAY: undefined }));
    expect(server.stderr()).toContain('There is no graphical display');
    expect(server.stderr()).not.toMatch(/Electron binary is not installed|npx/);
    expect(server.stderr()).toContain('node out/main/cli.js config path');
    expect(await serving(server.url)).toBe(true);
  }, 120_000);

  it.runIf(process.platform === 'linux').each(['SIGTERM', 'SIGINT'] as const)(
    'kill -%s of the npm start process stops the server: nothing is left running or listening',
    async (signal) => {
      const tag = `--log-level=info`;
      const server = await start('npm', ['start', '--', '--port', '0', tag], env({ DISPLAY: undefined, WAYLAND_DISPLAY: undefined }));
      expect(await serving(server.url)).toBe(true);
      server.child.kill(signal);
      expect(await until(async () => !(await serving(server.url)))).toBe(true);
      expect(await until(() => survivors(`start-app.mjs --port 0 ${tag}`).length === 0)).toBe(true);
    },
    120_000,
  );

  it('with a display but no way to download Electron: one readable line, the real ways to get it, then headless; not retried at every start', async () => {
    const offline = env({ DISPLAY: ':99', ELECTRON_MIRROR: 'http://127.0.0.1:9/', ELECTRON_OVERRIDE_DIST_PATH: undefined });
    const { electronBinary } = (await import(pathToFileURL(LAUNCHER).href)) as { electronBinary: (e: NodeJS.ProcessEnv) => string | null };
    if (electronBinary(offline)) return; // a machine that has the binary has nothing to download
    const first = await start(process.execPath, [LAUNCHER, '--port', '0'], offline);
    expect(first.stderr()).toMatch(/Could not download Electron: .*(ECONNREFUSED|connect|failed|error)/i);
    expect(first.stderr()).toContain('ELECTRON_MIRROR=');
    expect(first.stderr()).toContain('ELECTRON_OVERRIDE_DIST_PATH=');
    expect(first.stderr()).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/); // no stack trace
    expect(first.stderr()).not.toContain('(once)');
    first.child.kill('SIGTERM');
    await new Promise((resolve) => first.child.once('close', resolve));

    const second = await start(process.execPath, [LAUNCHER, '--port', '0'], offline);
    expect(second.stderr()).toMatch(/download failed earlier .*not trying again/);
    expect(second.stderr()).not.toContain('Downloading Electron');
  }, 180_000);
});

describe('headlessReason', () => {
  it('puts a missing display first, then a missing binary', async () => {
    const { headlessReason, NO_DISPLAY, MISSING_ELECTRON } = (await import(pathToFileURL(LAUNCHER).href)) as {
      headlessReason: (electron: string | null, env: Record<string, string>, platform: string) => string | null;
      NO_DISPLAY: string;
      MISSING_ELECTRON: string;
    };
    expect(headlessReason(null, {}, 'linux')).toBe(NO_DISPLAY);
    expect(headlessReason('/opt/electron', {}, 'linux')).toBe(NO_DISPLAY);
    expect(headlessReason('/opt/electron', { DISPLAY: ':0' }, 'linux')).toBeNull();
    expect(headlessReason('/opt/electron', {}, 'darwin')).toBeNull();
    expect(headlessReason(null, { DISPLAY: ':0' }, 'linux')).toBe(MISSING_ELECTRON);
    expect(MISSING_ELECTRON).not.toContain('npx');
  });
});
