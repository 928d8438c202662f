/**
 * The change review view for real: a server with a writable root applies fs.patch and
 * fs.edit; their real answers go to the view in headless Chromium inside the AppBridge host
 * stand-in, which shows each file's diff, hunk by hunk. Screenshots in test-artifacts/.
 */
import { execFileSync } from 'node:child_process';
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

const VIEW = 'ui://chatgpt-mcp/changes.html';
const LINES = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);

describe.skipIf(!chromiumAvailable())('the change review view in an MCP Apps host', () => {
  let root: string;
  let server: TestHttpServer;
  let client: Client;
  let browser: Browser;

  beforeAll(async () => {
    root = makeTempDir('change-view-');
    fs.writeFileSync(path.join(root, 'notes.txt'), `${LINES.join('\n')}\n`);
    fs.writeFileSync(path.join(root, 'app.js'), 'const greeting = "hello";\nconsole.log(greeting);\n');
    server = await startTestServer({ filesystem: { read: true, write: true, roots: [root] }, server: { toolNames: 'underscore' } });
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

  test('fs.edit and fs.patch name the view to an MCP Apps host', async () => {
    const { tools } = await client.listTools();
    const uriOf = (name: string) => (tools.find((t) => t.name === name)?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
    expect([uriOf('fs_edit'), uriOf('fs_patch'), uriOf('fs_read')]).toEqual([VIEW, VIEW, undefined]);
  });

  test('fs.patch: one block per file, each hunk and line as the diff says', async () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: notes.txt',
      '@@',
      ' line 2',
      '-line 3',
      '+line three',
      ' line 4',
      '@@',
      ' line 30',
      '-line 31',
      '+line thirty-one',
      '+line thirty-one and a half',
      ' line 32',
      '*** Add File: docs/new.md',
      '+# New',
      '+text',
      '*** End Patch',
    ].join('\n');
    const result = await call('fs_patch', { patch });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { page, frame } = await openView(browser, client, VIEW, result);
    try {
      await expect.poll(() => frame.locator('details.file').count()).toBe(2);
      expect(await frame.locator('#title').textContent()).toBe('2 files changed');
      const [updated, added] = [frame.locator('details.file').nth(0), frame.locator('details.file').nth(1)];
      expect(await updated.locator('summary').textContent()).toBe(`updated${path.join(fs.realpathSync(root), 'notes.txt')}+3 −2`);
      expect(await updated.locator('.hunk').count()).toBe(2);
      expect(await updated.locator('.add').allTextContents()).toEqual(['+line three', '+line thirty-one', '+line thirty-one and a half']);
      expect(await updated.locator('.del').allTextContents()).toEqual(['-line 3', '-line 31']);
      expect(await added.locator('summary').textContent()).toContain(path.join('docs', 'new.md'));
      expect(await added.locator('.add').allTextContents()).toEqual(['+# New', '+text']);
      // The text answer is not repeated when the diffs are shown.
      expect(await frame.locator('#text').isHidden()).toBe(true);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'view-changes-patch.png'), fullPage: true });
    } finally {
      await page.close();
    }
  }, 60_000);

  test('fs.edit: the one file, and a dry run says nothing changed', async () => {
    const result = await call('fs_edit', { path: 'app.js', edits: [{ oldText: '"hello"', newText: '"hi"' }], dryRun: true });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { page, frame } = await openView(browser, client, VIEW, result);
    try {
      await expect.poll(() => frame.locator('#title').textContent()).toBe('Dry run, nothing changed: 1 file would change');
      expect(await frame.locator('.add').allTextContents()).toEqual(['+const greeting = "hi";']);
      expect(await frame.locator('.del').allTextContents()).toEqual(['-const greeting = "hello";']);
      expect(fs.readFileSync(path.join(root, 'app.js'), 'utf8')).toContain('"hello"');
    } finally {
      await page.close();
    }
  }, 60_000);

  test('in ChatGPT, whose answers keep the diff in the text only, the view still shows it (from the result’s _meta)', async () => {
    const chatgpt = await appsClient(server.url, 'openai-mcp');
    try {
      const result = (await chatgpt.callTool({
        name: 'fs_edit',
        arguments: { path: 'app.js', edits: [{ oldText: 'greeting)', newText: 'greeting, 1)' }], dryRun: true },
      })) as ViewResult & {
        _meta?: Record<string, unknown>;
      };
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result.structuredContent).not.toHaveProperty('diff');
      expect(textOf(result)).toContain('+console.log(greeting, 1);');
      const { page, frame } = await openView(browser, chatgpt, VIEW, result);
      try {
        await expect.poll(() => frame.locator('.add').allTextContents()).toEqual(['+console.log(greeting, 1);']);
      } finally {
        await page.close();
      }
    } finally {
      await chatgpt.close();
    }
  }, 60_000);

  test('git.diff: the working tree against the index, per file, from a repository the server reads', async () => {
    const repo = makeTempDir('change-view-git-');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, env: { ...process.env, HOME: repo } });
    fs.writeFileSync(path.join(repo, 'keep.txt'), 'alpha\nbeta\n');
    fs.writeFileSync(path.join(repo, 'gone.txt'), 'old\n');
    fs.writeFileSync(path.join(repo, 'pic.bin'), Buffer.from([0, 1, 2, 3]));
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'first');
    fs.writeFileSync(path.join(repo, 'keep.txt'), 'alpha\nBETA\n');
    fs.rmSync(path.join(repo, 'gone.txt'));
    fs.writeFileSync(path.join(repo, 'pic.bin'), Buffer.from([0, 9, 9, 9]));
    const gitServer = await startTestServer({ filesystem: { read: true, roots: [repo] }, git: { read: true }, server: { toolNames: 'underscore' } });
    const gitClient = await appsClient(gitServer.url);
    try {
      const { tools } = await gitClient.listTools();
      expect(tools.filter((t) => (t._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri === VIEW).map((t) => t.name)).toEqual([
        'git_diff',
        'git_show',
      ]);
      const result = (await gitClient.callTool({ name: 'git_diff', arguments: { path: repo } })) as ViewResult;
      expect(result.isError, textOf(result)).toBeFalsy();
      const { page, frame } = await openView(browser, gitClient, VIEW, result);
      try {
        await expect.poll(() => frame.locator('details.file').count()).toBe(3);
        expect(await frame.locator('#title').textContent()).toBe('3 files changed');
        const [deleted, modified, binary] = [0, 1, 2].map((i) => frame.locator('details.file').nth(i));
        expect(await binary!.locator('summary').textContent()).toBe('modifiedpic.binbinary');
        expect(await deleted!.locator('summary').textContent()).toBe('deletedgone.txt+0 −1');
        expect(await modified!.locator('summary').textContent()).toBe('modifiedkeep.txt+1 −1');
        expect(await modified!.locator('.add').allTextContents()).toEqual(['+BETA']);
        expect(await modified!.locator('.del').allTextContents()).toEqual(['-beta']);
        await page.screenshot({ path: path.join(SCREENSHOTS, 'view-changes-git-diff.png'), fullPage: true });
      } finally {
        await page.close();
      }
    } finally {
      await gitClient.close();
      await gitServer.close();
      removeDir(repo);
    }
  }, 60_000);

  test('a refused change shows the same text a host without views shows', async () => {
    const result = await call('fs_edit', { path: '../outside.txt', edits: [{ oldText: 'a', newText: 'b' }] });
    expect(result.isError).toBe(true);
    const { page, frame } = await openView(browser, client, VIEW, result);
    try {
      await expect.poll(() => frame.locator('#title').textContent()).toBe('The change was refused');
      expect(await frame.locator('#text').textContent()).toBe(textOf(result));
      expect(await frame.locator('#text').isVisible()).toBe(true);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'view-changes-refused.png') });
    } finally {
      await page.close();
    }
  }, 60_000);
});
