/**
 * The settings window's ChatGPT section in real headless Chromium. The bridge runs the real
 * main-process pieces: the TunnelController with the tunnel-client stand-in as a real child,
 * a real MCP server, a fake control plane, the owner-only key file (no keyring here), and the
 * config saved to a temp dir. Every state is photographed into test-artifacts/screenshots/
 * (chatgpt-*.png): no client, set up, starting, degraded, ready, error, the download failure.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localPolicyPort } from '../../../../adapter/local-policy-port.js';
import { createProcessOps } from '../../../../adapter/process/local-process-ops.js';
import type { ServerStatus } from '../../../../main/tray/bridge-api.js';
import { TunnelController } from '../../../../main/tunnel/tunnel-controller.js';
import { loadConfig } from '../../../../main/config/load.js';
import { saveConfig } from '../../../../main/config/save.js';
import { silentLogger } from '../../../../main/log.js';
import { fileStore } from '../../../../main/tunnel/secret-store.js';
import { startTestServer, type TestHttpServer } from '../../../helpers/servers.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';
import { alive, FakeControlPlane, GOOD_KEY, installStandIn, TUNNEL_ID, type InstalledStandIn } from '../../../tunnel/helpers/stand-in.js';
import { chromiumAvailable } from '../../../tray/helpers/desktop.js';
import { BRIDGE_METHODS, bridgeInit, loadSnapshot, type OpenWindow, push, SCREENSHOTS, serveWindow } from '../../helpers/window-harness.js';

const TOKEN = 'chatgpt-section-token-0123456789abcdef';
const available = chromiumAvailable();

describe.skipIf(!available)('ChatGPT section in headless Chromium', () => {
  let browser: Browser;
  let window: OpenWindow;
  let pageUrl: string;
  let server: TestHttpServer;
  let plane: FakeControlPlane;
  let temp: string;
  let appDir: string;
  let configPath: string;
  let standIn: InstalledStandIn;
  let controller: TunnelController;
  let page: Page;
  const copied: string[] = [];
  const opened: string[] = [];
  const errors: string[] = [];
  const running = (url: string): ServerStatus => ({ state: 'running', url, toolCount: 3, auth: true });

  beforeAll(async () => {
    temp = makeTempDir('chatgpt-section-');
    appDir = path.join(temp, 'home', '.config', 'chatgpt-mcp');
    configPath = path.join(appDir, 'config.json');
    fs.mkdirSync(appDir, { recursive: true });
    server = await startTestServer({ server: { token: TOKEN }, process: { list: true } });
    plane = await new FakeControlPlane().start();
    standIn = installStandIn(path.join(temp, 'opt'), { controlPlaneUrl: plane.url });
    // A port with nothing behind it: GitHub, unreachable.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const nowhere = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise((resolve) => probe.close(resolve));
    controller = new TunnelController({
      readConfig: () => loadConfig({ env: { CHATGPT_MCP_CONFIG: configPath } }).config,
      appDir,
      // No tunnel-client on this PATH: step 1 starts empty.
      env: { ...process.env, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` },
      port: localPolicyPort(createProcessOps(), process.platform, process.env),
      protectedFiles: [configPath, appDir],
      keyStores: async () => [fileStore(appDir)],
      logger: silentLogger,
      timing: { initialBackoffMs: 200, maxBackoffMs: 1000, checkMs: 150, readyCheckMs: 1000, startGraceMs: 2500 },
      downloadSources: { api: nowhere, downloads: nowhere },
    });

    const home = path.join(temp, 'home');
    window = await serveWindow(home);
    ({ browser, pageUrl } = window);
  }, 180_000);

  afterAll(async () => {
    await controller?.quit();
    await window?.close();
    await server?.close();
    await plane?.close();
    for (const record of standIn?.records() ?? []) expect(alive(record.pid)).toBe(false);
    if (temp) removeDir(temp);
  });

  let serverStatus: ServerStatus = { state: 'stopped' };
  async function bridge(method: string, args: unknown[]): Promise<unknown> {
    switch (method) {
      case 'load':
        return loadSnapshot(configPath, path.join(temp, 'home'), { section: 'chatgpt' }, { status: serverStatus });
      case 'save':
        await saveConfig(configPath, args[0]);
        return { ok: true, configPath };
      case 'copyText':
        copied.push(String(args[0]));
        return undefined;
      case 'listActivity':
        return [];
      case 'listConnections':
        return { clients: [], pending: [] };
      case 'tunnelStatus':
        await controller.refreshKeyInfo();
        return controller.snapshot;
      case 'tunnelConnect':
        return controller.connect();
      case 'tunnelDisconnect':
        return controller.disconnect();
      case 'tunnelSetKey':
        return controller.setKey(String(args[0]));
      case 'tunnelForgetKey':
        return controller.forgetKey();
      case 'tunnelLookUp':
        return controller.lookUp(args[0] as string | undefined);
      case 'tunnelPickClient':
        return standIn.path;
      case 'tunnelDownload':
        return controller.download();
      case 'openLink':
        opened.push(String(args[0]));
        return undefined;
      default:
        throw new Error(`unexpected bridge call ${method}`);
    }
  }

  const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `chatgpt-${name}.png`), fullPage: true });
  const connection = () => page.getByRole('status', { name: 'ChatGPT connection' });

  it('walks the owner from no client to a ready connection, showing every state', async () => {
    fs.writeFileSync(configPath, JSON.stringify({ server: { token: TOKEN } }));
    const context = await browser.newContext({ viewport: { width: 1000, height: 2200 }, deviceScaleFactor: 1 });
    page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.exposeFunction('__bridge', (method: string, args: unknown[]) => bridge(method, args));
    await page.addInitScript(bridgeInit, [...BRIDGE_METHODS]);
    controller.onChange((snapshot) => void push(page, 'tunnel', snapshot).catch(() => undefined));
    await page.goto(pageUrl);
    await page.getByRole('heading', { level: 1, name: 'ChatGPT' }).waitFor();

    // Step 1: nothing found; the download fails clearly (no network here).
    await page.getByRole('status', { name: 'Tunnel client status' }).getByText('No tunnel client found').waitFor();
    await page.getByRole('button', { name: 'Download official release' }).click();
    await page.getByText(/^Cannot reach GitHub to download the tunnel client \(ECONNREFUSED\)/).waitFor();
    await shot('1-no-client');

    // Choose the file, enter the tunnel id, store the key (the owner-only file, with its warning), save.
    await page.getByRole('button', { name: 'Choose file…' }).click();
    await page.getByRole('status', { name: 'Tunnel client status' }).getByText('0.9.4-standin+5ce4fed0c1cb (git sha: 5ce4fed0c1cb)').waitFor();
    await page.getByLabel('Tunnel id', { exact: true }).fill(TUNNEL_ID);
    await page.locator('#tunnel-runtime-key').fill(GOOD_KEY);
    await page.getByRole('button', { name: 'Store key' }).click();
    await page.getByRole('status', { name: 'Runtime key status' }).getByText('A runtime key is stored in an owner-only file').waitFor();
    await page.getByText(/readable only by your user account/).waitFor();
    expect(await page.locator('#tunnel-runtime-key').inputValue()).toBe('');
    expect(await page.getByRole('button', { name: 'Connect ChatGPT' }).isDisabled()).toBe(true);
    await page.getByText('Save your changes first').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('All changes saved').waitFor();
    const saved = JSON.parse(fs.readFileSync(configPath, 'utf8'));
    expect(saved.tunnel).toEqual({ connectAtStart: false, tunnelId: TUNNEL_ID, clientPath: standIn.path });
    expect(fs.readFileSync(configPath, 'utf8')).not.toContain(GOOD_KEY);
    await shot('2-set-up');

    // Step 3 and 4: the server is not reachable at first (starting, then degraded), then it is (ready).
    serverStatus = running('http://127.0.0.1:9/mcp');
    await controller.serverChanged(serverStatus, TOKEN);
    await push(page, 'status', serverStatus as unknown);
    await page.getByRole('button', { name: 'Connect ChatGPT' }).click();
    await connection().getByText('Connecting…').waitFor();
    await connection()
      .getByText(/mcp probe failed/)
      .waitFor();
    await shot('3-starting');
    await connection().getByText('Degraded').waitFor({ timeout: 10_000 });
    await shot('4-degraded');

    serverStatus = running(server.url);
    await controller.serverChanged(serverStatus, TOKEN);
    await connection().getByText('Ready', { exact: true }).waitFor({ timeout: 15_000 });
    await page
      .getByText(/^ready$/)
      .first()
      .waitFor();
    await shot('5-ready');

    // Step 5: the ChatGPT steps copy what the owner needs.
    await page.getByRole('button', { name: 'Copy tunnel id' }).click();
    await page.getByRole('button', { name: 'Copy name' }).click();
    expect(copied).toEqual([TUNNEL_ID, 'ChatGPT Computer MCP']);
    await page.getByRole('button', { name: 'Open in the browser' }).click();
    await page.getByRole('button', { name: 'Open Tunnels page' }).click();
    expect(opened).toEqual(['connectors', 'tunnels']);
    await page.getByText('ChatGPT keeps the tool list it saw').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'chatgpt-6-in-chatgpt.png') });

    // A wrong token (the server's token changed under the tunnel): red, with the reason and the log.
    await controller.serverChanged(serverStatus, 'a-token-the-server-does-not-know-0123');
    await connection().getByText('Error').waitFor({ timeout: 15_000 });
    await connection()
      .getByText(/refused the token the tunnel sends \(HTTP 401\)/)
      .waitFor();
    await page.getByText('Recent output of the tunnel client (key and token hidden)').waitFor();
    expect(await page.content()).not.toContain(GOOD_KEY);
    expect(await page.content()).not.toContain(TOKEN);
    await shot('7-error');

    await page.getByRole('button', { name: 'Disconnect' }).click();
    await connection().getByText('Not connected').waitFor();
    for (const record of standIn.records()) expect(alive(record.pid)).toBe(false);
    await shot('8-disconnected');
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});
