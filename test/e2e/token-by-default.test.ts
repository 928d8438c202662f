/**
 * The headless HTTP server is never open by accident: with no token configured, the first start
 * creates one (owner-only file), /mcp refuses calls without it, the start log says where it is
 * without printing it, `token show` prints it, and only an explicit `server.auth: "none"` serves
 * without one (with a warning in the log).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectModernHttp } from '../helpers/clients.js';
import { childEnv, runCli, startCliHttp } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

let home: string;
const children: Array<{ kill(): boolean }> = [];
beforeEach(() => {
  home = makeTempDir();
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
  removeDir(home);
});

const tokenFile = () => path.join(home, '.config', 'chatgpt-mcp', 'token');
const mcpStatus = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  }).then((response) => response.status);

describe('serve --http without a configured token', () => {
  it('creates an owner-only token on first start, refuses /mcp without it, and never logs it', async () => {
    const env = childEnv(home);
    const server = await startCliHttp([], env);
    children.push(server.child);

    const token = fs.readFileSync(tokenFile(), 'utf8').trim();
    expect(token.length).toBeGreaterThanOrEqual(32);
    if (process.platform !== 'win32') expect(fs.statSync(tokenFile()).mode & 0o077).toBe(0);
    // Named the way it was started here (node and the script), not as if it were installed.
    expect(server.stderr()).toMatch(/"node [^"]*cli\.js token show\\"/);
    expect(server.stderr()).not.toContain(token);

    expect(await mcpStatus(server.url)).toBe(401);
    expect(await mcpStatus(server.url, { authorization: 'Bearer not-the-token' })).toBe(401);
    const client = await connectModernHttp(server.url, token);
    expect((await client.callTool({ name: 'system_info', arguments: {} })).isError).toBeFalsy();
    await client.close();

    const shown = await runCli(['token', 'show'], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(token);
  });

  it('keeps the same token across restarts', async () => {
    const env = childEnv(home);
    const first = await startCliHttp([], env);
    children.push(first.child);
    const token = fs.readFileSync(tokenFile(), 'utf8').trim();
    first.child.kill();
    const second = await startCliHttp([], env);
    children.push(second.child);
    expect(fs.readFileSync(tokenFile(), 'utf8').trim()).toBe(token);
    expect(await mcpStatus(second.url)).toBe(401);
  });

  it('serves without a credential only when server.auth is "none", and warns', async () => {
    const config = writeJson(path.join(home, 'open.json'), { server: { auth: 'none' } });
    const server = await startCliHttp(['--config', config], childEnv(home));
    children.push(server.child);
    expect(await mcpStatus(server.url)).toBe(200);
    expect(server.stderr()).toContain('no authentication');
    expect(fs.existsSync(tokenFile())).toBe(false);
  });
});
