/**
 * Attacks found in review, kept as tests: each drove a real server through tool calls alone.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../main/config/load.js';
import { FilesystemPolicy } from '../../main/policy/filesystem.js';
import type { ConfigInput } from '../../main/config/schema.js';
import { connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { localPort } from '../helpers/adapter.js';
import { makeConfig, startTestServer } from '../helpers/servers.js';
import { makeRootAndOutside, removeDir, writeJson } from '../helpers/temp.js';

let home: string;
let root: string;
let outside: string;
beforeAll(() => {
  ({ home, root, outside } = makeRootAndOutside());
});
afterAll(() => removeDir(home));

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function connect(input: ConfigInput): Promise<TestClient> {
  const server = await startTestServer(input);
  open.push(server);
  const client = await connectModernHttp(server.url);
  open.push(client);
  return client;
}

describe('check-then-use races between fs tools', () => {
  it('never reads or writes outside the roots while another call swaps a directory for a symlink', async () => {
    const race = path.join(root, 'race');
    fs.mkdirSync(path.join(race, 'd'), { recursive: true });
    fs.writeFileSync(path.join(race, 'd', 'passwd.txt'), 'inside');
    fs.writeFileSync(path.join(outside, 'passwd.txt'), 'OUTSIDE-SECRET');
    fs.symlinkSync(outside, path.join(race, 'link'));
    const client = await connect({ filesystem: { write: true, roots: [root] } });

    const move = (source: string, destination: string) => client.callTool({ name: 'fs.move', arguments: { source, destination } });
    const read = () => client.callTool({ name: 'fs.read', arguments: { path: 'race/d/passwd.txt' } });
    const write = () => client.callTool({ name: 'fs.write', arguments: { path: 'race/d/pwned.txt', content: 'x' } });

    // Each state on its own first: through the link, reads and writes are refused.
    await move('race/d', 'race/real');
    await move('race/link', 'race/d');
    expect(textOf(await read())).toMatch(/^PATH_NOT_ALLOWED: .*symlink/);
    expect(textOf(await write())).toMatch(/^PATH_NOT_ALLOWED: /);
    await move('race/d', 'race/link');
    await move('race/real', 'race/d');
    expect((await read()).structuredContent).toMatchObject({ content: 'inside' });

    // Then the swap loop against concurrent readers and writers.
    const outcomes: string[] = [];
    const swap = async () => {
      for (let i = 0; i < 50; i++) {
        await move('race/d', 'race/real');
        await move('race/link', 'race/d');
        await move('race/d', 'race/link');
        await move('race/real', 'race/d');
      }
    };
    const probe = async () => {
      for (let i = 0; i < 100; i++) {
        const result = await read();
        outcomes.push(result.isError ? textOf(result).split(':')[0]! : (result.structuredContent as { content: string }).content);
        await write();
      }
    };
    await Promise.all([swap(), probe(), probe()]);
    expect(outcomes).not.toContain('OUTSIDE-SECRET');
    expect(outcomes.every((o) => ['inside', 'PATH_NOT_ALLOWED', 'NOT_FOUND'].includes(o))).toBe(true);
    expect(fs.readdirSync(outside).sort()).toEqual(['passwd.txt']);
  });
});

describe('deny patterns cannot be sidestepped by renaming a parent', () => {
  it('refuses to move or delete an entry whose name a pattern relies on', async () => {
    fs.mkdirSync(path.join(root, 'proj', 'config'), { recursive: true });
    fs.mkdirSync(path.join(root, 'proj', 'private'), { recursive: true });
    fs.mkdirSync(path.join(root, 'proj', 'other'), { recursive: true });
    fs.writeFileSync(path.join(root, 'proj', 'config', 'credentials.json'), 'AWS=sekrit');
    fs.writeFileSync(path.join(root, 'proj', 'private', 'p.txt'), 'private');
    const client = await connect({ filesystem: { write: true, roots: [root], deny: ['config/credentials.json', `${root}/proj/private/**`] } });
    for (const [source, destination] of [
      ['proj/config', 'proj/cfg2'],
      ['proj', 'proj2'],
      ['proj/private', 'proj/public'],
    ]) {
      const moved = await client.callTool({ name: 'fs.move', arguments: { source, destination } });
      expect(textOf(moved)).toMatch(/^PATH_NOT_ALLOWED: .*(holds paths protected by|matches) the deny pattern/);
    }
    expect(textOf(await client.callTool({ name: 'fs.delete', arguments: { path: 'proj/config', recursive: true } }))).toMatch(/^PATH_NOT_ALLOWED: /);
    expect(fs.readFileSync(path.join(root, 'proj', 'config', 'credentials.json'), 'utf8')).toBe('AWS=sekrit');
    // An unrelated directory still moves; a floating pattern keeps matching below it anyway.
    expect((await client.callTool({ name: 'fs.move', arguments: { source: 'proj/other', destination: 'proj/renamed' } })).isError).toBeFalsy();
  });
});

describe("this server's config file", () => {
  it('is protected even when named with a relative path', () => {
    const cwd = process.cwd();
    writeJson(path.join(root, 'cfg.json'), { server: { token: 'relative-config-token-123' }, filesystem: { roots: [root] } });
    process.chdir(root);
    try {
      const loaded = loadConfig({ cli: { config: 'cfg.json' }, env: {} });
      expect(loaded.path).toBe(path.join(root, 'cfg.json'));
    } finally {
      process.chdir(cwd);
    }
    expect(() => new FilesystemPolicy(makeConfig({ filesystem: { roots: [root] } }).filesystem, localPort(), { protectedFiles: ['cfg.json'] })).toThrow(
      /not an absolute path/,
    );
  });

  it("covers the saver's temp file beside it, which holds the same token for a moment", async () => {
    const policy = new FilesystemPolicy(makeConfig({ filesystem: { write: true, roots: [root] } }).filesystem, localPort(), {
      protectedFiles: [path.join(root, 'cfg.json')],
    });
    fs.writeFileSync(path.join(root, '.cfg.json.a1b2c3.tmp'), '{"server":{"token":"x"}}');
    await expect(policy.resolve('.cfg.json.a1b2c3.tmp', 'read', 'fs.read')).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    await expect(policy.resolve('.cfg.json.new.tmp', 'write', 'fs.write')).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    await expect(policy.resolve('.cfg.jsonx', 'read', 'fs.read')).resolves.toMatchObject({ exists: false });
    await expect(policy.resolve('cfg.json.bak', 'read', 'fs.read')).resolves.toMatchObject({ exists: false });
  });
});

describe('special files', () => {
  it('answers fs.read of a FIFO at once instead of blocking the filesystem thread pool', async () => {
    execFileSync('mkfifo', [path.join(root, 'fifo')]);
    const client = await connect({ filesystem: { roots: [root] } });
    const started = Date.now();
    const reads = await Promise.all([1, 2, 3, 4, 5].map(() => client.callTool({ name: 'fs.read', arguments: { path: 'fifo' } })));
    for (const read of reads) expect(textOf(read)).toMatch(/^INVALID_INPUT: .*not a regular file/);
    expect((await client.callTool({ name: 'fs.list', arguments: { path: '.' } })).isError).toBeFalsy();
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('programs the server starts besides shell.exec', () => {
  it('app.launch children get the short environment, never the token', async () => {
    const dump = path.join(home, 'app-env.txt');
    const saved = process.env.CHATGPT_MCP_TOKEN;
    process.env.CHATGPT_MCP_TOKEN = 'launch-env-token-0123456789';
    try {
      const client = await connect({
        desktop: { hostDisplayAccess: true, appControl: true, apps: { dump: { path: '/bin/sh', args: ['-c', `env > ${dump}`] } } },
      });
      expect((await client.callTool({ name: 'app.launch', arguments: { name: 'dump' } })).isError).toBeFalsy();
      for (let i = 0; i < 100 && !(fs.existsSync(dump) && fs.readFileSync(dump, 'utf8').includes('PATH=')); i++) await new Promise((r) => setTimeout(r, 50));
      const env = fs.readFileSync(dump, 'utf8');
      expect(env).toContain('PATH=');
      expect(env).not.toContain('launch-env-token-0123456789');
    } finally {
      if (saved === undefined) delete process.env.CHATGPT_MCP_TOKEN;
      else process.env.CHATGPT_MCP_TOKEN = saved;
    }
  });

  it('app.close leaves alone a process of the same executable started with other arguments', async () => {
    const stranger = spawn('/bin/sleep', ['777'], { stdio: 'ignore' });
    try {
      const client = await connect({ desktop: { hostDisplayAccess: true, appControl: true, apps: { sleeper: { path: '/bin/sleep', args: ['1000'] } } } });
      const launched = await client.callTool({ name: 'app.launch', arguments: { name: 'sleeper' } });
      const pid = (launched.structuredContent as { pid: number }).pid;
      const closed = await client.callTool({ name: 'app.close', arguments: { name: 'sleeper', force: true } });
      expect((closed.structuredContent as { closed: number[] }).closed).toEqual([pid]);
      expect(stranger.exitCode).toBeNull();
      expect(() => process.kill(stranger.pid!, 0)).not.toThrow();
    } finally {
      stranger.kill('SIGKILL');
    }
  });
});
