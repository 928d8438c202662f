/**
 * The ChatGPT connection in the built tray app, booted under Node with the stand-in electron
 * (as main-bundle.test.ts does), the tunnel-client stand-in and a fake control plane: store the
 * key through the window's IPC (safeStorage), connect from the tray, ChatGPT's call through the
 * tunnel, the tray's colours and reasons, crash and restart, pause stops the client, quit leaves
 * no child. The key is never in the config file, the app's logs, the activity entries or any
 * process's command line.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SAFE_KEY_FILE } from '../../main/tray/safe-storage-store.js';
import { keyFilePath } from '../../main/tunnel/secret-store.js';
import { modernRequest } from '../helpers/raw-rpc.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';
import { alive, allCommandLines, FakeControlPlane, GOOD_KEY, installStandIn, TUNNEL_ID, type InstalledStandIn } from '../tunnel/helpers/stand-in.js';
import { AppProcess, REGISTER, type Report } from './helpers/app-process.js';
import { buildApp, REPO, type BuiltApp } from './helpers/build-app.js';

/** The app with the tray views this file reads, and IPC calls that throw on a refusal. */
class TunnelApp extends AppProcess {
  icon(name: string, since = 0): Promise<Report> {
    return this.next((r) => r.type === 'tray-image' && String(r.path).endsWith(path.join('build', 'tray', `${name}.png`)), since);
  }

  tooltip(match: RegExp, since = 0): Promise<Report> {
    return this.next((r) => r.type === 'tooltip' && match.test(String(r.text)), since);
  }

  async call(channel: string, args: unknown[] = []): Promise<any> {
    const result = await this.invoke(channel, args);
    if (!result.ok) throw new Error(String(result.error));
    return result.result;
  }
}

let app: BuiltApp;
let plane: FakeControlPlane;
let home: string;
let standIn: InstalledStandIn;
let running: TunnelApp | null = null;

beforeAll(async () => {
  app = await buildApp();
  plane = await new FakeControlPlane().start();
}, 180_000);
afterAll(async () => {
  app?.cleanup();
  await plane?.close();
});
afterEach(async () => {
  // A test that failed midway leaves the app running: it is killed, and so (it cannot clean up
  // after a SIGKILL) is its client. A test that got to Quit checked for survivors itself.
  if (running && running.child.exitCode === null) {
    running.child.kill('SIGKILL');
    await running.exited;
  }
  running = null;
  for (const record of standIn?.records() ?? []) if (alive(record.pid)) process.kill(record.pid, 'SIGKILL');
  if (home) removeDir(home);
});

function launch(
  config: Record<string, unknown>,
  env: NodeJS.ProcessEnv = {},
  prepare: (appDir: string) => void = () => {},
): { configFile: string; appDir: string } {
  home = makeTempDir('tunnel-app-');
  standIn = installStandIn(path.join(home, 'opt'), { controlPlaneUrl: plane.url });
  const appDir = path.join(home, '.config', 'chatgpt-mcp');
  const configFile = writeJson(path.join(appDir, 'config.json'), {
    ...config,
    tunnel: { tunnelId: TUNNEL_ID, clientPath: standIn.path, ...(config.tunnel as object) },
  });
  prepare(appDir);
  const child = fork(app.mainEntry, [], {
    execArgv: ['--import', REGISTER],
    env: {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      CHATGPT_MCP_CONFIG: configFile,
      FAKE_ELECTRON_APP_PATH: REPO,
      CHATGPT_MCP_TOKEN: '',
      CHATGPT_MCP_PORT: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  running = new TunnelApp(child);
  return { configFile, appDir };
}

describe('ChatGPT connection in the tray app', () => {
  it('stores the key with safeStorage, connects from the tray, forwards ChatGPT’s call, follows pause and quits cleanly', async () => {
    const { configFile, appDir } = launch({ server: { port: 0 }, process: { list: true } });
    const app = running!;
    await app.icon('running');
    const menu = await app.next((r) => r.type === 'menu' && JSON.stringify(r.items).includes('Connect ChatGPT'));
    expect(JSON.stringify(menu.items)).toContain('ChatGPT: Not connected');
    app.click('ChatGPT setup…');
    await app.next((r) => r.type === 'window');

    // Steps 1 and 2 through the window's bridge.
    const before = await app.call('tunnel:status');
    expect(before.key).toEqual({ stored: false, where: 'the desktop keyring (Electron safeStorage)', warning: null });
    expect(before.tunnelId).toBe(TUNNEL_ID);
    const lookup = await app.call('tunnel:look-up');
    expect(lookup).toMatchObject({
      ok: true,
      client: { path: standIn.path, source: 'configured', version: '0.9.4-standin+5ce4fed0c1cb (git sha: 5ce4fed0c1cb)' },
    });
    // The window cannot make the app run an arbitrary file: only the saved path or one picked in the dialog.
    const marker = path.join(home, 'ran');
    const planted = path.join(home, 'planted.sh');
    fs.writeFileSync(planted, `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    expect(await app.call('tunnel:look-up', [planted])).toMatchObject({
      ok: false,
      error: expect.stringContaining('Save the settings (or use Choose file…)'),
    });
    expect(fs.existsSync(marker)).toBe(false);
    expect(await app.call('tunnel:set-key', [`  ${GOOD_KEY}\n`])).toMatchObject({ ok: true, key: { stored: true, warning: null } });
    const sealed = fs.readFileSync(path.join(appDir, SAFE_KEY_FILE));
    expect(sealed.includes(Buffer.from(GOOD_KEY))).toBe(false);
    expect(fs.statSync(path.join(appDir, SAFE_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(keyFilePath(appDir))).toBe(false);

    // Step 3 from the tray; step 4: the tray turns green only when it is really ready.
    const connect = app.click('Connect ChatGPT');
    await app.icon('chatgpt-starting', connect);
    await app.icon('chatgpt-ready', connect);
    await app.tooltip(/ChatGPT: Ready$/, connect);
    const [record] = standIn.records();
    expect(record!.env.CONTROL_PLANE_API_KEY).toBe(GOOD_KEY);
    expect(record!.argv).toEqual(['run']);

    // ChatGPT calls a tool through the tunnel; the activity view sees it, without the key.
    const call = await plane.call(JSON.parse(modernRequest(3, 'tools/call', { name: 'system_info', arguments: {} })), {
      'Mcp-Method': ['tools/call'],
      'Mcp-Name': ['system_info'],
      'MCP-Protocol-Version': ['2026-07-28'],
    });
    expect(call.resp_json.result.isError).toBeFalsy();
    const activity = await app.call('activity:list');
    expect(activity).toEqual(expect.arrayContaining([expect.objectContaining({ tool: 'system_info', outcome: 'ok' })]));
    const status = await app.call('tunnel:status');
    expect(status.status).toMatchObject({ state: 'ready', readiness: 'ready' });

    // A crashed client: amber, then green again.
    const crash = app.reports.length;
    process.kill(record!.pid, 'SIGKILL');
    await app.icon('chatgpt-degraded', crash);
    await app.icon('chatgpt-ready', crash);
    expect(standIn.records()).toHaveLength(2);

    // Pausing the server stops the client; resuming brings it back.
    const pause = app.click('Pause server');
    await app.icon('paused', pause);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const r of standIn.records()) expect(alive(r.pid)).toBe(false);
    const resume = app.click('Resume server');
    await app.icon('chatgpt-ready', resume);
    expect(standIn.records()).toHaveLength(3);

    // The key is nowhere it must not be.
    const logs = app.stderr;
    expect(fs.readFileSync(configFile, 'utf8')).not.toContain(GOOD_KEY);
    expect(logs).not.toContain(GOOD_KEY);
    expect(JSON.stringify(await app.call('activity:list'))).not.toContain(GOOD_KEY);
    expect(JSON.stringify(await app.call('tunnel:status'))).not.toContain(GOOD_KEY);
    expect(allCommandLines()).not.toContain(GOOD_KEY);

    app.click('Quit');
    expect(await app.exited).toBe(0);
    for (const r of standIn.records()) expect(alive(r.pid)).toBe(false);
  }, 90_000);

  it('connects at start; a refused key is red with the reason in the tooltip and menu; Disconnect returns to the server’s colour', async () => {
    // Without a real safeStorage backend ("basic_text"), the key is in the headless owner-only file.
    launch({ server: { port: 0 }, tunnel: { connectAtStart: true } }, { FAKE_ELECTRON_SAFE_STORAGE: 'basic_text' }, (appDir) =>
      fs.writeFileSync(keyFilePath(appDir), 'sk-tunnel-runtime-revoked-0123456789\n', { mode: 0o600 }),
    );
    const app = running!;
    await app.icon('chatgpt-error');
    await app.tooltip(/ChatGPT: Error: OpenAI refused the runtime key \(HTTP 401\)/);
    await app.next((r) => r.type === 'menu' && JSON.stringify(r.items).includes('ChatGPT: Error: OpenAI refused the runtime key (HTTP 401)'));
    app.click('ChatGPT setup…');
    await app.next((r) => r.type === 'window');
    const status = await app.call('tunnel:status');
    expect(status.key.where).toContain('owner-only file');
    expect(status.key.warning).toMatch(/readable only by your user account/);

    const off = app.click('Disconnect ChatGPT');
    await app.icon('running', off);
    for (const r of standIn.records()) expect(alive(r.pid)).toBe(false);
    app.click('Quit');
    expect(await app.exited).toBe(0);
  }, 60_000);
});
