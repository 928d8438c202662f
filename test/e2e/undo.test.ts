/**
 * "Undo what the model changed", end to end: a model session (a real v2 client) writes, edits,
 * patches, moves, deletes and makes folders, stages and commits; the owner then edits one of the
 * files; `chatgpt-mcp undo list | show | apply` (the built CLI, headless) puts every byte, mode
 * and link back, moves the branch and the index back, and leaves the owner's edit, reporting it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { appConfigDir } from '../../main/config/app-dir.js';
import { journalDir, openJournal } from '../../main/undo/undo-service.js';
import { connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { git, gitHome, makeRepo, type GitHome } from '../helpers/git-repos.js';
import { childEnv, runCli, startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

let base: string;
let root: string;
let owner: GitHome;
let server: TestHttpServer;
let client: TestClient;
let configFile: string;
let env: NodeJS.ProcessEnv;
let appDir: string;

const at = (...parts: string[]) => path.join(root, ...parts);

/** Every entry under `dir` (the repository's .git aside): bytes, mode, link targets. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string, prefix: string) => {
    for (const name of fs.readdirSync(folder).sort()) {
      if (name === '.git') continue;
      const full = path.join(folder, name);
      const s = fs.lstatSync(full);
      const mode = (s.mode & 0o7777).toString(8);
      if (s.isSymbolicLink()) out[prefix + name] = `-> ${fs.readlinkSync(full)}`;
      else if (s.isDirectory()) {
        out[`${prefix}${name}/`] = mode;
        walk(full, `${prefix}${name}/`);
      } else out[prefix + name] = `${mode} ${fs.readFileSync(full).toString('base64')}`;
    }
  };
  walk(dir, '');
  return out;
}

beforeAll(async () => {
  base = makeTempDir();
  const home = path.join(base, 'home');
  owner = gitHome(home);
  root = path.join(base, 'root');
  fs.mkdirSync(root);
  env = childEnv(home, { PATH: process.env.PATH ?? '' });
  const config = {
    filesystem: { write: true, roots: [root] },
    git: { read: true, write: true },
    server: { auth: 'none' as const, toolNames: 'dotted' as const },
  };
  configFile = writeJson(path.join(base, 'config.json'), config);
  appDir = appConfigDir({ platform: process.platform, env, home });
  server = await startTestServer(config, {
    adapter: createLocalAdapter({ env: owner.env }),
    journal: openJournal(appDir, { undo: { enabled: true, maxBytes: 16 << 20, groupIdleMs: 600_000 } }),
  });
  client = await connectModernHttp(server.url);
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  removeDir(base);
});

const call = async (name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  return result;
};

describe('undo what the model changed', () => {
  it('puts a whole session back, leaves what the owner edited since, and says so', async () => {
    fs.writeFileSync(at('run.sh'), '#!/bin/sh\necho one\n', { mode: 0o755 });
    fs.writeFileSync(at('notes.md'), '# Notes\n\n- first\n');
    fs.writeFileSync(at('owner-edits.txt'), 'as it was\n');
    fs.mkdirSync(at('old/inner'), { recursive: true });
    fs.writeFileSync(at('old/inner/blob.bin'), Buffer.from([0, 1, 2, 255, 0, 128]), { mode: 0o640 });
    fs.symlinkSync('inner/blob.bin', at('old/link'));
    fs.writeFileSync(at('to-move.txt'), 'moving\n');
    const repo = makeRepo(owner, at('repo'), { 'src/main.ts': 'export const x = 1;\n' });
    const head = git(owner, repo, ['rev-parse', 'HEAD']);
    const before = snapshot(root);

    await call('fs.write', { path: at('new.txt'), content: 'brand new\n' });
    await call('fs.edit', { path: at('run.sh'), edits: [{ oldText: 'one', newText: 'two' }] });
    await call('fs.patch', {
      patch: [
        '*** Begin Patch',
        `*** Update File: ${at('notes.md')}`,
        '@@',
        ' - first',
        '+- second',
        `*** Add File: ${at('added/by-patch.txt')}`,
        '+added',
        `*** Delete File: ${at('owner-edits.txt')}`,
        '*** End Patch',
      ].join('\n'),
    });
    await call('fs.write', { path: at('owner-edits.txt'), content: 'the model wrote this\n' });
    await call('fs.mkdir', { path: at('made/deeper'), recursive: true });
    await call('fs.move', { source: at('to-move.txt'), destination: at('made/deeper/moved.txt') });
    await call('fs.delete', { path: at('old'), recursive: true });
    fs.writeFileSync(at('repo/src/main.ts'), 'export const x = 2;\n');
    await call('git.add', { path: repo, paths: ['src/main.ts'] });
    await call('git.commit', { path: repo, message: 'x is 2' });
    // The owner edits one of the files the model changed.
    fs.writeFileSync(at('owner-edits.txt'), 'the owner wrote this afterwards\n');

    const list = await runCli(['undo', 'list', '--config', configFile], env);
    expect(list.code, list.stderr).toBe(0);
    const id = /^(\d{8}-\d{9}-[0-9a-f]{4}) /m.exec(list.stdout)?.[1];
    expect(id, list.stdout).toBeDefined();
    expect(list.stdout).toMatch(/by local: \d+ paths, 1 repository .*fs\.write, fs\.edit, fs\.patch.*git\.commit\) \[open\]/);
    expect(list.stdout).toContain('Commands (shell.exec, process.start) can change anything and are not recorded.');

    const show = await runCli(['undo', 'show', id!, '--config', configFile], env);
    expect(show.stdout).toContain(`modified ${at('run.sh')}`);
    expect(show.stdout).toMatch(/-echo two\n\s+\+echo one/);
    expect(show.stdout).toContain(`deleted ${at('old')} (was a directory)`);
    expect(show.stdout).toMatch(/repository .*repo \(git\.add, git\.commit\): main at [0-9a-f]{12} -> main at [0-9a-f]{12}/);

    const applied = await runCli(['undo', 'apply', id!, '--config', configFile], env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toMatch(/undid part of/);
    expect(applied.stdout).toContain(`left ${at('owner-edits.txt')}: it was changed after the model changed it`);
    expect(applied.stdout).toMatch(/repository .*repo: refs and index restored/);

    const after = snapshot(root);
    expect(after['owner-edits.txt']).toBe(`644 ${Buffer.from('the owner wrote this afterwards\n').toString('base64')}`);
    expect({ ...after, 'owner-edits.txt': before['owner-edits.txt'] }).toEqual({ ...before, 'repo/src/main.ts': after['repo/src/main.ts'] });
    expect(git(owner, repo, ['rev-parse', 'HEAD'])).toBe(head);
    expect(git(owner, repo, ['diff', '--cached', '--name-only'])).toBe('');

    const again = await runCli(['undo', 'apply', id!, '--config', configFile], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already undone/);
  });

  it('keeps a file fs.write replaces as the replaced inode itself, and puts it back on an inode of its own', async () => {
    const file = at('replaced.txt');
    fs.writeFileSync(file, 'first version\n', { mode: 0o640 });
    fs.chmodSync(file, 0o640);
    const old = fs.statSync(file).ino;
    await call('fs.write', { path: file, content: 'second version\n' });
    const groups = path.join(journalDir(appDir), 'groups');
    const kept = fs.readdirSync(groups).flatMap((id) => fs.readdirSync(path.join(groups, id, 'blobs')).map((blob) => path.join(groups, id, 'blobs', blob)));
    const linked = kept.filter((blob) => fs.statSync(blob).ino === old);
    expect(linked).toHaveLength(1);
    expect(fs.readFileSync(linked[0]!, 'utf8')).toBe('first version\n');

    const id = /^(\d{8}-\d{9}-[0-9a-f]{4}) /m.exec((await runCli(['undo', 'list', '--config', configFile], env)).stdout)?.[1];
    const applied = await runCli(['undo', 'apply', id!, '--config', configFile], env);
    expect(applied.stdout).toContain(`restored ${file}`);
    const back = fs.statSync(file);
    expect([fs.readFileSync(file, 'utf8'), back.mode & 0o777, back.ino === old]).toEqual(['first version\n', 0o640, false]);
  });

  it('puts back a branch the model committed on and then switched away from, and HEAD with it', async () => {
    const repo = makeRepo(owner, at('branches'), { 'a.txt': 'one\n' });
    git(owner, repo, ['branch', 'feature']);
    const [branch, start] = [git(owner, repo, ['symbolic-ref', 'HEAD']).trim(), git(owner, repo, ['rev-parse', 'HEAD'])];
    fs.writeFileSync(path.join(repo, 'a.txt'), 'two\n');
    await call('git.add', { path: repo, paths: ['a.txt'] });
    await call('git.commit', { path: repo, message: 'the model commits' });
    await call('git.switch', { path: repo, branch: 'feature' });
    expect(git(owner, repo, ['rev-parse', branch])).not.toBe(start);

    const id = /^(\d{8}-\d{9}-[0-9a-f]{4}) /m.exec((await runCli(['undo', 'list', '--config', configFile], env)).stdout)?.[1];
    const applied = await runCli(['undo', 'apply', id!, '--config', configFile], env);
    expect(applied.stdout).toMatch(/repository .*branches: refs and index restored/);
    expect(git(owner, repo, ['symbolic-ref', 'HEAD']).trim()).toBe(branch);
    expect([git(owner, repo, ['rev-parse', branch]), git(owner, repo, ['rev-parse', 'feature'])]).toEqual([start, start]);
    expect(git(owner, repo, ['status', '--porcelain']).trim()).toBe('M a.txt');
    expect(fs.readFileSync(path.join(repo, 'a.txt'), 'utf8')).toBe('two\n');
  });

  it("records the sha256 fs.write, fs.edit and fs.patch answer with the file's state after the change (undo compares bytes where times could hide an edit), and none for an append", async () => {
    const file = at('hashed.txt');
    const written = (await call('fs.write', { path: file, content: 'alpha\n' })).structuredContent as { sha256: string };
    const edited = (await call('fs.edit', { path: file, edits: [{ oldText: 'alpha', newText: 'beta' }] })).structuredContent as { sha256: string };
    const patch = `*** Begin Patch\n*** Update File: ${file}\n@@\n-beta\n+gamma\n*** End Patch\n`;
    const patched = (await call('fs.patch', { patch })).structuredContent as { files: Array<{ sha256: string }> };
    // An append's file holds more than what the call sent: no sha, so undo never takes it for one the model made whole.
    await call('fs.write', { path: file, content: 'delta\n', mode: 'append' });
    const groups = path.join(journalDir(appDir), 'groups');
    const posts = fs
      .readdirSync(groups)
      .flatMap((id) =>
        fs
          .readFileSync(path.join(groups, id, 'records.jsonl'), 'utf8')
          .trim()
          .split('\n'),
      )
      .map((line) => JSON.parse(line) as { k: string; p: string; t: string; c?: string })
      .filter((r) => r.k === 'post' && r.p === file);
    expect(posts.map((r) => [r.t, r.c])).toEqual([
      ['fs.write', written.sha256],
      ['fs.edit', edited.sha256],
      ['fs.patch', patched.files[0]!.sha256],
      ['fs.write', undefined],
    ]);
  });

  it('never copies a protected file into the journal: a delete refused for the .env in a folder leaves none of its bytes there', async () => {
    fs.mkdirSync(at('service/conf'), { recursive: true });
    fs.writeFileSync(at('service/index.js'), 'start()\n');
    fs.writeFileSync(at('service/conf/.env'), 'DB_PASSWORD=journal-must-not-hold-this\n');
    const refused = await client.callTool({ name: 'fs.delete', arguments: { path: at('service'), recursive: true } });
    expect(refused.isError, textOf(refused)).toBe(true);
    expect(fs.readFileSync(at('service/conf/.env'), 'utf8')).toContain('journal-must-not-hold-this');
    const journal = journalDir(appDir);
    const files = (fs.readdirSync(journal, { recursive: true }) as string[]).map((f) => path.join(journal, f)).filter((f) => fs.statSync(f).isFile());
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => fs.readFileSync(f, 'utf8').includes('journal-must-not-hold-this'))).toEqual([]);
  });

  it("shows a CRLF file's last line with its \\r, and a file replaced by one of another mode as a change of mode, and puts both back", async () => {
    const [crlf, script] = [at('dos.txt'), at('tool.sh')];
    fs.writeFileSync(crlf, 'first\r\nlast\r\n');
    fs.writeFileSync(script, '#!/bin/sh\n');
    fs.chmodSync(script, 0o755);
    fs.writeFileSync(at('tool-644.sh'), '#!/bin/sh\n');
    fs.chmodSync(at('tool-644.sh'), 0o644);
    await call('fs.write', { path: crlf, content: 'first\r\nlast\n' });
    await call('fs.move', { source: at('tool-644.sh'), destination: script, overwrite: true });

    const id = /^(\d{8}-\d{9}-[0-9a-f]{4}) /m.exec((await runCli(['undo', 'list', '--config', configFile], env)).stdout)?.[1];
    const show = await runCli(['undo', 'show', id!, '--config', configFile], env);
    expect(show.stdout).toMatch(/ first\\x0d\n\s+-last\n\s+\+last\\x0d\n/);
    expect(show.stdout).toContain(`modified ${script}, mode 755 -> 644 (was a file)`);
    expect(show.stdout).toContain(`deleted ${at('tool-644.sh')} (was a file)`);

    await runCli(['undo', 'apply', id!, '--config', configFile], env);
    expect(fs.readFileSync(crlf, 'utf8')).toBe('first\r\nlast\r\n');
    expect(fs.statSync(script).mode & 0o7777).toBe(0o755);
    expect(fs.statSync(at('tool-644.sh')).mode & 0o7777).toBe(0o644);
  });

  it('answers unknown ids and bad usage', async () => {
    expect((await runCli(['undo', 'show', '20990101-000000000-abcd', '--config', configFile], env)).stderr).toMatch(/no change group 20990101-000000000-abcd/);
    expect((await runCli(['undo', 'show', '../../etc', '--config', configFile], env)).stderr).toMatch(/no change group/);
    expect((await runCli(['undo', 'apply'], env)).code).toBe(64);
  });
});
