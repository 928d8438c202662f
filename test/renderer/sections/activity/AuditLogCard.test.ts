/**
 * The Activity page's audit log in the built settings window, in real headless Chromium, over a
 * real audit log: the bridge answers with the tray's own searchAuditForWindow over lines the
 * server's AuditLog wrote. The newest calls show at once; terms narrow them; a bad term says
 * what is allowed. Screenshot: test-artifacts/screenshots/activity-audit-log.png.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../../main/audit/audit-log.js';
import { auditDir } from '../../../../main/audit/audit-files.js';
import type { SettingsSnapshot } from '../../../../main/tray/bridge-api.js';
import { searchAuditForWindow } from '../../../../main/tray/audit-panel.js';
import { chromiumAvailable } from '../../../tray/helpers/desktop.js';
import { openPage, type OpenWindow, SCREENSHOTS, serveWindow } from '../../helpers/window-harness.js';

describe.skipIf(!chromiumAvailable())('the audit log on the Activity page', () => {
  let temp: string;
  let appDir: string;
  let window: OpenWindow;
  const errors: string[] = [];

  beforeAll(async () => {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-window-'));
    appDir = path.join(temp, 'app');
    let clock = Date.parse('2026-12-04T09:00:00Z');
    const log = new AuditLog({ dir: auditDir(appDir), maxFileBytes: 1 << 20, keepFiles: 2, secrets: [], now: () => new Date((clock += 60_000)) });
    const end = (
      tool: string,
      target: Record<string, unknown>,
      outcome: 'ok' | 'PATH_NOT_ALLOWED',
      caller: { kind: 'oauth'; id: string; name: string } | { kind: 'token' },
    ) => log.record({ phase: 'end', tool, exposed: tool.replace('.', '_'), id: 1, target, caller, durationMs: 3.2, outcome });
    const chatgpt = { kind: 'oauth' as const, id: 'c_7f3a', name: 'ChatGPT' };
    end('fs.read', { path: '/home/alex/notes/todo.md' }, 'ok', chatgpt);
    end('fs.read', { path: '/home/alex/.ssh/id_rsa' }, 'PATH_NOT_ALLOWED', chatgpt);
    end('shell.exec', { command: 'git', args: ['status'] }, 'ok', { kind: 'token' });
    end('fs.write', { path: '/home/alex/notes/plan.md', mode: 'create' }, 'ok', chatgpt);
    log.close();
    window = await serveWindow(temp);
  }, 180_000);

  afterAll(async () => {
    await window?.close();
    fs.rmSync(temp, { recursive: true, force: true });
  });

  async function bridge(method: string, args: unknown[]): Promise<unknown> {
    switch (method) {
      case 'load':
        return {
          configPath: path.join(temp, 'config.json'),
          exists: false,
          config: {},
          fileError: null,
          issues: [],
          homeDir: temp,
          platform: 'linux',
          status: { state: 'running', url: 'http://127.0.0.1:3210/mcp', toolCount: 3, auth: true },
          overrides: [],
          navigate: { section: 'activity' },
        } satisfies SettingsSnapshot;
      case 'listActivity':
        return [];
      case 'listChanges':
        return { ok: true, groups: [], dropped: [], recording: false };
      case 'listConnections':
        return { clients: [], pending: [] };
      case 'searchAudit':
        return searchAuditForWindow(appDir, String(args[0]));
      default:
        throw new Error(`unexpected bridge call ${method}`);
    }
  }

  const rows = (page: Page) => page.getByRole('table', { name: 'Recorded tool calls' }).locator('tbody tr');

  it('lists the newest calls first, narrows them by terms, and says what a bad term is', async () => {
    const page = await openPage(window.browser, window.pageUrl, bridge, errors, { height: 900 });
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await rows(page).first().waitFor();
    expect(await rows(page).count()).toBe(4);
    expect(await rows(page).first().textContent()).toContain('fs_write');
    expect(await rows(page).first().textContent()).toContain('by ChatGPT (OAuth c_7f3a)');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'activity-audit-log.png'), fullPage: true });

    await page.getByLabel('Search').fill('outcome=PATH_NOT_ALLOWED client=chatgpt');
    await page.getByLabel('Search').press('Enter');
    await page.getByText('The newest 1 match(es)').waitFor();
    expect(await rows(page).count()).toBe(1);
    expect(await rows(page).first().textContent()).toContain('/home/alex/.ssh/id_rsa');

    await page.getByLabel('Search').fill('git');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('by bearer token').waitFor();
    expect(await rows(page).count()).toBe(1);

    await page.getByLabel('Search').fill('colour=red');
    await page.getByLabel('Search').press('Enter');
    await page
      .getByRole('alert')
      .getByText(/unknown search key "colour": use tool=, client=/)
      .waitFor();
    expect(errors).toEqual([]);
  }, 60_000);
});
