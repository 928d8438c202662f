/**
 * The consent prompt and the Connected clients list in the built settings window, in real
 * headless Chromium, wired to the real thing: an OAuth server on loopback, its state file,
 * and the tray's OAuthPanel behind the bridge (as the preload forwards to main). A stranger's
 * authorization request appears in the window; the owner clicks Approve there; the request's
 * browser gets its code; the client appears in the list; Revoke cuts its token off.
 * Screenshots of the authorize page, the prompt and the list go to test-artifacts/screenshots/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsSnapshot } from '../../../../main/tray/bridge-api.js';
import { OAuthPanel } from '../../../../main/tray/oauth-panel.js';
import { oauthStatePath } from '../../../../main/auth/oauth-state.js';
import { authorizeInBrowser, hop, pkcePair } from '../../../helpers/oauth.js';
import { startTestServer, type TestHttpServer } from '../../../helpers/servers.js';
import { chromiumAvailable } from '../../../tray/helpers/desktop.js';
import { BRIDGE_METHODS, bridgeInit, openPage, type OpenWindow, push, SCREENSHOTS, serveWindow } from '../../helpers/window-harness.js';

const REDIRECT = 'https://chatgpt.com/connector_platform_oauth_redirect';

describe.skipIf(!chromiumAvailable())('Connected clients and the consent prompt in headless Chromium', () => {
  let temp: string;
  let browser: Browser;
  let window: OpenWindow;
  let pageUrl: string;
  let server: TestHttpServer;
  let stateFile: string;
  let panel: OAuthPanel;
  let page: Page;
  const errors: string[] = [];
  const calls: string[] = [];
  /** The sign-in the settings file names (the window's Clients page words its empty state by it). */
  let auth = 'oauth';

  beforeAll(async () => {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'clients-window-'));
    stateFile = oauthStatePath(path.join(temp, 'app'));
    panel = new OAuthPanel(stateFile);
    server = await startTestServer({ server: { auth: 'oauth' } }, { oauth: { stateFile } });
    window = await serveWindow(temp);
    ({ browser, pageUrl } = window);
  }, 180_000);

  afterAll(async () => {
    await window?.close();
    await server?.close();
    fs.rmSync(temp, { recursive: true, force: true });
  });

  async function bridge(method: string, args: unknown[]): Promise<unknown> {
    calls.push(method);
    switch (method) {
      case 'load':
        return {
          configPath: path.join(temp, 'config.json'),
          exists: true,
          config: { server: { auth } },
          fileError: null,
          issues: [],
          homeDir: temp,
          platform: 'linux',
          status: { state: 'running', url: server.url, toolCount: 3, auth: true },
          overrides: [],
          navigate: { section: 'clients' },
        } satisfies SettingsSnapshot;
      case 'listActivity':
        return [];
      case 'listConnections':
        return panel.list();
      case 'approveConnection':
        return panel.approve(String(args[0]));
      case 'denyConnection':
        return panel.deny(String(args[0]));
      case 'revokeClient':
        return panel.revoke(String(args[0]));
      default:
        throw new Error(`unexpected bridge call ${method}`);
    }
  }

  /** What the main process does when the state file changes: push a fresh snapshot to the window. */
  async function pushConnections(): Promise<void> {
    await push(page, 'connections', panel.list());
  }

  async function registerChatGpt(): Promise<string> {
    const response = await fetch(`${new URL(server.url).origin}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'ChatGPT', redirect_uris: [REDIRECT] }),
    });
    return ((await response.json()) as { client_id: string }).client_id;
  }

  function authorizeUrl(clientId: string, challenge: string): URL {
    const url = new URL(`${new URL(server.url).origin}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'abc',
      resource: server.url,
    }))
      url.searchParams.set(k, v);
    return url;
  }

  it('shows the authorize page through the tunnel: a code, no script, nothing granted', async () => {
    const context = await browser.newContext({ viewport: { width: 760, height: 560 }, deviceScaleFactor: 1 });
    const tab = await context.newPage();
    const clientId = await registerChatGpt();
    // Chromium follows the redirect to the waiting page, exactly as the owner's browser would.
    const response = await tab.goto(authorizeUrl(clientId, pkcePair().challenge).href);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/default-src 'none'/);
    const code = await tab.getByLabel('Approval code').textContent();
    expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    await tab.getByText('ChatGPT', { exact: true }).waitFor();
    await tab.getByText('chatgpt.com', { exact: true }).waitFor();
    // The inline style is allowed by its hash: the page is styled, so the CSP does not block it.
    const radius = await tab
      .locator('main')
      .evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { borderRadius: string } }).getComputedStyle(el).borderRadius);
    expect(radius).toBe('12px');
    await tab.screenshot({ path: path.join(SCREENSHOTS, 'oauth-authorize-waiting.png') });
    await context.close();
    // Nobody approved: the request just waits (then expires); deny it so the next test starts clean.
    await panel.deny(code!);
    await panel.revoke(clientId);
  });

  it('asks the owner in the settings window, approves there, lists the client, and revokes it', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 720 }, deviceScaleFactor: 1 });
    page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    await page.exposeFunction('__bridge', (method: string, args: unknown[]) => bridge(method, args));
    await page.addInitScript(bridgeInit, [...BRIDGE_METHODS]);
    await page.goto(pageUrl);
    await page.getByRole('heading', { level: 1, name: 'Connected clients' }).waitFor();
    await page.getByText('No app has connected with OAuth yet', { exact: false }).waitFor();

    // A connection request arrives through the tunnel; the main process pushes it to the window.
    const clientId = await registerChatGpt();
    const { verifier, challenge } = pkcePair();
    let shownCode = '';
    const authorized = authorizeInBrowser(authorizeUrl(clientId, challenge), async (code) => {
      shownCode = code;
      await pushConnections();
      const prompt = page.getByRole('alertdialog', { name: 'An app asks to connect to this computer' });
      await prompt.waitFor();
      expect(await prompt.getByLabel('Approval code').textContent()).toBe(code);
      await prompt.getByText('chatgpt.com', { exact: true }).waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, 'oauth-consent-prompt.png') });
      // The owner compares the codes and approves in the window.
      await prompt.getByRole('button', { name: `Approve ${code}` }).click();
      await prompt.waitFor({ state: 'detached' });
    });
    const outcome = await authorized;
    expect(outcome.shownCode).toBe(shownCode);
    expect(calls).toContain('approveConnection');
    const code = outcome.redirect.searchParams.get('code')!;
    expect(code).toMatch(/^cmcp_ac_/);

    const tokenResponse = await fetch(`${new URL(server.url).origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT }).toString(),
    });
    const tokens = (await tokenResponse.json()) as { access_token: string };
    expect(await toolsListStatus(tokens.access_token)).toBe(200);

    // The list shows the client, approved, with its redirect host.
    await pushConnections();
    const row = page.getByRole('row').filter({ hasText: 'ChatGPT' });
    await row.waitFor();
    await row.getByText('chatgpt.com', { exact: true }).waitFor();
    expect(await row.getByText('Not approved').count()).toBe(0);
    // The tools/list above is recorded by the time it answered: "Last used" shows its time, not "never".
    const lastUsed = panel.list().clients.find((c) => c.name === 'ChatGPT')!.lastUsedAt;
    expect(lastUsed).not.toBeNull();
    const lastUsedCell = row.getByRole('cell').nth(3);
    expect(await lastUsedCell.textContent()).not.toBe('never');
    expect(await lastUsedCell.textContent()).toContain(String(new Date(lastUsed!).getFullYear()));
    await page.screenshot({ path: path.join(SCREENSHOTS, 'oauth-connected-clients.png') });

    // Revoke asks once more, then the token stops working at the next request.
    await row.getByRole('button', { name: 'Revoke ChatGPT' }).click();
    await row.getByRole('button', { name: 'Revoke ChatGPT' }).click();
    await page.getByText('No app has connected with OAuth yet', { exact: false }).waitFor();
    expect(await toolsListStatus(tokens.access_token)).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('with OAuth off, says so in the window’s words and how to turn it on; an app that registered but was never approved is not listed', async () => {
    auth = 'bearer';
    const tab = await openPage(browser, pageUrl, bridge, errors);
    await tab.getByRole('heading', { level: 1, name: 'Connected clients' }).waitFor();
    const off = tab.getByText('OAuth sign-in is off, so no app can connect this way', { exact: false });
    await off.waitFor();
    expect(await off.textContent()).toContain(
      'open Connection, choose “OAuth, approved on this computer” (or “Access token or OAuth”) under “Clients sign in with”',
    );
    // Owner's words only: no config keys.
    expect(await tab.locator('main').textContent()).not.toMatch(/server\.auth|bearer\+oauth/);
    await tab.screenshot({ path: path.join(SCREENSHOTS, 'clients-oauth-off.png') });

    // A registration nobody approved: counted, not shown as connected.
    const clientId = await registerChatGpt();
    await push(tab, 'connections', panel.list());
    await tab.getByText('One app registered but never approved: not connected, and unable to call anything.', { exact: false }).waitFor();
    expect(await tab.getByRole('row').filter({ hasText: 'ChatGPT' }).count()).toBe(0);
    await tab.screenshot({ path: path.join(SCREENSHOTS, 'clients-unapproved.png') });
    await panel.revoke(clientId);
    auth = 'oauth';
    expect(errors).toEqual([]);
    await tab.context().close();
  });

  it('the prompt shows on other sections too, and Deny sends the app away with access_denied', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 720 }, deviceScaleFactor: 1, colorScheme: 'dark' });
    page = await context.newPage();
    await page.exposeFunction('__bridge', (method: string, args: unknown[]) => bridge(method, args));
    await page.addInitScript(bridgeInit, [...BRIDGE_METHODS]);
    await page.goto(pageUrl);
    await page.getByRole('button', { name: 'Activity' }).click();
    const clientId = await registerChatGpt();
    const first = await hop(authorizeUrl(clientId, pkcePair().challenge));
    const wait = new URL(first.headers.get('location')!, server.url);
    await pushConnections();
    const prompt = page.getByRole('alertdialog');
    await prompt.waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'oauth-consent-prompt-dark.png') });
    await prompt.getByRole('button', { name: 'Deny' }).click();
    await prompt.waitFor({ state: 'detached' });
    const back = await hop(wait);
    expect(new URL(back.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
    await context.close();
  });

  async function toolsListStatus(accessToken: string): Promise<number> {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    await response.text();
    return response.status;
  }
});
