/**
 * The live process view for real: a server that may run `sh` starts a real process that
 * prints for a while; the view, in headless Chromium inside the AppBridge host stand-in,
 * follows it through process.output calls the host forwards to the server, until it exits.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { appsClient, openView, textOf, type ViewResult } from '../helpers/view-host.js';
import { chromiumAvailable, CHROMIUM, CHROMIUM_ARGS } from '../tray/helpers/desktop.js';
import { SCREENSHOTS } from '../renderer/helpers/window-harness.js';

const VIEW = 'ui://chatgpt-mcp/process.html';

describe.skipIf(!chromiumAvailable())('the live process view in an MCP Apps host', () => {
  let root: string;
  let server: TestHttpServer;
  let client: Client;
  let browser: Browser;

  beforeAll(async () => {
    root = makeTempDir('process-view-');
    server = await startTestServer({
      filesystem: { read: true, roots: [root] },
      shell: { enabled: true, allowedCommands: ['sh'] },
      server: { toolNames: 'underscore' },
    });
    client = await appsClient(server.url);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, env: { ...process.env, HOME: root } });
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await server?.close();
    if (root) removeDir(root);
  });

  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ViewResult;

  test('follows a real process through process.output until it exits', async () => {
    const script = 'for i in 1 2 3 4; do echo "tick $i"; sleep 0.4; done; echo "warning: almost done" >&2; exit 3';
    const started = await call('process_start', { command: 'sh', args: ['-c', script] });
    expect(started.isError, textOf(started)).toBeFalsy();
    const handle = started.structuredContent!.processHandle as string;
    const { page, frame, calls } = await openView(browser, client, VIEW, started);
    try {
      await expect.poll(() => frame.locator('#state').textContent(), { timeout: 20_000 }).toMatch(/^exited with code 3 after \d+\.\d s$/);
      expect(await frame.locator('#out span.stdout').allTextContents()).toEqual(['tick 1', 'tick 2', 'tick 3', 'tick 4']);
      expect(await frame.locator('#out span.stderr').allTextContents()).toEqual(['warning: almost done']);
      // Every refresh was process.output on this handle, reading on from where the last one stopped.
      expect(calls.length).toBeGreaterThanOrEqual(1);
      for (const { call: c } of calls) expect(c).toMatchObject({ name: 'process_output', arguments: { processHandle: handle, waitMs: 5000 } });
      let read = (started.structuredContent as { stdoutBytes: number }).stdoutBytes === 0 ? 0 : -1;
      for (const { call: c, result } of calls) {
        if (read >= 0) expect((c.arguments as { stdoutOffset: number }).stdoutOffset).toBe(read);
        read = (result.structuredContent as { stdout: { nextOffset: number } }).stdout.nextOffset;
      }
      expect(read).toBe('tick 1\ntick 2\ntick 3\ntick 4\n'.length);
      expect(calls.at(-1)!.result.structuredContent).toMatchObject({ state: 'exited', exitCode: 3 });
      await page.screenshot({ path: path.join(SCREENSHOTS, 'view-process-exited.png') });
    } finally {
      await page.close();
    }
  }, 60_000);

  test('a chatty process is refreshed at most once a second, and following stops after ten minutes until asked again', async () => {
    const started = await call('process_start', { command: 'sh', args: ['-c', 'while :; do echo chatter; sleep 0.02; done'] });
    expect(started.isError, textOf(started)).toBeFalsy();
    const handle = started.structuredContent!.processHandle as string;
    const { page, frame, calls, pending } = await openView(browser, client, VIEW, started, { fakeClock: true });
    try {
      // Real time passes (output keeps coming) while the page's clock stands still: one refresh, then the wait between refreshes.
      await expect.poll(() => calls.length).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(calls.length).toBe(1);
      // Ten minutes of the page's time, a second at a time, each once the refresh under way (real time: seconds on a
      // loaded machine) has come back, as in real use: never more than one refresh a second, then it stops.
      let seconds = 0;
      const tick = async () => {
        await expect.poll(pending, { timeout: 30_000 }).toBe(0);
        await page.clock.runFor(1000);
        seconds++;
      };
      const stopped = async () => !(await frame.locator('#resume').isHidden());
      while (seconds < 620 && !(await stopped())) await tick();
      await expect.poll(async () => (await stopped()) || (await tick(), false), { timeout: 30_000 }).toBe(true);
      expect(await frame.locator('#state').textContent()).toMatch(/^Running \(pid \d+\), .* \(stopped following after 10 minutes\)$/);
      expect(calls.length).toBeGreaterThan(50);
      expect(calls.length).toBeLessThanOrEqual(seconds + 2);
      const stoppedAt = calls.length;
      await page.clock.runFor(60_000);
      expect(calls.length).toBe(stoppedAt);
      await frame.locator('#resume').click();
      await expect.poll(() => calls.length).toBe(stoppedAt + 1);
      expect(await frame.locator('#resume').isHidden()).toBe(true);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'view-process-resumed.png') });
    } finally {
      await page.close();
      await call('process_stop', { processHandle: handle });
    }
  }, 120_000);

  test('a refused start shows the same text a host without views shows, and follows nothing', async () => {
    const refused = await call('process_start', { command: 'curl', args: ['https://example.com'] });
    expect(refused.isError).toBe(true);
    const { page, frame, calls } = await openView(browser, client, VIEW, refused);
    try {
      await expect.poll(() => frame.locator('#state').textContent()).toBe('The process did not start');
      expect(await frame.locator('#text').textContent()).toBe(textOf(refused));
      expect(calls).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);
});
