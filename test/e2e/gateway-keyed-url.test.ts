/**
 * An HTTP upstream whose URL holds its key in the path (`/s/<KEY>/mcp`): the key is scrubbed
 * from what the upstream answers as a stored secret is, and never printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdioHost, gatewayHome, texts, type GatewayHome } from '../helpers/gateway.js';
import { REPO_ROOT, runCli } from '../helpers/servers.js';

const KEY = 'k3yInThePath0123456789abcdef';
let home: GatewayHome;
let upstream: ChildProcess;
let url: string;

beforeAll(async () => {
  home = gatewayHome();
  upstream = spawn(process.execPath, [path.join(REPO_ROOT, 'test/e2e/fixtures/keyed-http-upstream.mjs'), KEY], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => upstream.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  url = `http://127.0.0.1:${port}/s/${KEY}/mcp`;
  home.write({ gateway: { servers: [{ name: 'keyed', url }] } });
});

afterAll(() => {
  upstream?.kill();
  home?.remove();
});

describe('an HTTP upstream with its key in the URL', () => {
  it('has the key scrubbed from its answers, and printed <redacted>', { timeout: 60_000 }, async () => {
    const host = await connectStdioHost(home);
    try {
      const answer = await host.callTool({ name: 'keyed_where', arguments: {} });
      expect(answer.isError).toBeFalsy();
      const text = texts(answer as Parameters<typeof texts>[0]);
      expect(text).toBe('reached at /s/<redacted>/mcp');
    } finally {
      await host.close();
    }
    const check = await runCli(['config', 'check', '--config', home.configFile], home.env, 30_000);
    expect(check.stderr).toContain(`keyed (keyed_*): http://127.0.0.1:${new URL(url).port}/s/<redacted>/mcp, lazy`);
    expect(check.stdout + check.stderr).not.toContain(KEY);
  });
});
