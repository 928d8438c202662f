/**
 * The activity view for real: a CLI server keeping its audit log (with the audit tools on) is
 * called by a real client; audit.recent's answer goes to the view in headless Chromium inside the
 * AppBridge host stand-in, which lists the calls redacted as recorded, and searches them through
 * audit.search calls the host forwards to the server. Screenshots in test-artifacts/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { childEnv, startCliHttp } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';
import { appsClient, openView, textOf, type ViewResult } from '../helpers/view-host.js';
import { chromiumAvailable, CHROMIUM, CHROMIUM_ARGS } from '../tray/helpers/desktop.js';
import { SCREENSHOTS } from '../renderer/helpers/window-harness.js';

const VIEW = 'ui://chatgpt-mcp/activity.html';
const SECRET_CONTENT = 'content-that-never-reaches-the-audit-log';

describe.skipIf(!chromiumAvailable())('the activity view in an MCP Apps host', () => {
  let home: string;
  let root: string;
  let server: Awaited<ReturnType<typeof startCliHttp>>;
  let client: Client;
  let browser: Browser;

  beforeAll(async () => {
    home = makeTempDir('activity-view-');
    root = path.join(home, 'root');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'notes.txt'), SECRET_CONTENT);
    const config = writeJson(path.join(home, 'config.json'), {
      server: { auth: 'none', toolNames: 'underscore' },
      filesystem: { read: true, roots: [root] },
      audit: { tools: true },
    });
    server = await startCliHttp(['--config', config], childEnv(home));
    client = await appsClient(server.url);
    for (const name of ['notes.txt', 'missing.txt', '../outside.txt']) await client.callTool({ name: 'fs_read', arguments: { path: name } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, env: { ...process.env, HOME: home } });
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await client?.close();
    server?.child.kill('SIGTERM');
    if (home) removeDir(home);
  });

  test('audit.recent and audit.search name the view to an MCP Apps host', async () => {
    const { tools } = await client.listTools();
    const uriOf = (name: string) => (tools.find((t) => t.name === name)?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
    expect([uriOf('audit_recent'), uriOf('audit_search'), uriOf('fs_read')]).toEqual([VIEW, VIEW, undefined]);
  });

  test('lists the recorded calls, redacted, and searches them through audit.search', async () => {
    const recent = (await client.callTool({ name: 'audit_recent', arguments: { limit: 50 } })) as ViewResult;
    expect(recent.isError, textOf(recent)).toBeFalsy();
    const { page, frame, calls } = await openView(browser, client, VIEW, recent);
    try {
      await expect.poll(() => frame.locator('#title').textContent()).toMatch(/^Recent calls: \d+ calls$/);
      const tools = await frame.locator('#rows tr td:nth-child(3)').allTextContents();
      expect(tools.filter((t) => t === 'fs_read')).toHaveLength(3);
      const outcomes = await frame.locator('#rows tr td:nth-child(5)').allTextContents();
      expect(outcomes).toContain('ok');
      expect(outcomes.some((o) => o !== 'ok')).toBe(true);
      expect(await frame.locator('#rows').textContent()).toContain('notes.txt');
      expect(await frame.locator('#rows').textContent()).not.toContain(SECRET_CONTENT);
      expect(await frame.locator('#rows tr td:nth-child(2)').first().textContent()).toBe('apps-host');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'view-activity.png'), fullPage: true });

      await frame.locator('#tool').fill('fs_read');
      await frame.locator('#words').fill('missing.txt');
      await frame.locator('#search').click();
      await expect.poll(() => frame.locator('#title').textContent()).toBe('Matching calls: 1 call');
      expect(calls.map((c) => c.call)).toEqual([
        expect.objectContaining({ name: 'audit_search', arguments: { tool: 'fs_read', words: ['missing.txt'], limit: 100 } }),
      ]);
      expect(await frame.locator('#rows tr td:nth-child(4)').textContent()).toContain('missing.txt');

      await frame.locator('#tool').fill('no_such_tool');
      await frame.locator('#words').fill('');
      await frame.locator('#words').press('Enter');
      await expect.poll(() => frame.locator('#status').textContent()).toBe('No recorded call matches.');
      expect(await frame.locator('#calls').isHidden()).toBe(true);
    } finally {
      await page.close();
    }
  }, 60_000);

  test('a refusal shows the same text a host without views shows', async () => {
    const refused = (await client.callTool({ name: 'audit_search', arguments: { since: 'yesterday-ish' } })) as ViewResult;
    expect(refused.isError).toBe(true);
    const { page, frame } = await openView(browser, client, VIEW, refused);
    try {
      await expect.poll(() => frame.locator('#title').textContent()).toBe('The audit log could not be read');
      expect(await frame.locator('#text').textContent()).toBe(textOf(refused));
    } finally {
      await page.close();
    }
  }, 60_000);
});
