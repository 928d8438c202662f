import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/tool-server.js';

// Hermetic: a fake xdg-open first on PATH records its argv (one argument per NUL-terminated record).
const linux = process.platform === 'linux';
let dir: string;
let record: string;
let savedPath: string | undefined;
let server: TestServer;

function fakeOpener(bin: string, exitCode: number): void {
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\0' "$#" "$@" > '${record}'\nexit ${exitCode}\n`, { mode: 0o755 });
}

function recordedArgs(): string[] {
  const parts = fs.readFileSync(record, 'utf8').split('\0').slice(0, -1);
  expect(Number(parts[0])).toBe(parts.length - 1);
  return parts.slice(1);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'browser-open-'));
  record = path.join(dir, 'argv');
  fakeOpener(path.join(dir, 'ok-bin'), 0);
  fakeOpener(path.join(dir, 'failing-bin'), 3);
  savedPath = process.env.PATH;
  process.env.PATH = `${path.join(dir, 'ok-bin')}${path.delimiter}${savedPath}`;
  server = await startTestServer({ desktop: { hostDisplayAccess: true, browser: true } });
});

afterAll(async () => {
  process.env.PATH = savedPath;
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!linux)('browser.open through xdg-open', () => {
  test('is listed as an open-world, non-destructive tool', async () => {
    const tool = (await server.client.listTools()).tools.find((t) => t.name === 'browser.open');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: true });
  });

  test('the normalized URL reaches the opener as exactly one unmangled argument', async () => {
    fs.rmSync(record, { force: true });
    const url = "https://example.com/a b/?q=x&y=1;z=$(id)&w=`id`&quote='x'&n=%20&u=ü";
    const result = await server.call('browser.open', { url });
    expect(result.isError, result.text).toBe(false);
    const opened = 'https://example.com/a%20b/?q=x&y=1;z=$(id)&w=`id`&quote=%27x%27&n=%20&u=%C3%BC';
    expect(result.structured).toEqual({ url: opened });
    expect(recordedArgs()).toEqual([opened]);
  });

  test.each([
    ['file:///etc/passwd', 'the file: scheme is not allowed; only http and https URLs can be opened'],
    ['javascript:alert(document.cookie)', 'the javascript: scheme is not allowed'],
    ['data:text/html,hi', 'the data: scheme is not allowed'],
    ['https://admin:secret@example.com/', 'user name or password'],
  ])('%s is refused before anything runs', async (url, reason) => {
    fs.rmSync(record, { force: true });
    const result = await server.call('browser.open', { url });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^INVALID_INPUT: /);
    expect(result.text).toContain(reason);
    expect(result.text).not.toContain('secret');
    expect(fs.existsSync(record)).toBe(false);
  });

  test('owner patterns limit what opens, and the denial lists them', async () => {
    const limited = await startTestServer({ desktop: { hostDisplayAccess: true, browser: true, browserUrls: ['https://*.example.com/*'] } });
    try {
      fs.rmSync(record, { force: true });
      const denied = await limited.call('browser.open', { url: 'https://evil.test/' });
      expect(denied.text).toBe('INVALID_INPUT: https://evil.test/ does not match desktop.browserUrls; allowed patterns: https://*.example.com/*');
      expect(fs.existsSync(record)).toBe(false);
      const allowed = await limited.call('browser.open', { url: 'https://docs.example.com/x' });
      expect(allowed.isError, allowed.text).toBe(false);
      expect(recordedArgs()).toEqual(['https://docs.example.com/x']);
    } finally {
      await limited.close();
    }
  });

  test('an opener failure is a clear OS_ERROR', async () => {
    process.env.PATH = `${path.join(dir, 'failing-bin')}${path.delimiter}${savedPath}`;
    try {
      const result = await server.call('browser.open', { url: 'https://example.com/' });
      expect(result.text).toBe('OS_ERROR: xdg-open could not open the URL (exit code 3: xdg-open found no browser or desktop tool to open it with)');
    } finally {
      process.env.PATH = `${path.join(dir, 'ok-bin')}${path.delimiter}${savedPath}`;
    }
  });

  test('a missing opener is a clear OS_ERROR', async () => {
    process.env.PATH = path.join(dir, 'empty');
    try {
      const result = await server.call('browser.open', { url: 'https://example.com/' });
      expect(result.text).toBe('OS_ERROR: xdg-open is not available on this computer (install xdg-utils, or open the URL another way)');
    } finally {
      process.env.PATH = `${path.join(dir, 'ok-bin')}${path.delimiter}${savedPath}`;
    }
  });
});

describe('gating', () => {
  test.each([
    ['master off', { hostDisplayAccess: false, browser: true }],
    ['browser off', { hostDisplayAccess: true, browser: false }],
  ])('browser.open is absent and never runs with %s', async (_label, desktop) => {
    const off = await startTestServer({ desktop });
    try {
      fs.rmSync(record, { force: true });
      expect(await off.toolNames()).not.toContain('browser.open');
      // Not granted: answered as such (naming the setting), and nothing runs.
      const refused = await off.call('browser.open', { url: 'https://example.com/' });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/^CAPABILITY_DISABLED: browser\.open exists but is not granted .*desktop\.browser/);
      expect(fs.existsSync(record)).toBe(false);
    } finally {
      await off.close();
    }
  });
});
