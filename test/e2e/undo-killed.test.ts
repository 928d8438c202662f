/**
 * An undo killed part way (SIGKILL to `chatgpt-mcp undo apply`) is finished by applying the group
 * again: what it had put back counts as put back (not as a conflict), the rest is put back, and
 * every file ends as it was before the model changed it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { appConfigDir } from '../../main/config/app-dir.js';
import { openJournal } from '../../main/undo/undo-service.js';
import { connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { childEnv, CLI, runCli, startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

const FILES = 1500;
let base: string;
let root: string;
let server: TestHttpServer;
let client: TestClient;
let configFile: string;
let env: NodeJS.ProcessEnv;

const at = (i: number) => path.join(root, `f${String(i).padStart(4, '0')}.txt`);
const original = (i: number) => `original ${i}\n`;

beforeAll(async () => {
  base = makeTempDir();
  const home = path.join(base, 'home');
  fs.mkdirSync(home);
  root = path.join(base, 'root');
  fs.mkdirSync(root);
  env = childEnv(home, { PATH: process.env.PATH ?? '' });
  const config = { filesystem: { write: true, roots: [root] }, server: { auth: 'none' as const, toolNames: 'dotted' as const } };
  configFile = writeJson(path.join(base, 'config.json'), config);
  const appDir = appConfigDir({ platform: process.platform, env, home });
  server = await startTestServer(config, {
    adapter: createLocalAdapter(),
    journal: openJournal(appDir, { undo: { enabled: true, maxBytes: 64 << 20, groupIdleMs: 600_000 } }),
  });
  client = await connectModernHttp(server.url);
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  removeDir(base);
});

describe('an undo killed part way', () => {
  it('is finished by applying the group again', { timeout: 120_000 }, async () => {
    for (let i = 0; i < FILES; i++) fs.writeFileSync(at(i), original(i));
    // A hundred files a call (fs.patch's most), one group.
    for (let first = 0; first < FILES; first += 100) {
      const files = Array.from({ length: 100 }, (_, k) => first + k);
      const patch = ['*** Begin Patch', ...files.flatMap((i) => [`*** Update File: ${at(i)}`, '@@', `-original ${i}`, `+model ${i}`]), '*** End Patch'];
      const result = await client.callTool({ name: 'fs.patch', arguments: { patch: patch.join('\n') } });
      expect(result.isError, textOf(result)).toBeFalsy();
    }
    const id = /^(\d{8}-\d{9}-[0-9a-f]{4}) /m.exec((await runCli(['undo', 'list', '--config', configFile], env)).stdout)?.[1];
    expect(id).toBeDefined();

    const undo = spawn(process.execPath, [CLI, 'undo', 'apply', id!, '--config', configFile], { env, stdio: 'ignore' });
    const exited = new Promise((resolve) => undo.once('exit', resolve));
    const putBack = () => Array.from({ length: FILES }, (_, i) => i).filter((i) => fs.readFileSync(at(i), 'utf8') === original(i)).length;
    let seen = 0;
    while (seen === 0) {
      seen = putBack();
      if (seen === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    undo.kill('SIGKILL');
    await exited;
    const whenKilled = putBack();
    expect(whenKilled, 'the undo was killed part way').toBeLessThan(FILES);

    const again = await runCli(['undo', 'apply', id!, '--config', configFile], env, 60_000);
    expect(again.code, again.stderr).toBe(0);
    expect(
      again.stdout.split('\n').filter((line) => line.startsWith('left ')),
      again.stdout.slice(0, 400),
    ).toEqual([]);
    expect(again.stdout).toContain('it was already as it was before the model changed it');
    expect(putBack()).toBe(FILES);
    // What the killed one left beside the files (a temporary it had not renamed yet) is all that differs.
    expect(
      fs
        .readdirSync(root)
        .filter((name) => !/^f\d{4}\.txt$/.test(name))
        .every((name) => /^\.undo-[0-9a-f]{16}$/.test(name)),
    ).toBe(true);
  });
});
