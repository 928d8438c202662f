/**
 * An HTTP upstream: a second instance of this product on another loopback port, with a bearer
 * token, reached through the gateway's Streamable HTTP client with the token from the secret
 * store. Its tools appear under their prefix, and its refusals come back as its own answers; a
 * wrong token is an error naming the upstream, and the token never shows in an answer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModernHttp, connectLegacyStdio } from '../helpers/clients.js';
import { gatewayHome, texts, type GatewayHome } from '../helpers/gateway.js';
import { startCliHttp } from '../helpers/servers.js';
import { writeJson } from '../helpers/temp.js';

const TOKEN = 'upstream-token-0123456789abcdef';
let home: GatewayHome;
let other: Awaited<ReturnType<typeof startCliHttp>>;

beforeAll(async () => {
  home = gatewayHome();
  // The other instance: its own config, a token, a read-only root.
  const otherConfig = path.join(home.home, 'other.json');
  // Whole answers (no answer budget): one can be larger than the front takes.
  writeJson(otherConfig, { server: { token: TOKEN, answerBudgetTokens: 0 }, filesystem: { roots: [home.data] } });
  fs.writeFileSync(path.join(home.data, 'remote.txt'), 'served by the other instance\n');
  other = await startCliHttp(['--config', otherConfig], home.env);
  home.storeSecrets({ 'other/token': TOKEN, 'wrong/token': 'not-the-token-0123456789' });
  home.write({
    gateway: {
      servers: [
        { name: 'other', url: other.url, bearerToken: { secret: 'other/token' }, start: 'at-start' },
        { name: 'wrong', url: other.url, bearerToken: { secret: 'wrong/token' } },
      ],
    },
  });
});

afterAll(() => {
  other?.child.kill('SIGTERM');
  home?.remove();
});

describe('an HTTP upstream', () => {
  it("its tools appear under its prefix and answer (the other instance's fs_read)", async () => {
    const client = await connectLegacyStdio(['--config', home.configFile], home.env as Record<string, string>);
    try {
      const names = (await client.rawListTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['system_info', 'other_system_info', 'other_fs_read']));
      const read = await client.callTool({ name: 'other_fs_read', arguments: { path: path.join(home.data, 'remote.txt') } });
      expect(read.isError).toBeFalsy();
      expect(read.structuredContent).toMatchObject({ content: 'served by the other instance\n' });
      // Its own refusal, passed through as its answer.
      const refused = await client.callTool({ name: 'other_fs_read', arguments: { path: '/etc/hostname' } });
      expect(refused.isError).toBe(true);
      expect(texts(refused)).toMatch(/^PATH_NOT_ALLOWED: /);
    } finally {
      await client.close();
    }
  });

  it("an answer over this server's server.maxRequestBytes is not read further, and says so", async () => {
    fs.writeFileSync(path.join(home.data, 'large.txt'), 'line of text\n'.repeat(8000));
    const small = path.join(home.home, 'small-front.json');
    writeJson(small, {
      ...JSON.parse(fs.readFileSync(home.configFile, 'utf8')),
      server: { maxRequestBytes: 32 * 1024 },
      filesystem: { maxWriteBytes: 16 * 1024 },
    });
    const client = await connectLegacyStdio(['--config', small], home.env as Record<string, string>);
    try {
      const read = await client.callTool({ name: 'other_fs_read', arguments: { path: path.join(home.data, 'large.txt') } });
      expect(read.isError).toBe(true);
      expect(texts(read)).toContain('over 32768 bytes (server.maxRequestBytes)');
      // Ended as a stdio upstream that sent too much is; it connects again (after its backoff) and answers.
      await expect
        .poll(async () => (await client.callTool({ name: 'other_system_info', arguments: {} })).isError ?? false, { timeout: 15_000, interval: 500 })
        .toBe(false);
    } finally {
      await client.close();
    }
  });

  it('a wrong token is an error naming the upstream, without the token', async () => {
    const server = await startCliHttp(['--config', home.configFile], home.env);
    const client = await connectModernHttp(server.url);
    try {
      const status = await client.callTool({ name: 'system_info', arguments: {} });
      const upstreams = (status.structuredContent as { upstreams: Array<{ name: string; state: string; lastError: string | null }> }).upstreams;
      expect(upstreams.find((u) => u.name === 'other')).toMatchObject({ state: 'running' });
      const wrong = upstreams.find((u) => u.name === 'wrong')!;
      expect(wrong.state).toBe('crashed');
      expect(wrong.lastError).toMatch(/^wrong could not start: /);
      expect(JSON.stringify(status)).not.toContain('not-the-token');
      expect(JSON.stringify(status)).not.toContain(TOKEN);
    } finally {
      await client.close();
      server.child.kill('SIGTERM');
    }
  });
});
