/**
 * The command sandbox through real clients, with real bubblewrap: what a command can write, read
 * and reach in "workspace" (the default on Linux), including programs that run code of their own
 * (sort --compress-program, sed's e command, python3 -c); the token; the network; the start
 * errors; and the same as an unprivileged user. Each refusal is shown next to a control (the same
 * command succeeding where it should, or leaking without the sandbox), so a test cannot pass
 * because the command never ran.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { abstractSocketScope } from '../../adapter/process/start-child.js';
import { sandboxSupport } from '../../adapter/process/sandbox/support.js';
import type { ConfigInput } from '../../main/config/schema.js';
import type { ToolCallEvent, ToolCallObserver } from '../../main/mcp/recorded-call.js';
import { connectModernHttp, textOf, type CallResult } from '../helpers/clients.js';
import { CLI, childEnv, runCli, startCliHttp, startTestServer } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

const PATH = '/usr/local/bin:/usr/bin:/bin';
const linux = process.platform === 'linux';
const usable = linux && sandboxSupport('linux', { PATH }).usable;
// CI installs bubblewrap (.ci/run) and must not skip this file.
const required = process.env.REQUIRE_DESKTOP_TESTS === '1';
if (!usable && linux && !required) console.warn('\n*** SKIPPING the command sandbox tests: bwrap is missing or cannot create namespaces here. ***\n');
const run = usable || (linux && required);

const SECRET_KEY = 'PRIVATE-KEY-material-4f1c';
const CONFIG_SECRET = 'config-file-secret-9a7e';

interface Shell {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

let home: string;
let work: string;
let ref: string;
let appDir: string;

beforeAll(() => {
  home = makeTempDir('chatgpt-mcp-sandbox-');
  work = path.join(home, 'work');
  ref = path.join(home, 'ref');
  appDir = path.join(home, '.config', 'chatgpt-mcp');
  for (const dir of [work, ref, path.join(home, '.ssh'), appDir]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), SECRET_KEY);
  fs.writeFileSync(path.join(home, 'notes.txt'), 'a note in the home folder\n');
  fs.writeFileSync(path.join(ref, 'readme.txt'), 'reference\n');
  writeJson(path.join(appDir, 'config.json'), { note: CONFIG_SECRET });
});
afterAll(() => removeDir(home));

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** An in-process server whose children see `home` as HOME, with `work` writable and `ref` read-only. */
async function serve(input: ConfigInput = {}, moreProtected: string[] = [], observer?: ToolCallObserver) {
  // The workspace mode's promises; private-home has its own test (sandbox-private-home.test.ts).
  const shell = { enabled: true, allowedCommands: ['*'], sandbox: 'workspace' as const, ...input.shell };
  const server = await startTestServer(
    { filesystem: { write: true, roots: [work, { path: ref, readOnly: true }] }, ...input, shell },
    {
      adapter: createLocalAdapter({ env: { PATH, HOME: home, LANG: 'C.UTF-8', TMPDIR: path.join(home, 'server-tmp') } }),
      protectedFiles: [path.join(appDir, 'config.json'), appDir, ...moreProtected],
      ...(observer ? { observer } : {}),
    },
  );
  open.push(server);
  const client = await connectModernHttp(server.url);
  open.push(client);
  const exec = async (command: string, args: string[], extra: Record<string, unknown> = {}): Promise<Shell> => {
    const result = await client.callTool({ name: 'shell.exec', arguments: { command, args, ...extra } });
    if (result.isError) throw new Error(textOf(result));
    return result.structuredContent as unknown as Shell;
  };
  return { server, client, exec, sh: (code: string) => exec('sh', ['-c', code]) };
}

describe.skipIf(!run)('workspace', () => {
  it('writes in a writable root; not in a read-only root, the home folder outside the roots, or /etc', async () => {
    const { sh } = await serve();
    expect(await sh(`echo made > ${work}/made.txt && cat ${work}/made.txt`)).toMatchObject({ exitCode: 0, stdout: 'made\n' });
    expect(fs.readFileSync(path.join(work, 'made.txt'), 'utf8')).toBe('made\n');
    for (const target of [path.join(ref, 'changed.txt'), path.join(home, 'outside.txt'), '/etc/chatgpt-mcp-sandbox-test']) {
      const result = await sh(`echo x > ${target}`);
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr).toMatch(/Read-only file system/);
      expect(fs.existsSync(target)).toBe(false);
    }
    // Reading them is fine: the system and the roots are visible.
    expect((await sh(`cat ${ref}/readme.txt ${home}/notes.txt /etc/hostname`)).exitCode).toBe(0);
  });

  it("cannot read ~/.ssh/id_rsa, this app's config, /etc/shadow, or the server's /proc/<pid>/environ", async () => {
    const { sh } = await serve();
    const reads = await sh(
      [`cat ${home}/.ssh/id_rsa`, `ls -A ${home}/.ssh`, `cat ${appDir}/config.json`, 'cat /etc/shadow', `cat /proc/${process.pid}/environ`, 'ls /proc']
        .map((c) => `${c}; echo "[$?]"`)
        .join('; '),
    );
    expect(reads.stdout).not.toContain(SECRET_KEY);
    expect(reads.stdout).not.toContain(CONFIG_SECRET);
    expect(reads.stdout).not.toMatch(/^root:/m);
    // every read failed ([1] or [2]), and the .ssh listing came back empty
    expect(reads.stdout.match(/\[(\d+)\]/g)).toEqual(['[1]', '[0]', '[1]', '[1]', '[1]', '[0]']);
    // the command sees its own processes only: the server's pid is not there
    const pids = reads.stdout.split('\n').filter((line) => /^\d+$/.test(line));
    expect(pids.length).toBeLessThan(10);
    expect(pids).not.toContain(String(process.pid));
  });

  it.runIf(process.getuid?.() === 0 && fs.existsSync('/etc/ssl/private'))('as root: system private keys are hidden too (/etc/ssl/private)', async () => {
    // The folder is often empty here, so tell the two apart by what is mounted: the real one
    // (mode 710, group ssl-cert) outside, an empty private tmpfs (755) inside.
    const real = fs.statSync('/etc/ssl/private').mode & 0o777;
    const { sh } = await serve();
    expect((await sh('stat -c %a /etc/ssl/private; ls -A /etc/ssl/private | wc -l')).stdout).toBe('755\n0\n');
    const { sh: open } = await serve({ shell: { sandbox: 'off' } });
    expect((await open('stat -c %a /etc/ssl/private')).stdout).toBe(`${real.toString(8)}\n`);
    expect(real).not.toBe(0o755);
  });

  it.runIf(process.getuid?.() === 0)(
    "as root: the kernel's settings under /proc/sys stay read-only (core_pattern would run a program as root outside)",
    async () => {
      // Writing a setting's own value back changes nothing, so the control may really write it.
      const rewrite = 'cat /proc/sys/vm/swappiness > /proc/sys/vm/swappiness && echo written';
      const { sh } = await serve();
      const inside = await sh(rewrite);
      expect(inside.exitCode).not.toBe(0);
      expect(inside.stderr).toMatch(/Read-only file system/);
      const { sh: open } = await serve({ shell: { sandbox: 'off' } });
      expect(await open(rewrite)).toMatchObject({ exitCode: 0, stdout: 'written\n' });
    },
  );

  it('the same reads work without the sandbox (the control: they are real attempts)', async () => {
    const { sh } = await serve({ shell: { sandbox: 'off' } });
    const reads = await sh(`cat ${home}/.ssh/id_rsa; cat ${appDir}/config.json; echo x > ${home}/outside-off.txt`);
    expect(reads.stdout).toContain(SECRET_KEY);
    expect(reads.stdout).toContain(CONFIG_SECRET);
    expect(fs.existsSync(path.join(home, 'outside-off.txt'))).toBe(true);
    fs.rmSync(path.join(home, 'outside-off.txt'));
  });

  it('a private temp folder: writable, empty at each command but for the mount points of roots, gone after it', async () => {
    const { sh } = await serve();
    const first = await sh('ls -A /tmp; echo kept > /tmp/mark; cat /tmp/mark; echo "$TMPDIR"');
    // Only the folder holding the roots (and this test's home), which the sandbox mounts back.
    expect(first).toMatchObject({ exitCode: 0, stdout: `${path.basename(home)}\nkept\n/tmp\n` });
    const second = await sh('cat /tmp/mark; ls -A /tmp');
    expect(second.stderr).toMatch(/No such file/);
    expect(second.stdout).toBe(`${path.basename(home)}\n`);
    expect(fs.existsSync('/tmp/mark')).toBe(false);
  });
});

describe.skipIf(!run)('read-only', () => {
  it('writes nowhere, not even in a writable root, but in the private temp folder; reads as workspace does', async () => {
    const { sh } = await serve({ shell: { sandbox: 'read-only' } });
    const result = await sh(
      `echo x > ${work}/ro-mode.txt; echo "[$?]"; echo t > /tmp/t && cat /tmp/t; cat ${ref}/readme.txt; cat ${home}/.ssh/id_rsa; echo "[$?]"`,
    );
    // The shell's redirection fails (2), the private temp folder works, reads work, secrets stay hidden (1).
    expect(result.stdout).toBe('[2]\nt\nreference\n[1]\n');
    expect(result.stderr).toMatch(/Read-only file system/);
    expect(fs.existsSync(path.join(work, 'ro-mode.txt'))).toBe(false);
  });
});

describe.skipIf(!run)('programs that run code of their own cannot write outside the roots', () => {
  /** Each writes a marker in the writable root (so it did run the code) and tries a file in the home folder. */
  it.each([
    ['sort --compress-program', 'sort'],
    ['sed 1e', 'sed'],
    ['python3 -c', 'python3'],
  ])('%s', async (_name, program) => {
    const { exec } = await serve({ shell: { allowedCommands: [program] } });
    const ran = path.join(work, `ran-${program}`);
    const pwned = path.join(home, `pwned-${program}`);
    const payload = `echo ran >> ${ran}; echo pwned >> ${pwned}`;
    let result: Shell;
    if (program === 'sort') {
      // sort pipes its temporary chunks through the compress program: with sh, the input lines run as shell code.
      const input = path.join(work, 'lines.txt');
      fs.writeFileSync(input, `${payload}\n`.repeat(3000));
      result = await exec('sort', ['-S', '1', '--compress-program=sh', input]);
    } else if (program === 'sed') {
      fs.writeFileSync(path.join(work, 'one.txt'), 'a\n');
      result = await exec('sed', [`1e ${payload}`, path.join(work, 'one.txt')]);
    } else {
      result = await exec('python3', ['-c', `open(${JSON.stringify(ran)}, "a").write("ran\\n")\nopen(${JSON.stringify(pwned)}, "a").write("pwned")`]);
      expect(result.stderr).toMatch(/Read-only file system/);
    }
    expect(fs.existsSync(ran)).toBe(true);
    expect(fs.existsSync(pwned)).toBe(false);
    expect(result.timedOut).toBe(false);
  });
});

describe.skipIf(!run)("git's hooks and config in a writable root", () => {
  it('stay read-only and .git cannot be swapped for another, while commits work', async () => {
    const repo = path.join(work, 'repo');
    fs.mkdirSync(repo);
    const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8', env: { PATH, HOME: home } });
    expect(git('init', '-q').status).toBe(0);
    const { sh } = await serve();
    const tries = ['echo "touch pwned" > .git/hooks/pre-commit', 'git config core.fsmonitor "touch pwned"', 'mv .git .git-old', 'rm -rf .git/hooks'];
    for (const attempt of tries) expect((await sh(`cd ${repo} && ${attempt}`)).exitCode, attempt).not.toBe(0);
    const commit = await sh(
      `cd ${repo} && echo hi > a.txt && git add a.txt && git -c user.name=t -c user.email=t@example.com commit -qm one && git log --oneline | wc -l`,
    );
    expect(commit).toMatchObject({ exitCode: 0, stdout: '1\n' });
    expect(fs.existsSync(path.join(repo, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(git('config', 'core.fsmonitor').stdout).toBe('');
  });

  it("a command the owner's git took a cover off under (git config renames a new .git/config over the old) is stopped, says so, and ends as PRECONDITION_FAILED for the owner", async () => {
    const repo = path.join(work, 'stopped');
    fs.mkdirSync(repo);
    const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8', env: { PATH, HOME: home } });
    expect(git('init', '-q').status).toBe(0);
    const events: ToolCallEvent[] = [];
    const { client } = await serve({}, [], (event) => void events.push(event));
    const call = client.callTool({ name: 'shell.exec', arguments: { command: 'sh', args: ['-c', 'touch started; sleep 3; echo late'], cwd: repo } });
    for (let i = 0; i < 200 && !fs.existsSync(path.join(repo, 'started')); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(git('config', 'user.name', 'owner').status).toBe(0);
    const result = await call;
    expect(result.structuredContent).toMatchObject({
      signal: 'SIGKILL',
      stdout: '',
      sandboxStopped: expect.stringContaining(`${path.join(repo, '.git', 'config')} was replaced or removed outside the sandbox`),
    });
    expect(textOf(result)).toContain(`sh: stopped by the sandbox: ${path.join(repo, '.git', 'config')} was replaced`);
    expect(events.at(-1)).toMatchObject({ phase: 'end', tool: 'shell.exec', outcome: 'PRECONDITION_FAILED' });

    // A process handle the same: its status says why it ended.
    const started = await client.callTool({ name: 'process.start', arguments: { command: 'sh', args: ['-c', 'touch handle-started; sleep 30'], cwd: repo } });
    const { processHandle } = started.structuredContent as { processHandle: string };
    for (let i = 0; i < 200 && !fs.existsSync(path.join(repo, 'handle-started')); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(git('config', 'user.email', 'owner@example.com').status).toBe(0);
    let status = await client.callTool({ name: 'process.status', arguments: { processHandle } });
    for (let i = 0; i < 100 && (status.structuredContent as { state: string }).state === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await client.callTool({ name: 'process.status', arguments: { processHandle } });
    }
    expect(status.structuredContent).toMatchObject({ state: 'exited', signal: 'SIGKILL', sandboxStopped: expect.stringContaining('.git/config was replaced') });
    expect(textOf(status)).toContain(`${processHandle}: stopped by the sandbox: ${path.join(repo, '.git', 'config')} was replaced`);
    expect(events.at(-1)).toMatchObject({ phase: 'end', tool: 'process.status', outcome: 'PRECONDITION_FAILED' });
  });

  it('so do those of a repository a few folders down, also after a command buried it under folders the next plans do not get through', async () => {
    const code = path.join(home, 'code');
    const repo = path.join(code, 'github.com', 'acme', 'tool');
    fs.mkdirSync(repo, { recursive: true });
    expect(spawnSync('git', ['init', '-q'], { cwd: repo, env: { PATH, HOME: home } }).status).toBe(0);
    const plant = `echo "touch pwned" > ${repo}/.git/hooks/pre-commit`;
    const bury = `import os\nfor i in range(1100):\n  for j in range(5): os.makedirs(f"${code}/f{i}/{j}")`;
    try {
      const { sh, exec } = await serve({ filesystem: { write: true, roots: [code] } });
      expect((await sh(plant)).exitCode).not.toBe(0);
      // Nor can it be moved out of the walk's reach (deeper than it looks) to plant there and move back.
      expect((await sh(`mkdir -p ${code}/x/y/z && mv ${code}/github.com ${code}/x/y/z/`)).exitCode).not.toBe(0);
      expect(fs.existsSync(path.join(repo, '.git', 'HEAD'))).toBe(true);
      expect((await exec('python3', ['-c', bury])).exitCode).toBe(0);
      expect((await sh(plant)).exitCode).not.toBe(0);
      expect(fs.existsSync(path.join(repo, '.git', 'hooks', 'pre-commit'))).toBe(false);
      // The control: a server that never saw it before the burial does not find it (the walk is bounded).
      const { sh: fresh } = await serve({ filesystem: { write: true, roots: [code] } });
      expect((await fresh(plant)).exitCode).toBe(0);
      expect(fs.existsSync(path.join(repo, '.git', 'hooks', 'pre-commit'))).toBe(true);
    } finally {
      removeDir(code);
    }
  });

  it('a repository the fs tools move deeper than the walk looks stays covered: the plans follow the move', async () => {
    const code = path.join(home, 'code-moved');
    const repo = path.join(code, 'github.com', 'acme', 'tool');
    fs.mkdirSync(repo, { recursive: true });
    expect(spawnSync('git', ['init', '-q'], { cwd: repo, env: { PATH, HOME: home } }).status).toBe(0);
    try {
      const { sh, client } = await serve({ filesystem: { write: true, roots: [code] } });
      expect((await sh('true')).exitCode).toBe(0);
      const deep = path.join(code, 'x', 'y', 'z');
      fs.mkdirSync(deep, { recursive: true });
      const moved = await client.callTool({
        name: 'fs.move',
        arguments: { source: path.join(code, 'github.com'), destination: path.join(deep, 'github.com') },
      });
      expect(moved.isError, textOf(moved)).toBeFalsy();
      const there = path.join(deep, 'github.com', 'acme', 'tool');
      expect((await sh(`echo "touch pwned" > ${there}/.git/hooks/pre-commit`)).exitCode).not.toBe(0);
      expect(fs.existsSync(path.join(there, '.git', 'hooks', 'pre-commit'))).toBe(false);
    } finally {
      removeDir(code);
    }
  });

  it("a bare repository's hooks and config stay read-only too (they run when the owner pushes to it), while pushes to it work", async () => {
    const code = path.join(home, 'code-bare');
    const remote = path.join(code, 'backup', 'remote.git');
    const work2 = path.join(code, 'app');
    fs.mkdirSync(work2, { recursive: true });
    const env = { PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
    const git = (cwd: string, ...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8', env });
    expect(git(code, 'init', '-q', '--bare', remote).status).toBe(0);
    expect(git(work2, 'init', '-q').status).toBe(0);
    expect(git(work2, 'commit', '-q', '--allow-empty', '-m', 'one').status).toBe(0);
    try {
      const { sh } = await serve({ filesystem: { write: true, roots: [code] } });
      for (const attempt of [
        `echo "touch pwned" > ${remote}/hooks/post-receive`,
        `git -C ${remote} config core.fsmonitor "touch pwned"`,
        `mv ${remote} ${remote}-old`,
      ])
        expect((await sh(attempt)).exitCode, attempt).not.toBe(0);
      expect(fs.existsSync(path.join(remote, 'hooks', 'post-receive'))).toBe(false);
      // git serving a remote opens <path>/.git first: a git folder (or a .git file naming one) planted there would be the one pushed to, hooks and all.
      const marker = path.join(code, 'pwned');
      const planted = `mkdir -p ${code}/.cache && cp -a ${remote} ${code}/.cache/evil.git && printf '#!/bin/sh\ntouch ${marker}\n' > ${code}/.cache/evil.git/hooks/post-receive && chmod +x ${code}/.cache/evil.git/hooks/post-receive`;
      const plant = await sh(planted);
      expect(plant.exitCode, plant.stderr).toBe(0);
      for (const attempt of [`cp -a ${code}/.cache/evil.git ${remote}/.git`, `rmdir ${remote}/.git; echo "gitdir: ${code}/.cache/evil.git" > ${remote}/.git`])
        expect((await sh(attempt)).exitCode, attempt).not.toBe(0);
      const push = await sh(`cd ${work2} && git push -q ${remote} HEAD:refs/heads/main && git -C ${remote} rev-parse --verify -q main`);
      expect(push.exitCode, push.stderr).toBe(0);
      // The owner's own push, outside the sandbox: to the real remote, running nothing of the command's (the empty .git left there is passed by).
      expect(git(work2, 'push', '-q', remote, 'HEAD:refs/heads/owner').status).toBe(0);
      expect(git(remote, 'rev-parse', '--verify', '-q', 'owner').status).toBe(0);
      expect(fs.existsSync(marker)).toBe(false);
    } finally {
      removeDir(code);
    }
  });

  it('a .git file stays as it is, and is followed to the git folder git uses: --separate-git-dir, a worktree whose repository lies past the walk', async () => {
    const code = path.join(home, 'code-pointed');
    const app = path.join(code, 'app');
    const store = path.join(code, 'store', 'x', 'y', 'z', 'app-git');
    const main = path.join(code, 'deep', 'a', 'b', 'c', 'main');
    const tree = path.join(code, 'wt');
    for (const dir of [app, path.dirname(store), main]) fs.mkdirSync(dir, { recursive: true });
    const env = { PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
    const git = (cwd: string, ...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8', env });
    expect(git(app, 'init', '-q', `--separate-git-dir=${store}`).status).toBe(0);
    expect(git(main, 'init', '-q').status).toBe(0);
    expect(git(main, 'commit', '-q', '--allow-empty', '-m', 'one').status).toBe(0);
    expect(git(main, 'worktree', 'add', '-q', tree, '-b', 'feature').status).toBe(0);
    // Settings per worktree (as sparse-checkout turns on): git reads a config.worktree the linked worktree does not have yet.
    expect(git(main, 'config', 'extensions.worktreeConfig', 'true').status).toBe(0);
    const evil = path.join(code, '.cache', 'evil');
    try {
      const { sh, exec } = await serve({ filesystem: { write: true, roots: [code] } });
      expect((await sh(`mkdir -p ${code}/.cache && cp -a ${store} ${evil}`)).exitCode).toBe(0);
      for (const attempt of [
        `echo "touch pwned" > ${store}/hooks/pre-commit`,
        `git -C ${app} config core.fsmonitor "touch pwned"`,
        `echo "touch pwned" > ${main}/.git/hooks/pre-commit`,
        `git -C ${tree} config core.fsmonitor "touch pwned"`,
        `git -C ${tree} config --worktree core.fsmonitor "touch pwned"`,
        // Nor can the .git file be pointed at a git folder of the command's own, or moved away with its folder.
        `printf 'gitdir: ${evil}\n' > ${app}/.git`,
        `rm -f ${app}/.git`,
        `mv ${app} ${app}-old`,
        `printf 'gitdir: ${evil}\n' > ${tree}/.git`,
      ])
        expect((await sh(attempt)).exitCode, attempt).not.toBe(0);
      expect(git(app, 'rev-parse', '--git-dir').stdout.trim()).toBe(store);
      expect(git(tree, 'config', '--worktree', 'core.fsmonitor').stdout).toBe('');
      // A git folder named far below the root does not stop commands (its folders would be more mounts than a plan takes).
      const deep = `${code}/.c/${Array.from({ length: 1500 }, () => 'a').join('/')}`;
      const far = `mkdir -p ${deep}/objects ${deep}/refs ${code}/p1 && echo 'ref: refs/heads/main' > ${deep}/HEAD && echo 'gitdir: ${deep}' > ${code}/p1/.git`;
      expect((await sh(far)).exitCode).toBe(0);
      expect((await sh('true')).exitCode).toBe(0);
      // Nor does a repository made 250 folders deep, with the command started in it, leave the others' hooks open.
      const sunk = `${code}/.x/${Array.from({ length: 250 }, () => 'a').join('/')}`;
      expect((await sh(`mkdir -p ${sunk} && git init -q ${sunk}`)).exitCode).toBe(0);
      const fromDeep = await exec('sh', ['-c', `echo "touch pwned" > ${store}/hooks/pre-commit`], { cwd: sunk });
      expect(fromDeep.exitCode).not.toBe(0);
      expect(fs.existsSync(path.join(store, 'hooks', 'pre-commit'))).toBe(false);
      expect(git(tree, 'config', 'core.fsmonitor').stdout).toBe('');
      const commit = await sh(`cd ${tree} && echo hi > a.txt && git add a.txt && git -c user.name=t -c user.email=t@example.com commit -qm two`);
      expect(commit.exitCode, commit.stderr).toBe(0);
      expect(git(main, 'log', '--oneline', 'feature').stdout.trim().split('\n')).toHaveLength(2);
    } finally {
      removeDir(code);
    }
  });

  /** The owner's git, and a repository `name` in the writable root with a submodule at `at` (the owner's own). */
  const withSubmodule = (name: string, at: string) => {
    const repo = path.join(work, name);
    const lib = path.join(home, `${name}-lib`);
    fs.mkdirSync(repo);
    fs.mkdirSync(lib);
    const env = { PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
    const git = (cwd: string, ...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8', env });
    expect(git(lib, 'init', '-q').status).toBe(0);
    expect(git(lib, 'commit', '-q', '--allow-empty', '-m', 'lib').status).toBe(0);
    expect(git(repo, 'init', '-q').status).toBe(0);
    expect(git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, at).status).toBe(0);
    return { repo, git };
  };

  it("a submodule's hooks and config stay read-only too, and its git folder cannot be swapped", async () => {
    const { repo, git } = withSubmodule('with-sub', 'sub');
    const modules = path.join(repo, '.git', 'modules');
    expect(fs.existsSync(path.join(modules, 'sub', 'config'))).toBe(true);
    const { sh } = await serve();
    const tries = [
      `echo "touch pwned" > ${modules}/sub/hooks/post-checkout`,
      `cd ${repo}/sub && git config core.fsmonitor "touch pwned"`,
      `mv ${modules}/sub ${modules}/sub-old`,
      `mv ${modules} ${repo}/.git/modules-old`,
    ];
    for (const attempt of tries) expect((await sh(attempt)).exitCode, attempt).not.toBe(0);
    expect(git(path.join(repo, 'sub'), 'config', 'core.fsmonitor').stdout).toBe('');
    expect(fs.existsSync(path.join(modules, 'sub', 'hooks', 'post-checkout'))).toBe(false);
    // The control: the same write works without the sandbox.
    const { sh: open } = await serve({ shell: { sandbox: 'off' } });
    expect((await open(`cd ${repo}/sub && git config core.fsmonitor "touch pwned"`)).exitCode).toBe(0);
    expect(git(path.join(repo, 'sub'), 'config', 'core.fsmonitor').stdout).toBe('touch pwned\n');
  });

  it("a submodule's .git file past the search's depth and behind 40 .git files a command made stays read-only for a fresh server", async () => {
    const { repo } = withSubmodule('with-deep-sub', 'vendor/deep/er/lib');
    const dotGit = path.join(repo, 'vendor', 'deep', 'er', 'lib', '.git');
    const before = fs.readFileSync(dotGit, 'utf8');
    for (let i = 0; i < 40; i++) {
      fs.mkdirSync(path.join(work, `decoy${i}`));
      fs.writeFileSync(path.join(work, `decoy${i}`, '.git'), 'gitdir: /nowhere\n');
    }
    try {
      // A server that never saw the submodule (as after a restart): its superproject's .git/modules names it.
      const { sh } = await serve();
      const attempt = await sh(`echo "gitdir: ${home}/evil-git" > ${dotGit}`);
      expect(attempt.exitCode).not.toBe(0);
      expect(fs.readFileSync(dotGit, 'utf8')).toBe(before);
    } finally {
      for (let i = 0; i < 40; i++) removeDir(path.join(work, `decoy${i}`));
    }
  });
});

describe.skipIf(!run)('the files that point git elsewhere, in a writable root', () => {
  it("a linked worktree's commondir, gitdir and config.worktree stay read-only, and cannot be moved away with their folder", async () => {
    const repo = path.join(work, 'with-worktree');
    fs.mkdirSync(repo);
    const env = { PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
    const git = (cwd: string, ...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8', env });
    expect(git(repo, 'init', '-q').status).toBe(0);
    expect(git(repo, 'commit', '-q', '--allow-empty', '-m', 'one').status).toBe(0);
    expect(git(repo, 'worktree', 'add', '-q', path.join(work, 'feature'), '-b', 'feature').status).toBe(0);
    const wt = path.join(repo, '.git', 'worktrees', 'feature');
    fs.writeFileSync(path.join(wt, 'config.worktree'), '');
    const before = ['commondir', 'gitdir', 'config.worktree'].map((name) => fs.readFileSync(path.join(wt, name), 'utf8'));
    const { sh } = await serve();
    const tries = [
      `echo ${work}/planted > ${wt}/commondir`,
      `echo /home > ${wt}/gitdir`,
      `printf '[core]\\n\\tfsmonitor = touch pwned\\n' > ${wt}/config.worktree`,
      `mv ${wt} ${wt}-old`,
    ];
    for (const attempt of tries) expect((await sh(attempt)).exitCode, attempt).not.toBe(0);
    expect(['commondir', 'gitdir', 'config.worktree'].map((name) => fs.readFileSync(path.join(wt, name), 'utf8'))).toEqual(before);
    // git still works in the worktree, inside the sandbox.
    expect(await sh(`cd ${work}/feature && git status --porcelain && echo ok`)).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
  });
});

describe.skipIf(!run)('links and floods a command plants in a repository', () => {
  it('a .git or a module folder made a link to a system folder does not make that folder writable', async () => {
    const repo = path.join(work, 'linked-git');
    fs.mkdirSync(repo);
    expect(spawnSync('git', ['init', '-q'], { cwd: repo, env: { PATH, HOME: home } }).status).toBe(0);
    const marker = `chatgpt-mcp-sandbox-link-${process.pid}`;
    try {
      const { sh } = await serve();
      expect(
        (
          await sh(
            `ln -s /etc ${repo}/.git/modules-link && mkdir -p ${repo}/.git/modules && ln -s /etc ${repo}/.git/modules/e && mkdir ${work}/etc-repo && ln -s /etc ${work}/etc-repo/.git`,
          )
        ).exitCode,
      ).toBe(0);
      fs.renameSync(path.join(repo, '.git', 'modules-link'), path.join(repo, '.git', 'unused'));
      const attempt = await sh(`touch /etc/${marker}; echo "[$?]"`);
      expect(attempt.stdout).toMatch(/\[1\]/);
      expect(fs.existsSync(`/etc/${marker}`)).toBe(false);
    } finally {
      fs.rmSync(`/etc/${marker}`, { force: true });
      fs.rmSync(repo, { recursive: true, force: true });
      fs.rmSync(path.join(work, 'etc-repo'), { recursive: true, force: true });
    }
  });

  it("a .git a command made a link to the root, or a read-only root's .git, does not open hooks or that root", async () => {
    const top = path.join(home, 'linked-root');
    const vendor = path.join(top, 'vendor');
    fs.mkdirSync(vendor, { recursive: true });
    const init = (cwd: string) => expect(spawnSync('git', ['init', '-q'], { cwd, env: { PATH, HOME: home } }).status).toBe(0);
    init(top);
    init(vendor);
    try {
      const { sh } = await serve({ filesystem: { write: true, roots: [top, { path: vendor, readOnly: true }] } });
      // The plant: a folder one level below the root whose .git leads back to the root itself.
      expect((await sh(`mkdir ${top}/evil && ln -s ${top} ${top}/evil/.git && echo planted`)).stdout).toBe('planted\n');
      const attempt = await sh(
        `echo 'touch pwned' > ${top}/.git/hooks/pre-commit; echo "[$?]"; touch ${vendor}/.git/objects/x; echo "[$?]"; touch ${vendor}/x; echo "[$?]"`,
      );
      // The shell's redirection fails (2), touch fails (1): hooks, the read-only root's .git, the read-only root.
      expect(attempt.stdout).toBe('[2]\n[1]\n[1]\n');
      expect(fs.existsSync(path.join(top, '.git', 'hooks', 'pre-commit'))).toBe(false);
      expect(fs.existsSync(path.join(vendor, '.git', 'objects', 'x'))).toBe(false);
      // The control: the root itself stays writable.
      expect((await sh(`touch ${top}/ok && echo ok`)).stdout).toBe('ok\n');
    } finally {
      fs.rmSync(top, { recursive: true, force: true });
    }
  });

  it('a deny on a folder that holds other hidden ones (~/.config with a browser profile) hides it all, and commands run', async () => {
    const profile = path.join(home, '.config', 'google-chrome');
    fs.mkdirSync(profile, { recursive: true });
    fs.writeFileSync(path.join(profile, 'Cookies'), 'session-cookie');
    try {
      const { sh } = await serve({ filesystem: { write: true, roots: [work, { path: ref, readOnly: true }], deny: [`${home}/.config/**`] } });
      const result = await sh(`ls -A ${home}/.config; echo "[$?]"; cat ${profile}/Cookies; echo "[$?]"; touch ${home}/.config/x; echo "[$?]"`);
      expect(result.stdout).toBe('[0]\n[1]\n[1]\n');
      expect(result.stdout + result.stderr).not.toContain('session-cookie');
    } finally {
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });

  it("a read-only root at / uncovers none of what the sandbox hides or makes private, nor the host's /dev and /proc", async () => {
    const marker = path.join('/var/tmp', `chatgpt-mcp-sandbox-marker-${process.pid}`);
    fs.writeFileSync(marker, 'host temp');
    try {
      const { sh } = await serve({ filesystem: { write: true, roots: [{ path: '/', readOnly: true }, work] } });
      const checks = [
        'ls -A /var/tmp /run /root | grep -c -v -e "^$" -e ":$"',
        `cat /proc/${process.pid}/environ >/dev/null 2>&1; echo "[$?]"`,
        `ls /proc | grep -c '^[0-9]'`,
        'ls /dev | wc -l',
        `echo w > ${work}/w.txt && cat ${work}/w.txt`,
      ];
      // A plan that mounted / over the rest made bwrap refuse to start (or, where /run is a mount of its own, showed the host's /dev, /proc and /run).
      const result = await sh(checks.join('; '));
      expect(result).toMatchObject({ exitCode: 0, stderr: '' });
      const [entries, environ, pids, devices, written] = result.stdout.trim().split('\n');
      expect(entries).toBe('0');
      expect(environ).toBe('[1]');
      expect(Number(pids)).toBeLessThan(10);
      expect(Number(devices)).toBeLessThan(20);
      expect(written).toBe('w');
      // the control: the host has them
      expect(fs.readdirSync('/var/tmp')).toContain(path.basename(marker));
    } finally {
      fs.rmSync(marker, { force: true });
    }
  });

  it('folders flooding .git/modules make it all read-only rather than leave a module writable', async () => {
    const repo = path.join(work, 'flooded');
    const modules = path.join(repo, '.git', 'modules');
    fs.mkdirSync(repo);
    expect(spawnSync('git', ['init', '-q'], { cwd: repo, env: { PATH, HOME: home } }).status).toBe(0);
    fs.mkdirSync(path.join(modules, 'libs', 'foo', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(modules, 'libs', 'foo', 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(modules, 'libs', 'foo', 'config'), '[core]\n');
    try {
      const { sh } = await serve();
      // The flood: .git/modules itself is writable while it holds few enough entries.
      expect((await sh(`cd ${modules} && for i in $(seq 300); do mkdir d$i; done`)).exitCode).toBe(0);
      const write = await sh(
        `echo 'touch pwned' > ${modules}/libs/foo/hooks/post-checkout; echo x >> ${modules}/libs/foo/config; mkdir ${modules}/new; echo "[$?]"`,
      );
      expect(write.stdout).toMatch(/\[1\]/);
      expect(fs.existsSync(path.join(modules, 'libs', 'foo', 'hooks', 'post-checkout'))).toBe(false);
      expect(fs.readFileSync(path.join(modules, 'libs', 'foo', 'config'), 'utf8')).toBe('[core]\n');
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });

  it('the config stays hidden when its path went through a link that a command then points elsewhere', async () => {
    const secretDir = path.join(work, 'real-conf');
    const other = path.join(work, 'other-conf');
    fs.mkdirSync(secretDir);
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(secretDir, 'config.json'), CONFIG_SECRET);
    fs.symlinkSync(secretDir, path.join(work, 'conf-link'));
    try {
      const { sh } = await serve({}, [path.join(work, 'conf-link', 'config.json')]);
      expect((await sh(`cat ${secretDir}/config.json; true`)).stdout).not.toContain(CONFIG_SECRET);
      expect((await sh(`ln -sfn ${other} ${work}/conf-link && echo relinked`)).stdout).toBe('relinked\n');
      expect((await sh(`cat ${secretDir}/config.json; true`)).stdout).not.toContain(CONFIG_SECRET);
    } finally {
      for (const name of ['real-conf', 'other-conf', 'conf-link']) fs.rmSync(path.join(work, name), { recursive: true, force: true });
    }
  });
});

describe.skipIf(!run)('hidden paths inside a writable root', () => {
  it('cannot be uncovered by renaming a folder above them, while other folders still rename', async () => {
    const secret = 'deny-listed-secret-51c2';
    fs.mkdirSync(path.join(work, 'app', 'private'), { recursive: true });
    fs.mkdirSync(path.join(work, 'plain'), { recursive: true });
    fs.writeFileSync(path.join(work, 'app', 'private', 'key.txt'), secret);
    try {
      const { sh } = await serve({ filesystem: { write: true, roots: [work], deny: [`${work}/app/private/**`] } });
      const moved = await sh(`mv ${work}/app ${work}/app2`);
      expect(moved.exitCode).not.toBe(0);
      expect(moved.stderr).toMatch(/busy/i);
      expect(fs.existsSync(path.join(work, 'app', 'private', 'key.txt'))).toBe(true);
      const reads = await sh(`cat ${work}/app/private/key.txt ${work}/app2/private/key.txt 2>&1; true`);
      expect(reads.stdout).not.toContain(secret);
      // The control: a folder above nothing hidden renames as usual.
      expect((await sh(`mv ${work}/plain ${work}/plain2 && ls ${work}`)).stdout).toContain('plain2');
    } finally {
      for (const name of ['app', 'app2', 'plain', 'plain2']) fs.rmSync(path.join(work, name), { recursive: true, force: true });
    }
  });
});

describe.skipIf(!run)('the token never leaks', () => {
  const TOKEN = 'sandbox-token-7b3d9e1f2a4c6e8b';

  async function cliServer(sandbox: 'auto' | 'off') {
    const cliHome = makeTempDir('chatgpt-mcp-sandbox-cli-');
    const cliWork = path.join(cliHome, 'work');
    fs.mkdirSync(cliWork);
    const config = writeJson(path.join(cliHome, '.config', 'chatgpt-mcp', 'config.json'), {
      server: { token: TOKEN },
      filesystem: { write: true, roots: [cliWork] },
      shell: { enabled: true, allowedCommands: ['*'], sandbox },
    });
    const env = childEnv(cliHome, { PATH, CHATGPT_MCP_CONFIG: config });
    const started = await startCliHttp([], env);
    open.push({ close: async () => void stop(started.child) });
    open.push({ close: async () => removeDir(cliHome) });
    const client = await connectModernHttp(started.url, TOKEN);
    open.push(client);
    return { client, pid: started.child.pid!, cliHome };
  }

  const everything = (pid: number, cliHome: string) =>
    [
      // NUL-separated: turned into lines, so the output is text (binary output is reported by size only).
      `cat /proc/${pid}/environ /proc/${pid}/cmdline | tr '\\0' '\\n'`,
      "cat /proc/*/environ | tr '\\0' '\\n'",
      'env',
      `cat ${cliHome}/.config/chatgpt-mcp/config.json`,
      // Bounded: /tmp can be large on a shared machine.
      `timeout 10 grep -r ${TOKEN.slice(0, 12)} ${cliHome} /tmp 2>/dev/null | head -3`,
    ].join('; ');

  it('not from the server process, its config file or anything else a command can read', async () => {
    const { client, pid, cliHome } = await cliServer('auto');
    const result = await client.callTool({ name: 'shell.exec', arguments: { command: 'sh', args: ['-c', everything(pid, cliHome)] } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(JSON.stringify(result)).not.toContain('redacted');
  });

  it('(control) without the sandbox, the same command finds it', async () => {
    const { client, pid, cliHome } = await cliServer('off');
    const result = await client.callTool({ name: 'shell.exec', arguments: { command: 'sh', args: ['-c', everything(pid, cliHome)] } });
    expect((result.structuredContent as unknown as Shell).stdout).toContain(TOKEN);
  });
});

describe.skipIf(!run)('shell.network', () => {
  let server: net.Server;
  let port: number;
  beforeAll(async () => {
    server = net.createServer((socket) => socket.end('hello from the host\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const connect = () =>
    `import socket\ntry:\n    s = socket.create_connection(("127.0.0.1", ${port}), timeout=3)\n    print("connected", s.recv(64).decode().strip())\nexcept OSError as e:\n    print("refused", type(e).__name__)`;

  it('"off" (the default in the sandbox): a command cannot connect to a loopback server on this computer', async () => {
    const { exec, client } = await serve();
    expect((await exec('python3', ['-c', connect()])).stdout).toMatch(/^refused ConnectionRefusedError/);
    const info = await client.callTool({ name: 'system.info', arguments: {} });
    expect((info.structuredContent as { capabilities: { shell: { sandbox: { network: string } } } }).capabilities.shell.sandbox.network).toBe('off');
  });

  it('"on": it can', async () => {
    const { exec } = await serve({ shell: { network: 'on' } });
    expect((await exec('python3', ['-c', connect()])).stdout).toBe('connected hello from the host\n');
  });
});

describe.skipIf(!run)('limits inside the sandbox', () => {
  it('the timeout kills the whole tree, setsid children included; output stays bounded', async () => {
    const { exec } = await serve({ shell: { maxOutputBytes: 2048 } });
    const slow = await exec('sh', ['-c', 'setsid sleep 3011.5 & sleep 3011.6'], { timeoutMs: 500 });
    expect(slow.timedOut).toBe(true);
    expect(spawnSync('pgrep', ['-f', 'sleep 3011\\.']).status).toBe(1);
    const loud = await exec('head', ['-c', '100000', '/dev/zero']);
    expect((loud as Shell & { stdoutTruncated: boolean }).stdoutTruncated).toBe(true);
    expect(Buffer.byteLength(loud.stdout)).toBeLessThanOrEqual(2048);
  });

  it('process handles run inside it too: a promoted shell.exec and a process.start, and process.stop ends them', async () => {
    const { client, exec } = await serve();
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(textOf(result));
      return result.structuredContent as Record<string, unknown> & { processHandle: string; stdout: { text: string } };
    };
    const promoted = (await exec('sh', ['-c', `echo start; echo x > ${home}/escaped.txt 2>/dev/null || echo refused; sleep 3012.5`], {
      promoteAfterMs: 300,
    })) as Shell & { processHandle?: string };
    expect(promoted.stdout).toBe('start\nrefused\n');
    expect(promoted.processHandle).toMatch(/^proc_/);
    const started = await call('process.start', { command: 'sh', args: ['-c', `cat ${home}/.ssh/id_rsa 2>/dev/null || echo no-key; sleep 3012.6`] });
    const output = await call('process.output', { processHandle: started.processHandle, waitMs: 5000 });
    expect(output.stdout.text).toBe('no-key\n');
    for (const handle of [promoted.processHandle!, started.processHandle])
      expect(await call('process.stop', { processHandle: handle })).toMatchObject({ state: 'exited' });
    expect(fs.existsSync(path.join(home, 'escaped.txt'))).toBe(false);
    expect(spawnSync('pgrep', ['-f', 'sleep 3012\\.']).status).toBe(1);
  });
});

describe.skipIf(!run)('system.info', () => {
  it('says commands are sandboxed, by what, where they write and what they never see', async () => {
    const { client } = await serve();
    const info = await client.callTool({ name: 'system.info', arguments: {} });
    const sandbox = (info.structuredContent as { capabilities: { shell: { sandbox: Record<string, unknown> } } }).capabilities.shell.sandbox;
    expect(sandbox).toMatchObject({
      mode: 'workspace',
      mechanism: 'bubblewrap',
      network: 'off',
      display: 'hidden',
      version: expect.stringMatching(/^bubblewrap /),
    });
    expect(sandbox.writable).toEqual([work, 'a private temp folder (/tmp, /var/tmp)']);
    expect(sandbox.hidden).toEqual(expect.arrayContaining(["this app's config and folders", '~/.ssh', '~/.aws', '~/.gnupg']));
    expect(textOf(info)).toMatch(/Commands run in a bubblewrap sandbox/);
  });
});

describe.skipIf(!linux)('start', () => {
  it('a missing bwrap stops the server with the install command; shell.sandbox "off" starts it', async () => {
    const cliHome = makeTempDir('chatgpt-mcp-sandbox-start-');
    open.push({ close: async () => removeDir(cliHome) });
    const config = writeJson(path.join(cliHome, 'config.json'), { shell: { enabled: true, allowedCommands: ['true'] } });
    // A PATH without bwrap (the server itself is started by absolute path).
    const env = childEnv(cliHome, { PATH: path.join(cliHome, 'no-bin'), CHATGPT_MCP_CONFIG: config });
    const refused = await runCli(['serve', '--stdio'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /cannot start: commands run in a bubblewrap sandbox by default .*bubblewrap is not installed .*sudo apt-get install bubblewrap.*shell\.sandbox to "off"/,
    );
    const check = await runCli(['config', 'check'], env);
    expect(check.code).toBe(2);
    expect(check.stderr).toMatch(/would refuse to start: .*apt-get install bubblewrap/);

    // With bwrap there and the network shared, the start log says the X11 abstract sockets stay
    // reachable, unless the kernel's Landlock keeps them out.
    if (run) {
      writeJson(config, { shell: { enabled: true, allowedCommands: ['true'], network: 'on' } });
      const shared = await runCli(['serve', '--stdio'], { ...env, PATH });
      expect(shared.code).toBe(0);
      if (abstractSocketScope()) expect(shared.stderr).not.toMatch(/abstract sockets/);
      else expect(shared.stderr).toMatch(/"level":"warn".*X11 abstract sockets stay reachable/);
    }

    writeJson(config, { shell: { enabled: true, allowedCommands: ['true'], sandbox: 'off' } });
    const checked = await runCli(['config', 'check'], env);
    expect(checked.code).toBe(0);
    expect(checked.stderr).toMatch(/commands: Commands are not sandboxed: an allowed program runs with your account's full rights/);
  });
});

describe.skipIf(!run || spawnSync('setpriv', ['--version']).status !== 0 || process.getuid?.() !== 0)('as an unprivileged user (setpriv to nobody)', () => {
  let nobodyHome: string;
  let client: V1Client;
  let transport: V1StdioTransport;
  beforeAll(async () => {
    nobodyHome = makeTempDir('chatgpt-mcp-sandbox-nobody-');
    const nobodyWork = path.join(nobodyHome, 'work');
    fs.mkdirSync(path.join(nobodyHome, '.ssh'), { recursive: true });
    fs.mkdirSync(nobodyWork);
    fs.writeFileSync(path.join(nobodyHome, '.ssh', 'id_rsa'), SECRET_KEY);
    const config = writeJson(path.join(nobodyHome, 'config.json'), {
      filesystem: { write: true, roots: [nobodyWork] },
      // A home under /tmp is inside the private temp folder, where "private-home" has nothing to make read-only.
      shell: { enabled: true, allowedCommands: ['sh'], sandbox: 'workspace' },
    });
    spawnSync('chown', ['-R', '65534:65534', nobodyHome]);
    fs.chmodSync(nobodyHome, 0o755);
    transport = new V1StdioTransport({
      command: 'setpriv',
      args: ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, CLI, 'serve', '--stdio', '--config', config],
      env: { PATH, HOME: nobodyHome, XDG_CONFIG_HOME: path.join(nobodyHome, '.config') },
      stderr: 'pipe',
    });
    client = new V1Client({ name: 'test-nobody', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    if (nobodyHome) removeDir(nobodyHome);
  });

  it('uses a user namespace, writes only in its root, and cannot read its own ~/.ssh or the server process', async () => {
    const pid = transport.pid!;
    const code = [
      'id -u',
      `echo ok > ${nobodyHome}/work/w && echo wrote-root`,
      `echo x > ${nobodyHome}/outside 2>/dev/null || echo no-home-write`,
      `cat ${nobodyHome}/.ssh/id_rsa 2>/dev/null || echo no-key`,
      `cat /proc/${pid}/environ 2>/dev/null || echo no-environ`,
    ].join('; ');
    const result = (await client.callTool({ name: 'shell_exec', arguments: { command: 'sh', args: ['-c', code] } })) as CallResult;
    expect((result.structuredContent as unknown as Shell).stdout).toBe('65534\nwrote-root\nno-home-write\nno-key\nno-environ\n');
    expect(fs.existsSync(path.join(nobodyHome, 'outside'))).toBe(false);
    const info = (await client.callTool({ name: 'system_info', arguments: {} })) as CallResult;
    expect(JSON.stringify(info.structuredContent)).toContain('"mechanism":"bubblewrap"');
  });
});

function stop(child: ChildProcess): void {
  if (child.exitCode === null) child.kill('SIGTERM');
}
