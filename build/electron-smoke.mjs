#!/usr/bin/env node
/**
 * The tray app end to end, as a new user starts it: launch it with a fresh profile, wait for
 * the server's /healthz, open the settings window (the way a second launch does), take a
 * screenshot, call system info through a real MCP client with the token the app wrote on its
 * first start, quit, and check that no process it started is left.
 *
 *   node build/electron-smoke.mjs --electron [--artifacts DIR]
 *     the real Electron binary through Playwright's Electron support (CI: .github/workflows/electron-smoke.yml;
 *     on Linux under xvfb-run). Needs `npm run build && npm run build:app` and the Electron binary.
 *   node build/electron-smoke.mjs --stand-in REGISTER.mjs [--main FILE] [--artifacts DIR]
 *     the same steps with the built main bundle under plain Node and `electron` resolved to a
 *     stand-in (test/tray/fixtures/fake-electron/register.mjs); no pixels, so no screenshot.
 *
 * Other options: --timeout MS (each wait, default 60000), --app-env NAME=VALUE (repeatable).
 * HOME, USERPROFILE, APPDATA, LOCALAPPDATA and XDG_* point into a temp folder, so nothing
 * touches the real profile; the script checks that too. The last line of stdout is a JSON
 * summary; the exit code is 0 only when every step passed.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const SYSTEM_INFO = ['system_info', 'system.info'];

export function parseArgs(argv) {
  const options = { mode: null, register: null, main: path.join(root, 'out', 'app', 'main', 'index.js'), artifacts: null, timeoutMs: 60_000, appEnv: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    if (arg === '--electron') options.mode = 'electron';
    else if (arg === '--stand-in') {
      options.mode = 'stand-in';
      options.register = path.resolve(value());
    } else if (arg === '--main') options.main = path.resolve(value());
    else if (arg === '--artifacts') options.artifacts = path.resolve(value());
    else if (arg === '--timeout') {
      options.timeoutMs = Number(value());
      if (!Number.isInteger(options.timeoutMs) || options.timeoutMs <= 0) throw new UsageError('--timeout takes a positive number of milliseconds');
    } else if (arg === '--app-env') {
      const [name, ...rest] = value().split('=');
      if (!name || rest.length === 0) throw new UsageError('--app-env takes NAME=VALUE');
      options.appEnv[name] = rest.join('=');
    } else throw new UsageError(`unknown option ${arg}`);
  }
  if (!options.mode) throw new UsageError('say --electron or --stand-in REGISTER.mjs');
  options.artifacts ??= path.join(root, 'test-artifacts', 'electron-smoke');
  return options;
}

class UsageError extends Error {}

const log = (message) => process.stderr.write(`smoke: ${message}\n`);

/** A fresh profile: every variable an OS uses to find the user's folders points into it. */
export function sandboxEnv(base, dir) {
  const home = path.join(dir, 'home');
  const env = Object.fromEntries(Object.entries(base).filter(([name]) => !/^(CHATGPT_MCP_|ELECTRON_RUN_AS_NODE$)/.test(name)));
  Object.assign(env, {
    HOME: home,
    USERPROFILE: home,
    APPDATA: path.join(home, 'AppData', 'Roaming'),
    LOCALAPPDATA: path.join(home, 'AppData', 'Local'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
  });
  for (const name of ['APPDATA', 'LOCALAPPDATA', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME'])
    fs.mkdirSync(env[name], { recursive: true });
  return { env, home };
}

/** This app's folders in the real profile (before the sandbox): none may appear during the run. */
function realProfileFolders(base, names) {
  const home = os.homedir();
  const bases = [
    base.XDG_CONFIG_HOME || path.join(home, '.config'),
    path.join(home, '.config'),
    path.join(home, 'Library', 'Application Support'),
    base.APPDATA || path.join(home, 'AppData', 'Roaming'),
    base.LOCALAPPDATA || path.join(home, 'AppData', 'Local'),
  ];
  return [...new Set(bases.flatMap((b) => names.map((n) => path.join(b, n))))];
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(what, timeoutMs, probe) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const result = await probe();
      if (result) return result;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} within ${timeoutMs} ms (last: ${last})`);
}

async function healthy(origin) {
  const response = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2000) });
  if (response.status !== 200) throw new Error(`/healthz answered ${response.status}`);
  const body = await response.json();
  return body.status === 'ok' ? body : null;
}

/** The token the app uses: the config's server.token, else the token file the app created. */
function readToken(configPath, appDir) {
  const config = JSON.parse(fs.readFileSync(configPath, 'utf8').replace(/^\uFEFF/, ''));
  if (typeof config.server?.token === 'string' && config.server.token) return { token: config.server.token, source: 'config' };
  const file = path.join(appDir, 'token');
  return { token: fs.readFileSync(file, 'utf8').trim(), source: 'token file' };
}

/** A real MCP client: the tool list decides whether system info is system_info or system.info. */
export async function callSystemInfo(url, token) {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const unauthorized = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{}',
  });
  if (unauthorized.status !== 401) throw new Error(`/mcp without the token answered ${unauthorized.status}, not 401`);
  const client = new Client({ name: 'electron-smoke', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  try {
    const { tools } = await client.listTools();
    const name = SYSTEM_INFO.find((candidate) => tools.some((t) => t.name === candidate));
    if (!name) throw new Error(`no system info tool among ${tools.map((t) => t.name).join(', ')}`);
    const result = await client.callTool({ name, arguments: {} });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    const info = result.structuredContent ?? {};
    if (info.hostname !== os.hostname()) throw new Error(`${name} reported hostname ${info.hostname}, this machine is ${os.hostname()}`);
    return { tool: name, toolCount: tools.length, platform: info.platform };
  } finally {
    await client.close();
  }
}

/** Every process descending from `pid` (itself included), by one listing. */
export function descendants(processes, pid) {
  const children = new Map();
  for (const p of processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const found = [];
  const queue = processes.filter((p) => p.pid === pid);
  while (queue.length) {
    const next = queue.shift();
    if (found.some((p) => p.pid === next.pid)) continue;
    found.push(next);
    queue.push(...(children.get(next.pid) ?? []));
  }
  return found.map((p) => ({ pid: p.pid, command: p.command }));
}

/** The recorded processes still running (same pid and name), after waiting for them to go. */
async function leftovers(listProcesses, tree, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await listProcesses();
    const left = tree.filter((t) => now.some((p) => p.pid === t.pid && p.command === t.command));
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function killAll(tree) {
  for (const { pid } of tree) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** The real Electron binary, through playwright-core's Electron support. */
async function electronDriver({ env, artifacts, timeoutMs, userDataDir }) {
  const { _electron } = await import('playwright-core');
  const { electronBinary } = await import(pathToFileURL(path.join(root, 'build', 'start-app.mjs')).href);
  const executablePath = electronBinary(env);
  if (!executablePath) throw new Error('the Electron binary is not installed (node node_modules/electron/install.js)');
  let app = null;
  let window = null;
  const output = fs.createWriteStream(path.join(artifacts, 'app-output.log'));
  return {
    name: 'electron',
    async launch() {
      // chromiumSandbox: the app's pages run sandboxed as they do for its users (Playwright turns that off by default).
      app = await _electron.launch({
        executablePath,
        args: [`--user-data-dir=${userDataDir}`, root],
        cwd: root,
        env,
        timeout: timeoutMs,
        chromiumSandbox: true,
      });
      app.process().stdout?.pipe(output);
      app.process().stderr?.pipe(output);
      return app.process().pid;
    },
    async openSettings() {
      // What a second launch of the app does (app-main: 'second-instance' opens the settings window).
      const opened = app.waitForEvent('window', { timeout: timeoutMs });
      await app.evaluate(({ app: electronApp }) => electronApp.emit('second-instance'));
      window = await opened;
      await window.waitForLoadState('domcontentloaded');
      // The page loaded its settings through the real preload and IPC: the status badge says so.
      await window.getByText(/^Running · \d+ tools?$/).waitFor({ timeout: timeoutMs });
      return { page: window.url(), status: 'running', title: await window.title() };
    },
    async screenshot(file) {
      await window.screenshot({ path: file });
      return file;
    },
    async quit() {
      // The tray's Quit calls app.quit(); the app stops its server and tunnel, then exits.
      const exited = new Promise((resolve) => app.process().once('exit', (code, signal) => resolve({ code, signal })));
      await app.evaluate(({ app: electronApp }) => electronApp.quit()).catch(() => undefined);
      return withTimeout(exited, timeoutMs, 'the app did not exit after app.quit()');
    },
    kill: () => killAndWait(app?.process()),
  };
}

/** The built main bundle under Node with `electron` resolved to the stand-in. */
function standInDriver({ env, register, main, timeoutMs }) {
  let child = null;
  const reports = [];
  const waiters = new Set();
  /** The first report from index `since` on that passes `test`, already seen or still to come. */
  const next = (test, since = 0) => {
    const seen = reports.slice(since).find(test);
    if (seen) return Promise.resolve(seen);
    const waiter = { test };
    const found = new Promise((resolve) => (waiter.resolve = resolve));
    waiters.add(waiter);
    return withTimeout(found, timeoutMs, 'the stand-in did not report').finally(() => waiters.delete(waiter));
  };
  let invokeId = 1;
  return {
    name: 'stand-in',
    async launch() {
      if (!fs.existsSync(main)) throw new Error(`${main} is missing (npm run build:app)`);
      child = fork(main, [], {
        execArgv: ['--import', pathToFileURL(register).href],
        env: { ...env, FAKE_ELECTRON_APP_PATH: root },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      });
      child.stdout.resume();
      child.stderr.on('data', (chunk) => process.stderr.write(chunk));
      child.on('message', (message) => {
        reports.push(message);
        for (const waiter of waiters) if (waiter.test(message)) waiter.resolve(message);
      });
      return child.pid;
    },
    async openSettings() {
      const mark = reports.length;
      // What a second launch of the app does (app-main: 'second-instance' opens the settings window).
      child.send({ type: 'app-event', name: 'second-instance' });
      await next((r) => r.type === 'window', mark);
      const loaded = await next((r) => r.type === 'load', mark);
      // The page's first call (the real IPC handlers, their sender check); again while the app says "starting" (/healthz answers first).
      let answer;
      for (const deadline = Date.now() + timeoutMs; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
        const id = invokeId++;
        child.send({ type: 'invoke', id, channel: 'settings:load', args: [] });
        answer = await next((r) => r.type === 'invoke-result' && r.id === id, mark);
        if (answer.result?.status?.state !== 'starting' || Date.now() > deadline) break;
      }
      if (!answer.ok || answer.result?.status?.state !== 'running') throw new Error(`settings:load answered ${JSON.stringify(answer)}`);
      return { page: loaded.file ? pathToFileURL(loaded.file).href : loaded.url, status: answer.result.status.state, configPath: answer.result.configPath };
    },
    screenshot: async () => null,
    async quit() {
      const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
      child.send({ type: 'click', label: 'Quit' });
      return withTimeout(exited, timeoutMs, 'the app did not exit after Quit');
    },
    kill: () => killAndWait(child),
  };
}

/** Kills a child of this script and waits until it is gone (reaped, not left a zombie). */
function killAndWait(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  return withTimeout(gone, 10_000, 'the app did not die of SIGKILL').catch(() => undefined);
}

function withTimeout(promise, ms, message) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${message} within ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

export async function smoke(options, base = process.env) {
  const { appConfigDir, defaultConfigPath, APP_DIR_NAME, PRODUCT_NAME } = await import(
    pathToFileURL(path.join(root, 'out', 'main', 'config', 'app-dir.js')).href
  );
  const { listProcesses } = await import(pathToFileURL(path.join(root, 'out', 'adapter', 'process', 'list.js')).href);
  fs.mkdirSync(options.artifacts, { recursive: true });
  const profile = realProfileFolders(base, [APP_DIR_NAME, PRODUCT_NAME, 'chatgpt-computer-mcp', 'Electron']);
  const existedBefore = new Set(profile.filter((dir) => fs.existsSync(dir)));
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'electron-smoke-'));
  const { env, home } = sandboxEnv(base, temp);
  const port = await freePort();
  Object.assign(env, { CHATGPT_MCP_PORT: String(port) }, options.appEnv);
  const place = { platform: process.platform, env, home };
  const configPath = defaultConfigPath(process.platform, env, home);
  const origin = `http://127.0.0.1:${port}`;
  const summary = { ok: false, mode: options.mode, url: `${origin}/mcp`, configPath, steps: [] };
  const step = (name, detail = {}) => (summary.steps.push({ name, ...detail }), log(`${name} ${JSON.stringify(detail)}`));
  let driver = null;
  let rootPid = null;
  let tree = [];
  try {
    driver =
      options.mode === 'electron'
        ? await electronDriver({ env, artifacts: options.artifacts, timeoutMs: options.timeoutMs, userDataDir: path.join(temp, 'electron-user-data') })
        : standInDriver({ env, register: options.register, main: options.main, timeoutMs: options.timeoutMs });
    rootPid = await driver.launch();
    step('launched', { pid: rootPid });
    const health = await waitFor(`${origin}/healthz did not answer`, options.timeoutMs, () => healthy(origin));
    step('healthz', { version: health.version });
    // First start: the app wrote its config, with a fresh token, into the sandboxed profile.
    const { token, source } = readToken(configPath, appConfigDir(place));
    step('token', { source, file: source === 'config' ? configPath : path.join(appConfigDir(place), 'token') });
    const settings = await driver.openSettings();
    step('settings-window', settings);
    const shot = await driver.screenshot(path.join(options.artifacts, `settings-${process.platform}.png`));
    step('screenshot', { file: shot ?? 'none (the stand-in has no pixels)' });
    const called = await callSystemInfo(summary.url, token);
    step('mcp', called);
    Object.assign(summary, called);
    tree = descendants(await listProcesses(), rootPid);
    step('processes', { count: tree.length, names: [...new Set(tree.map((p) => p.command))] });
    const exit = await driver.quit();
    step('quit', exit);
    if (exit.code !== 0) throw new Error(`the app exited with ${exit.signal ?? `code ${exit.code}`}`);
    const left = await leftovers(listProcesses, tree, 15_000);
    if (left.length) throw new Error(`processes left after quitting: ${left.map((p) => `${p.command} (${p.pid})`).join(', ')}`);
    const stillServing = await healthy(origin).catch(() => null);
    if (stillServing) throw new Error(`${origin}/healthz still answers after quitting`);
    step('nothing-left', { checked: tree.length });
    const touched = profile.filter((dir) => !existedBefore.has(dir) && fs.existsSync(dir));
    if (touched.length) throw new Error(`the run created folders in the real profile: ${touched.join(', ')}`);
    summary.ok = true;
  } catch (error) {
    summary.error = error instanceof Error ? error.message : String(error);
    log(`FAILED: ${summary.error}`);
    // Whatever the app started goes with it; what would not go is reported.
    if (tree.length === 0 && rootPid !== null) tree = descendants(await listProcesses().catch(() => []), rootPid);
    await driver?.kill();
    killAll(tree);
    summary.leftover = await leftovers(listProcesses, tree, 10_000).catch(() => []);
  } finally {
    // Windows keeps files of a just-exited process locked for a moment.
    fs.rmSync(temp, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
  return summary;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`electron-smoke: ${error.message}\n`);
    process.exit(64);
  }
  const summary = await smoke(options);
  // Exit explicitly: a driver's connection (Playwright's) must not keep a finished run alive.
  process.stdout.write(`${JSON.stringify(summary)}\n`, () => process.exit(summary.ok ? 0 : 1));
}
