/**
 * The core tools end to end: real clients (v2 pinned to 2026-07-28 and
 * v1 legacy) over HTTP and stdio, a temp root, real files and real processes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../main/config/schema.js';
import { connectLegacyHttp, connectLegacyStdio, connectModernHttp, connectModernStdio, textOf, type TestClient } from '../helpers/clients.js';
import { childEnv, startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeRootAndOutside, removeDir, writeJson } from '../helpers/temp.js';

let home: string;
let root: string;
let outside: string;
let server: TestHttpServer;
let configFile: string;

const grants = (): ConfigInput => ({
  filesystem: { write: true, roots: [root] },
  shell: { enabled: true, allowedCommands: ['echo', 'sh', 'cat'], maxRuntimeMs: 3000 },
  process: { list: true, kill: true },
});

beforeAll(async () => {
  ({ home, root, outside } = makeRootAndOutside());
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside the root');
  fs.symlinkSync(outside, path.join(root, 'escape'));
  configFile = writeJson(path.join(home, 'config.json'), grants());
  server = await startTestServer(grants());
});
afterAll(async () => {
  await server.close();
  removeDir(home);
});

const clients: Array<[string, () => Promise<TestClient>]> = [
  ['modern HTTP', () => connectModernHttp(server.url)],
  ['legacy HTTP', () => connectLegacyHttp(server.url)],
  ['modern stdio', () => connectModernStdio(['--config', configFile], childEnv(home) as Record<string, string>)],
  ['legacy stdio', () => connectLegacyStdio(['--config', configFile], childEnv(home) as Record<string, string>)],
];

describe.each(clients)('%s', (kind, connect) => {
  let client: TestClient;
  const file = () => `${kind.replace(' ', '-')}.txt`;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client.close());

  it('lists the granted tools with accurate annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'answer.more',
      'fs.delete',
      'fs.edit',
      'fs.find',
      'fs.list',
      'fs.mkdir',
      'fs.move',
      'fs.patch',
      'fs.read',
      'fs.search',
      'fs.stat',
      'fs.write',
      'process.kill',
      'process.list',
      'process.output',
      'process.start',
      'process.status',
      'process.stop',
      'process.write',
      'shell.exec',
      'system.info',
    ]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(byName['fs.read']).toMatchObject({ readOnlyHint: true });
    expect(byName['fs.delete']).toMatchObject({ destructiveHint: true });
    expect(byName['fs.search']).toMatchObject({ readOnlyHint: true });
    expect(byName['fs.patch']).toMatchObject({ destructiveHint: true });
    expect(byName['shell.exec']).toMatchObject({ destructiveHint: true, openWorldHint: true });
  });

  it('writes, reads back and lists a file in the root, with a matching sha256', async () => {
    const written = await client.callTool({ name: 'fs.write', arguments: { path: file(), content: 'héllo\n', mode: 'create' } });
    expect(written.isError).toBeFalsy();
    expect(written.structuredContent).toMatchObject({ path: path.join(root, file()), bytesWritten: 7, created: true });
    const read = await client.callTool({ name: 'fs.read', arguments: { path: path.join(root, file()) } });
    expect(read.structuredContent).toMatchObject({
      content: 'héllo\n',
      bytes: 7,
      totalBytes: 7,
      truncated: false,
      sha256: (written.structuredContent as { sha256: string }).sha256,
    });
    expect(fs.readFileSync(path.join(root, file()), 'utf8')).toBe('héllo\n');
    const listed = await client.callTool({ name: 'fs.list', arguments: { path: root } });
    expect((listed.structuredContent as { entries: Array<{ name: string }> }).entries.map((e) => e.name)).toContain(file());
  });

  it('refuses to overwrite a file that changed since it was read', async () => {
    const stale = 'a'.repeat(64);
    const result = await client.callTool({ name: 'fs.write', arguments: { path: file(), content: 'clobber', expectedSha256: stale } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^PRECONDITION_FAILED: /);
    expect(fs.readFileSync(path.join(root, file()), 'utf8')).toBe('héllo\n');
  });

  it.each([
    ['an absolute path outside', () => path.join(outside, 'secret.txt')],
    ['a traversal', () => '../outside/secret.txt'],
    ['a symlink escape', () => 'escape/secret.txt'],
    ['a system file', () => '/etc/passwd'],
  ])('refuses %s with PATH_NOT_ALLOWED naming the root', async (_name, target) => {
    const result = await client.callTool({ name: 'fs.read', arguments: { path: target() } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^PATH_NOT_ALLOWED: /);
    expect(textOf(result)).toContain(root);
    expect(textOf(result)).not.toContain('outside the root');
  });

  it('runs an allowed command and returns a structured result, non-zero exit included', async () => {
    const ok = await client.callTool({ name: 'shell.exec', arguments: { command: 'echo', args: ['hello', '$HOME', '&&', 'rm'] } });
    expect(ok.structuredContent).toMatchObject({ exitCode: 0, stdout: 'hello $HOME && rm\n', timedOut: false });
    const failing = await client.callTool({ name: 'shell.exec', arguments: { command: 'sh', args: ['-c', 'echo oops >&2; exit 3'] } });
    expect(failing.isError).toBeFalsy();
    expect(failing.structuredContent).toMatchObject({ exitCode: 3, stderr: 'oops\n' });
  });

  it('refuses a disallowed executable with COMMAND_NOT_ALLOWED listing the allowed ones', async () => {
    const result = await client.callTool({ name: 'shell.exec', arguments: { command: 'rm', args: ['-rf', root] } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('COMMAND_NOT_ALLOWED: rm is not in the allowed commands (echo, sh, cat)');
    expect(fs.existsSync(root)).toBe(true);
  });

  it('kills a command at its timeout and says so', async () => {
    const result = await client.callTool({ name: 'shell.exec', arguments: { command: 'sh', args: ['-c', 'sleep 20'], timeoutMs: 300 } });
    expect(result.structuredContent).toMatchObject({ timedOut: true });
    expect((result.structuredContent as { durationMs: number }).durationMs).toBeLessThan(5000);
  });
});

describe('disabled capabilities', () => {
  it('are not listed and never execute, over every transport', async () => {
    const readOnlyServer = await startTestServer({ filesystem: { write: false, roots: [root] } });
    const target = path.join(root, 'must-not-exist.txt');
    try {
      for (const client of [await connectModernHttp(readOnlyServer.url), await connectLegacyHttp(readOnlyServer.url)]) {
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names.sort()).toEqual(['answer.more', 'fs.find', 'fs.list', 'fs.read', 'fs.search', 'fs.stat', 'system.info']);
        for (const [name, args] of [
          ['fs.write', { path: target, content: 'x' }],
          ['fs.edit', { path: target, edits: [{ oldText: 'a', newText: 'b' }] }],
          ['fs.patch', { patch: `*** Begin Patch\n*** Add File: ${target}\n+x\n*** End Patch` }],
          ['shell.exec', { command: 'touch', args: [target] }],
          ['process.kill', { pid: process.pid }],
        ] as const) {
          const outcome = await client.callTool({ name, arguments: args }).then(
            (r) => (r.isError ? textOf(r) : 'executed'),
            (e: Error) => e.message,
          );
          // It exists but is not granted: the answer says so and names the setting; nothing runs.
          expect(outcome).toMatch(
            new RegExp(`^CAPABILITY_DISABLED: ${name.replace('.', '\\.')} exists but is not granted on this server; the owner grants it with `),
          );
        }
        await client.close();
      }
      expect(fs.existsSync(target)).toBe(false);
    } finally {
      await readOnlyServer.close();
    }
  });

  it('lists roots marked read-only but refuses writes into them', async () => {
    const ro = await startTestServer({ filesystem: { write: true, roots: [{ path: root, readOnly: true }, outside] } });
    try {
      const client = await connectModernHttp(ro.url);
      const result = await client.callTool({ name: 'fs.write', arguments: { path: path.join(root, 'x.txt'), content: 'x' } });
      expect(textOf(result)).toMatch(/^PATH_NOT_ALLOWED: .*read-only/);
      expect(textOf(result)).toContain(outside);
      await client.close();
    } finally {
      await ro.close();
    }
  });
});
