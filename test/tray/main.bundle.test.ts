/**
 * The built main bundle (out/app/main/index.js from electron-vite) booted under plain Node,
 * with `electron` resolved to a stand-in (fixtures/fake-electron) that reports the tray and
 * windows over the child-process channel and lets the test click menu items and send IPC as
 * the settings window would. A real MCP client talks to the server the bundle starts.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testConnection } from '../../main/tray/connection-test.js';
import { configSchema } from '../../main/config/schema.js';
import { AppProcess, REGISTER } from './helpers/app-process.js';
import { buildApp, REPO, type BuiltApp } from './helpers/build-app.js';
import { authorizeInBrowser, MemoryOAuthProvider } from '../helpers/oauth.js';

const TOKEN = 'bundle-test-token-0123456789abcdef';

type MenuItem = { type: string; label?: string; enabled?: boolean; checked?: boolean };

/** The app with the tray menu's views this file reads. */
class BundleProcess extends AppProcess {
  menu(since = 0, first?: RegExp): Promise<MenuItem[]> {
    return this.next((r) => r.type === 'menu' && (!first || first.test(String((r.items as MenuItem[])[0]?.label))), since).then((r) => r.items as MenuItem[]);
  }

  async runningUrl(since = 0): Promise<string> {
    const items = await this.menu(since, /^Running at /);
    return String(items[0]!.label).replace('Running at ', '');
  }
}

function launch(app: BuiltApp, configFile: string): BundleProcess {
  const child = fork(app.mainEntry, [], {
    execArgv: ['--import', REGISTER],
    // HOME beside the config: the app's token file lands there, never in the real home.
    env: {
      ...process.env,
      HOME: homeOf(configFile),
      XDG_CONFIG_HOME: path.join(homeOf(configFile), '.config'),
      CHATGPT_MCP_CONFIG: configFile,
      FAKE_ELECTRON_APP_PATH: REPO,
      CHATGPT_MCP_TOKEN: '',
      CHATGPT_MCP_PORT: '',
    },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  return new BundleProcess(child);
}

const homeOf = (configFile: string) => path.join(path.dirname(configFile), 'home');
/** The token file the app creates when its config names no token (the headless server's too). */
const tokenFileOf = (configFile: string) => path.join(homeOf(configFile), '.config', 'chatgpt-mcp', 'token');

/** The tools a client with this token is listed. */
async function toolNames(url: string, token: string): Promise<string[]> {
  const client = await modernClient(url, token);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

async function modernClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'bundle-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describe('the built tray app under Node with a stand-in electron', () => {
  let app: BuiltApp;
  let dir: string;
  let running: BundleProcess | null = null;

  beforeAll(async () => {
    app = await buildApp();
  }, 180_000);
  afterAll(() => app?.cleanup());

  afterEach(async () => {
    if (running && running.child.exitCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    running = null;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is a syntactically valid ESM bundle with its CommonJS preload beside it', () => {
    expect(fs.existsSync(app.mainEntry)).toBe(true);
    expect(fs.existsSync(path.join(app.dir, 'main', 'desktop-worker.js'))).toBe(true);
    expect(fs.readFileSync(app.preload, 'utf8')).toMatch(/require\("electron"\)/);
    expect(fs.readFileSync(app.preload, 'utf8')).not.toMatch(/^import /m);
    expect(fs.readFileSync(path.join(app.rendererDir, 'index.html'), 'utf8')).toContain("script-src 'self'");
  });

  it('serves MCP on a real port, records activity, saves settings, restarts, pauses and quits', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-'));
    const configFile = path.join(dir, 'config.json');
    fs.writeFileSync(configFile, JSON.stringify({ server: { port: 0 }, process: { list: true } }));
    running = launch(app, configFile);
    const url = await running.runningUrl();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await running.next((r) => r.type === 'tray-image' && String(r.path).endsWith(path.join('build', 'tray', 'running.png')));

    // No token in the config: the app created the owner-only token file, and /mcp requires it.
    const tokenFile = tokenFileOf(configFile);
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    const fileToken = fs.readFileSync(tokenFile, 'utf8').trim();
    await expect(modernClient(url)).rejects.toThrow(/401/);

    // A real 2026-07-28 client lists and calls tools; the tray lights up while it works.
    const client = await modernClient(url, fileToken);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['system_info', 'process_list']));
    const mark = running.reports.length;
    const info = await client.callTool({ name: 'system_info', arguments: {} });
    expect(info.isError).toBeFalsy();
    expect((info.structuredContent as { hostname: string }).hostname).toBe(os.hostname());
    await client.close();
    await running.next((r) => r.type === 'tray-image' && String(r.path).endsWith('busy.png'), mark);
    await running.next((r) => r.type === 'tray-image' && String(r.path).endsWith('running.png'), mark);

    // The settings window (opened from the tray) sees the call in the activity list, live.
    running.click('Open activity…');
    await running.next((r) => r.type === 'window');
    const activity = await running.invoke('activity:list');
    expect(activity).toMatchObject({ ok: true, result: [{ tool: 'system_info', outcome: 'ok' }] });
    const load = await running.invoke('settings:load');
    expect(load).toMatchObject({ ok: true, result: { configPath: configFile, navigate: { section: 'activity' }, status: { state: 'running', url } } });
    const tested = await running.invoke('server:test-connection');
    expect(tested).toMatchObject({ ok: true, result: { ok: true, url } });

    // Only the window's own page may call in.
    expect(await running.invoke('settings:load', [], { senderId: 999 })).toMatchObject({
      ok: false,
      error: expect.stringContaining('did not come from the settings window'),
    });
    expect(await running.invoke('settings:load', [], { url: 'https://evil.example/' })).toMatchObject({ ok: false });

    // Saving writes the file (0600) but leaves the running server alone until a restart.
    const invalid = await running.invoke('settings:save', [{ server: { port: 70000 } }]);
    expect(invalid).toMatchObject({ ok: true, result: { ok: false, issues: [{ path: ['server', 'port'] }] } });
    const saved = await running.invoke('settings:save', [{ server: { port: 0, token: TOKEN }, process: { list: true } }]);
    expect(saved).toMatchObject({ ok: true, result: { ok: true, configPath: configFile } });
    expect(configSchema.parse(JSON.parse(fs.readFileSync(configFile, 'utf8'))).server.token).toBe(TOKEN);
    if (process.platform !== 'win32') expect(fs.statSync(configFile).mode & 0o777).toBe(0o600);
    expect((await testConnection({ url, token: fileToken })).ok).toBe(true);

    const restartMark = running.click('Restart server');
    const restartedUrl = await running.runningUrl(restartMark);
    expect(await testConnection({ url: restartedUrl })).toMatchObject({ ok: false, error: expect.stringContaining('401') });
    expect((await testConnection({ url: restartedUrl, token: TOKEN })).ok).toBe(true);
    const copyMark = running.click('Copy token');
    expect(await running.next((r) => r.type === 'clipboard', copyMark)).toMatchObject({ text: TOKEN });

    // Paused: nothing listens. Resumed: same address again.
    const pauseMark = running.click('Pause server');
    await running.menu(pauseMark, /^Paused/);
    await running.next((r) => r.type === 'tray-image' && String(r.path).endsWith('paused.png'), pauseMark);
    expect(await testConnection({ url: restartedUrl, token: TOKEN, timeoutMs: 2000 })).toMatchObject({
      ok: false,
      error: expect.stringContaining('Connection refused'),
    });
    const resumeMark = running.click('Resume server');
    const resumedUrl = await running.runningUrl(resumeMark);
    expect((await testConnection({ url: resumedUrl, token: TOKEN })).ok).toBe(true);

    running.click('Quit');
    expect(await running.exited).toBe(0);
    expect(await testConnection({ url: resumedUrl, token: TOKEN, timeoutMs: 2000 })).toMatchObject({ ok: false });
  }, 60_000);

  it('on first start writes a config without a token, serves only with the token file the CLI uses, and shows that token', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-'));
    const configFile = path.join(dir, 'new', 'config.json');
    const child = fork(app.mainEntry, [], {
      execArgv: ['--import', REGISTER],
      // Port 0: the default port may be taken on a shared machine.
      env: {
        ...process.env,
        CHATGPT_MCP_CONFIG: configFile,
        XDG_CONFIG_HOME: path.join(dir, '.config'),
        FAKE_ELECTRON_APP_PATH: REPO,
        CHATGPT_MCP_TOKEN: '',
        CHATGPT_MCP_PORT: '0',
      },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    running = new BundleProcess(child);
    const url = await running.runningUrl();
    expect(configSchema.parse(JSON.parse(fs.readFileSync(configFile, 'utf8'))).server.token).toBeUndefined();
    const token = fs.readFileSync(path.join(dir, '.config', 'chatgpt-mcp', 'token'), 'utf8').trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await testConnection({ url, timeoutMs: 2000 })).toMatchObject({ ok: false });
    expect((await testConnection({ url, token })).ok).toBe(true);
    // The window shows that very token (the tray's Copy token copies it too).
    running.click('Open settings…');
    await running.next((r) => r.type === 'window');
    expect(await running.invoke('token:in-use')).toMatchObject({ ok: true, result: { token, source: 'file' } });
    running.click('Quit');
    expect(await running.exited).toBe(0);
  }, 30_000);

  it('does not serve an invalid config: error icon, status, and the settings open at the field', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-'));
    const configFile = path.join(dir, 'config.json');
    fs.writeFileSync(configFile, JSON.stringify({ server: { port: 0 }, filesystem: { roots: ['relative/path'] } }));
    running = launch(app, configFile);
    const items = await running.menu(0, /^Not running: /);
    expect(items.find((i) => i.label === 'Pause server')?.enabled).toBe(false);
    await running.next((r) => r.type === 'tray-image' && String(r.path).endsWith('error.png'));
    const window = await running.next((r) => r.type === 'window');
    expect(window.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(String((window.webPreferences as { preload: string }).preload)).toMatch(/preload\.cjs$/);
    const load = await running.invoke('settings:load');
    expect(load).toMatchObject({ ok: true, result: { navigate: { section: 'files', field: ['filesystem', 'roots', 0] }, status: { state: 'error' } } });
    running.click('Quit');
    expect(await running.exited).toBe(0);
  }, 30_000);

  it('asks the owner through the tray for an OAuth connection: notification, prompt, approve, activity, revoke', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-'));
    const configFile = path.join(dir, 'config.json');
    fs.writeFileSync(configFile, JSON.stringify({ server: { port: 0, auth: 'oauth' } }));
    running = launch(app, configFile);
    const url = await running.runningUrl();
    const app_ = running;

    const provider = new MemoryOAuthProvider('http://127.0.0.1:1/callback', 'Tray test app');
    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    const modern = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;
    await expect(new Client({ name: 'tray-oauth', version: '1.0.0' }, modern).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);

    const outcome = await authorizeInBrowser(provider.authorizationUrl!, async (code) => {
      // The tray notifies and opens the settings window at the prompt.
      const note = await app_.next((r) => r.type === 'notification');
      expect(note).toMatchObject({ title: '"Tray test app" asks to connect', body: expect.stringContaining(code) });
      await app_.next((r) => r.type === 'window');
      expect(await app_.invoke('oauth:approve', [42])).toMatchObject({ ok: false });
      const listed = await app_.invoke('oauth:list');
      expect(listed).toMatchObject({ ok: true, result: { pending: [{ code, clientName: 'Tray test app', redirectHost: '127.0.0.1:1' }] } });
      // What the prompt's Approve button sends.
      expect(await app_.invoke('oauth:approve', [code])).toMatchObject({ ok: true, result: { ok: true } });
    });
    await transport.finishAuth(outcome.redirect.searchParams);
    const client = new Client({ name: 'tray-oauth', version: '1.0.0' }, modern);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
    expect((await client.callTool({ name: 'system_info', arguments: {} })).isError).toBeFalsy();
    await client.close();
    expect(await running.invoke('activity:list')).toMatchObject({ ok: true, result: [{ tool: 'system_info', client: 'Tray test app', outcome: 'ok' }] });

    const list = (await running.invoke('oauth:list')) as unknown as {
      result: { clients: Array<{ id: string; approvedAt: string | null; lastUsedAt: string | null }> };
    };
    expect(list.result.clients).toHaveLength(1);
    expect(list.result.clients[0]!.approvedAt).not.toBeNull();
    // The calls above are recorded by the time they answered: the tray's list has a "last used" time.
    expect(Date.parse(list.result.clients[0]!.lastUsedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(list.result.clients[0]!.approvedAt!));
    expect(await running.invoke('oauth:revoke', [list.result.clients[0]!.id])).toMatchObject({ ok: true, result: { ok: true } });
    const after = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${provider.tokens()!.access_token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(after.status).toBe(401);
    expect(await running.invoke('oauth:revoke', ['nobody'])).toMatchObject({
      ok: true,
      result: { ok: false, error: expect.stringContaining('no OAuth client') },
    });
    running.click('Quit');
    expect(await running.exited).toBe(0);
  }, 60_000);

  it('"Pause writes" in the tray saves server.readOnly and restarts: the tools that change things are gone, then back', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-'));
    const configFile = path.join(dir, 'config.json');
    fs.writeFileSync(configFile, JSON.stringify({ server: { port: 0, token: TOKEN }, filesystem: { write: true, roots: [dir] } }));
    running = launch(app, configFile);
    const names = (url: string) => toolNames(url, TOKEN);
    const first = await running.runningUrl();
    expect(await names(first)).toContain('fs_write');
    let menu = await running.menu(0, /^Running at /);
    expect(menu.find((item) => item.label === 'Pause writes')).toMatchObject({ type: 'checkbox', checked: false });

    const mark = running.click('Pause writes');
    const paused = await running.runningUrl(mark);
    expect(JSON.parse(fs.readFileSync(configFile, 'utf8')).server.readOnly).toBe(true);
    expect(await names(paused)).not.toContain('fs_write');
    expect(await names(paused)).toContain('fs_read');
    menu = await running.menu(mark, /^Running at /);
    expect(menu.find((item) => item.label === 'Pause writes')).toMatchObject({ checked: true });

    const again = running.click('Pause writes');
    expect(await names(await running.runningUrl(again))).toContain('fs_write');
    expect(JSON.parse(fs.readFileSync(configFile, 'utf8')).server.readOnly).toBe(false);
    running.click('Quit');
    expect(await running.exited).toBe(0);
  }, 60_000);

  it('choosing a profile in the tray saves profiles.active and restarts: the token, bound to none, gets its tools', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-'));
    const configFile = path.join(dir, 'config.json');
    const settings = { server: { port: 0, token: TOKEN }, filesystem: { write: true, roots: [dir] }, shell: { enabled: true, allowedCommands: ['ls'] } };
    fs.writeFileSync(configFile, JSON.stringify(settings));
    running = launch(app, configFile);
    const names = (url: string) => toolNames(url, TOKEN);
    const first = await running.runningUrl();
    expect(await names(first)).toEqual(expect.arrayContaining(['fs_write', 'shell_exec']));
    const menu = await running.menu(0, /^Running at /);
    expect(menu.filter((item) => item.type === 'radio').map((item) => item.label)).toEqual([
      'Profile: Full',
      'Profile: Read-only',
      'Profile: Coding',
      'Profile: Desktop',
    ]);
    expect(menu.find((item) => item.label === 'Profile: Full')).toMatchObject({ checked: true });

    const mark = running.click('Profile: Read-only');
    const readOnly = await names(await running.runningUrl(mark));
    expect(JSON.parse(fs.readFileSync(configFile, 'utf8')).profiles.active).toBe('Read-only');
    expect(readOnly).toContain('fs_read');
    expect(readOnly).not.toContain('fs_write');
    expect(readOnly).not.toContain('shell_exec');
    expect((await running.menu(mark, /^Running at /)).find((item) => item.label === 'Profile: Read-only')).toMatchObject({ checked: true });
    running.click('Quit');
    expect(await running.exited).toBe(0);
  }, 60_000);
});
