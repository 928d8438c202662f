/**
 * What strict hosts see: every tool granted, checked by the MCP Inspector's own portability
 * check (--strict, through npx with Node 22, as .ci/run pre-fetches it), and a strict-mode style
 * call (every optional argument sent as null) through a real client.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModernHttp, textOf } from '../helpers/clients.js';
import { childEnv, runCli, startCliHttp } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

/** Keep identical to the pre-fetch in .ci/run (npx caches by the package list). */
export const INSPECTOR = ['node@22.23.3', '@modelcontextprotocol/inspector@2.12.0'] as const;

let home: string;
let server: Awaited<ReturnType<typeof startCliHttp>>;
let token: string;
beforeAll(async () => {
  home = makeTempDir();
  const root = path.join(home, 'root');
  fs.mkdirSync(root);
  const config = writeJson(path.join(home, 'everything.json'), {
    filesystem: { write: true, roots: [root] },
    shell: { enabled: true, allowedCommands: ['ls'] },
    process: { list: true, kill: true },
    desktop: { hostDisplayAccess: true, screen: true, input: true, browser: true, appControl: true, apps: { tool: { path: '/bin/true' } } },
    services: { allowed: ['nginx'], control: true },
    chatgpt: { searchFetch: true },
  });
  const env = childEnv(home);
  server = await startCliHttp(['--config', config], env);
  token = (await runCli(['token', 'show', '--config', config], env)).stdout.trim();
});
afterAll(async () => {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('close', resolve));
  removeDir(home);
});

function inspector(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['-y', ...INSPECTOR.flatMap((p) => ['-p', p]), '--', 'mcp-inspector', '--cli', ...args], {
      env: { ...process.env, HOME: process.env.HOME },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('portability of every tool', () => {
  it('the MCP Inspector --strict finds no portability problem', async () => {
    const run = await inspector([
      '--transport',
      'http',
      '--server-url',
      server.url,
      '--header',
      `Authorization: Bearer ${token}`,
      '--method',
      'tools/list',
      '--strict',
    ]);
    const findings = run.stderr.split('\n').filter((line) => line.trim() && !/^npm (warn|notice)/.test(line));
    expect(findings, run.stderr.slice(-2000)).toEqual([]);
    expect(run.code).toBe(0);
    const listed = JSON.parse(run.stdout) as { tools: Array<{ name: string }> };
    expect(listed.tools.length).toBeGreaterThan(30);
    for (const tool of listed.tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  }, 300_000);

  it('a strict-mode call works: optional arguments sent as null mean "not given"', async () => {
    const client = await connectModernHttp(server.url, token);
    try {
      const result = await client.callTool({ name: 'fs_write', arguments: { path: 'strict.txt', content: 'ok\n', mode: null, expectedSha256: null } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ bytesWritten: 3, created: true });
      const refused = await client.callTool({ name: 'fs_read', arguments: { path: 'strict.txt', maxbytes: 10 } });
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('an unknown property in a nested object is refused, named with its path, and nothing is done', async () => {
    const client = await connectModernHttp(server.url, token);
    try {
      await client.callTool({ name: 'fs_write', arguments: { path: 'nested.txt', content: 'a a\n' } });
      const refused = await client.callTool({
        name: 'fs_edit',
        arguments: { path: 'nested.txt', edits: [{ oldText: 'a', newText: 'b', replace_all: true }] },
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe(
        'Input validation error: Invalid arguments for tool fs_edit: edits.0.replace_all: unknown property "replace_all" in edits[0]; the properties there are: oldText, newText, replaceAll',
      );
      expect(fs.readFileSync(path.join(home, 'root', 'nested.txt'), 'utf8')).toBe('a a\n');
      // The same refusal as for an unknown argument at the top.
      const top = await client.callTool({ name: 'fs_read', arguments: { path: 'nested.txt', maxbytes: 10 } });
      expect(textOf(top)).toMatch(
        /^Input validation error: Invalid arguments for tool fs_read: maxbytes: unknown argument "maxbytes"; the arguments are: path, /,
      );
    } finally {
      await client.close();
    }
  });
});
