/**
 * git and the project checks run inside the command sandbox, with commands off (shell.enabled
 * false): a hook the owner's global config names (the owner's choice, so it runs) and a check
 * both write a marker in the writable root and try to write in a folder outside every root
 * (under test-artifacts/, which the sandbox shows read-only as it shows the rest of the
 * computer). Sandboxed, the first lands and the second does not; with shell.sandbox "off" (the
 * control) both land, so the sandbox is what stopped it. The owner's home (global config, hooks)
 * is a read-only root: the sandbox's private /tmp would hide it otherwise, where a real home is
 * visible. Linux with bubblewrap only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { gitHome, makeRepo, writeFiles, type GitHome } from '../helpers/git-repos.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const bwrap = process.platform === 'linux' && fs.existsSync('/usr/bin/bwrap');

describe.skipIf(!bwrap)('the git tools and checks run in the command sandbox, whatever shell.enabled says', () => {
  let base: string;
  let owner: GitHome;
  let escape: string;
  const started: Array<{ server: TestHttpServer; client: TestClient }> = [];

  beforeAll(() => {
    base = makeTempDir();
    fs.mkdirSync('test-artifacts', { recursive: true });
    escape = fs.mkdtempSync(path.resolve('test-artifacts', 'sandbox-escape-'));
    owner = gitHome(path.join(base, 'owner'));
    const hooks = path.join(owner.home, 'hooks');
    fs.mkdirSync(hooks);
    fs.writeFileSync(path.join(hooks, 'pre-commit'), `#!/bin/sh\necho ran > hook.ran\necho escaped > '${escape}/hook.escaped' 2>/dev/null\nexit 0\n`, {
      mode: 0o755,
    });
    // The repositories first: the owner's own commits here would run the hook, outside any sandbox.
    for (const sandbox of ['auto', 'off']) makeRepo(owner, path.join(base, `root-${sandbox}`, 'repo'), { 'a.txt': 'one\n' });
    fs.appendFileSync(path.join(owner.home, '.gitconfig'), `[core]\n\thooksPath = ${hooks}\n`);
  });

  afterAll(async () => {
    for (const { server, client } of started) {
      await client.close();
      await server.close();
    }
    removeDir(base);
    fs.rmSync(escape, { recursive: true, force: true });
  });

  async function open(sandbox: 'auto' | 'off') {
    const root = path.join(base, `root-${sandbox}`);
    const repo = path.join(root, 'repo');
    const server = await startTestServer(
      {
        filesystem: { write: true, roots: [root, { path: owner.home, readOnly: true }] },
        shell: { enabled: false, sandbox },
        git: { read: true, write: true },
        checks: { projects: [{ path: repo, checks: { probe: ['sh', '-c', `echo ran > check.ran; echo escaped > '${escape}/check.escaped'; exit 0`] } }] },
      },
      { adapter: createLocalAdapter({ env: owner.env }) },
    );
    const client = await connectModernHttp(server.url);
    started.push({ server, client });
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, textOf(result)).toBeFalsy();
      return result;
    };
    writeFiles(repo, { 'a.txt': 'two\n' });
    await call('git.add', { path: repo, paths: ['a.txt'] });
    await call('git.commit', { path: repo, message: 'through the hook' });
    await call('verify_changes', { path: repo, checks: ['probe'] });
    return repo;
  }

  const escaped = (name: string) => path.join(escape, name);

  it('sandboxed: the hook and the check run, and cannot write outside the writable roots', async () => {
    const repo = await open('auto');
    expect(fs.readFileSync(path.join(repo, 'hook.ran'), 'utf8')).toBe('ran\n');
    expect(fs.readFileSync(path.join(repo, 'check.ran'), 'utf8')).toBe('ran\n');
    expect(fs.existsSync(escaped('hook.escaped'))).toBe(false);
    expect(fs.existsSync(escaped('check.escaped'))).toBe(false);
  });

  it('the control, shell.sandbox "off": the same writes land outside the roots', async () => {
    await open('off');
    expect(fs.readFileSync(escaped('hook.escaped'), 'utf8')).toBe('escaped\n');
    expect(fs.readFileSync(escaped('check.escaped'), 'utf8')).toBe('escaped\n');
    fs.rmSync(escaped('hook.escaped'));
    fs.rmSync(escaped('check.escaped'));
  });
});
