/** `chatgpt-mcp version --check` as a person runs it: the built CLI against release metadata served on loopback. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, runCli } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { VERSION } from '../../main/version.js';

let server: http.Server;
let base: string;
let home: string;
const feeds: Record<string, { status: number; body: string }> = {
  '/newer/latest-linux.yml': { status: 200, body: `version: 99.0.0\nfiles:\n  - url: x.AppImage\npath: x.AppImage\n` },
  '/same/latest-linux.yml': { status: 200, body: `version: ${VERSION}\n` },
  '/junk/latest-linux.yml': { status: 200, body: '<html>not metadata</html>' },
};

beforeAll(async () => {
  home = makeTempDir('version-');
  server = http.createServer((req, res) => {
    const feed = feeds[req.url ?? ''];
    res.writeHead(feed?.status ?? 404).end(feed?.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  removeDir(home);
});

describe('chatgpt-mcp version', () => {
  it('prints this version without looking anywhere', async () => {
    const run = await runCli(['version'], childEnv(home));
    expect(run.stdout.trim()).toBe(VERSION);
  });

  it('--check names a newer release', async () => {
    const run = await runCli(['version', '--check', '--feed', `${base}/newer/latest-linux.yml`], childEnv(home));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`99.0.0 is available (this is ${VERSION})`);
  });

  it('--check says when this is the latest', async () => {
    const run = await runCli(['version', '--check', '--feed', `${base}/same/latest-linux.yml`], childEnv(home));
    expect(run.stdout).toContain(`${VERSION} is the latest release`);
  });

  it.each([
    ['/junk/latest-linux.yml', 'holds no "version:" line'],
    ['/missing/latest-linux.yml', 'answered HTTP 404'],
  ])('%s: says why nothing could be checked', async (feed, message) => {
    const run = await runCli(['version', '--check', '--feed', `${base}${feed}`], childEnv(home));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(message);
  });

  it('reads metadata over https only, but for this computer', async () => {
    const run = await runCli(['version', '--check', '--feed', 'http://example.com/latest-linux.yml'], childEnv(home));
    expect(run.code).toBe(64);
    expect(run.stderr).toContain('read over https');
  });
});
