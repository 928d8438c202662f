/**
 * The bearer token never reaches the log, even when a caller puts it where a log field comes
 * from: a path named after it (tool call targets) or a request path (refused requests).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectModernHttp } from '../helpers/clients.js';
import { childEnv, startCliHttp, startTestServer } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

const TOKEN = 'log-scrub-token-0123456789abcdef';

let home: string;
let root: string;
beforeAll(() => {
  home = makeTempDir();
  root = path.join(home, 'root');
  fs.mkdirSync(path.join(root, TOKEN), { recursive: true });
  fs.writeFileSync(path.join(root, TOKEN, 'notes.txt'), 'hello');
});
afterAll(() => removeDir(home));

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

describe('the token in logged fields', () => {
  it('a tool call on a path containing the token is logged with the token replaced', async () => {
    const server = await startTestServer({ server: { token: TOKEN }, filesystem: { roots: [root] } });
    open.push(server);
    const client = await connectModernHttp(server.url, TOKEN);
    open.push(client);
    const read = await client.callTool({ name: 'fs.read', arguments: { path: `${TOKEN}/notes.txt` } });
    expect(read.isError).toBeFalsy();
    await client.callTool({ name: 'fs.read', arguments: { path: `${TOKEN}/missing.txt` } });
    const calls = server.logLines.filter((line) => line.includes('"tool":"fs.read"'));
    expect(calls).toHaveLength(2);
    for (const line of calls) {
      expect(line).not.toContain(TOKEN);
      expect(JSON.parse(line).path).toMatch(/^<redacted>\/(notes|missing)\.txt$/);
    }
    expect(server.logLines.join('\n')).not.toContain(TOKEN);
  });

  it('a refused request whose path carries the token is logged without it', async () => {
    const config = writeJson(path.join(home, 'config.json'), { server: { token: TOKEN } });
    const server = await startCliHttp(['--config', config], childEnv(home));
    try {
      const url = new URL(server.url);
      // A Host the server does not serve: refused and logged with its path.
      const refused = await new Promise<number>((resolve, reject) => {
        const request = http.get({ host: url.hostname, port: url.port, path: `/${TOKEN}/mcp`, headers: { host: `evil.test:${url.port}` } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        request.on('error', reject);
      });
      expect(refused).toBe(403);
      const unauthorized = await fetch(`${server.url}?${TOKEN}`, { method: 'POST', headers: { authorization: 'Bearer wrong-token-0123456789' }, body: '{}' });
      expect(unauthorized.status).toBe(401);
      for (let i = 0; i < 50 && (server.stderr().match(/request refused/g) ?? []).length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      const log = server.stderr();
      expect(log).toMatch(/"msg":"request refused","reason":"host","path":"\/<redacted>\/mcp"/);
      expect(log).not.toContain(TOKEN);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});
