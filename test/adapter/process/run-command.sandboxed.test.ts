/**
 * runCommand inside a real bubblewrap sandbox, with the plan the real policies build: the
 * timeout (and a cancelled request) still ends every process inside, including ones that left
 * the process group with setsid or ignore SIGTERM; a command's leftovers end with it; output
 * stays bounded. What bwrap mounts is what the plan named, even when another program swaps a
 * folder for a link between the plan and the start.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGit } from '../../../adapter/git/run-git.js';
import { runCommand } from '../../../adapter/process/run-command.js';
import { closeMountSources, openHandOn } from '../../../adapter/process/sandbox/bind-sources.js';
import { guardRefusal } from '../../../adapter/process/sandbox/guard-plan.js';
import { sandboxed, sandboxGuard } from '../../../adapter/process/sandbox/launch.js';
import { startChild } from '../../../adapter/process/start-child.js';
import { sandboxSupport } from '../../../adapter/process/sandbox/support.js';
import { FilesystemPolicy } from '../../../main/policy/filesystem.js';
import { SandboxPolicy } from '../../../main/policy/sandbox.js';
import { ShellPolicy, type ShellRequest } from '../../../main/policy/shell.js';
import { localPort } from '../../helpers/adapter.js';
import { processesWith } from '../../helpers/proc.js';
import { makeConfig } from '../../helpers/servers.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

const usable = process.platform === 'linux' && sandboxSupport('linux', process.env).usable;
// CI installs bubblewrap (.ci/run) and must not skip this file.
const required = process.env.REQUIRE_DESKTOP_TESTS === '1' && process.platform === 'linux';
if (!usable && process.platform === 'linux' && !required)
  console.warn('\n*** SKIPPING the sandboxed runCommand tests: bwrap is missing or cannot create namespaces here. ***\n');
let dir: string;
let shell: ShellPolicy;

beforeAll(() => {
  if (!usable && !required) return;
  dir = makeTempDir();
  const config = makeConfig({ filesystem: { write: true, roots: [dir] }, shell: { enabled: true, allowedCommands: ['sh', 'head'] } });
  const port = localPort({ PATH: '/usr/bin:/bin', HOME: dir });
  const files = new FilesystemPolicy(config.filesystem, port);
  shell = new ShellPolicy(config, files, port, undefined, new SandboxPolicy(config, files, port));
});
afterAll(() => dir && removeDir(dir));

/** Processes whose command line contains `marker` (this machine's /proc, outside any sandbox). */
const alive = (marker: string) => processesWith(marker).map((p) => p.pid);

async function run(request: ShellRequest, extra: { signal?: AbortSignal } = {}) {
  const plan = await shell.plan(request);
  expect(plan.sandbox?.mechanism).toBe('bubblewrap');
  return runCommand({ ...plan, ...extra });
}

describe.skipIf(!usable && !required)('runCommand in a bubblewrap sandbox', () => {
  it('a timeout ends every process inside: children, one that called setsid, one that ignores SIGTERM', async () => {
    const code = 'sleep 3001.1 & setsid sleep 3001.2 & (trap "" TERM; sleep 3001.3) & echo started; wait';
    const started = Date.now();
    const result = await run({ command: 'sh', args: ['-c', code], timeoutMs: 600 });
    expect(result.timedOut).toBe(true);
    expect(result.stdout).toBe('started\n');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(alive('3001.')).toEqual([]);
  });

  it('a cancelled request ends them the same way', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 400);
    const result = await run({ command: 'sh', args: ['-c', 'setsid sleep 3002.1 & sleep 3002.2; echo never'] }, { signal: controller.signal });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBeNull();
    expect(alive('3002.')).toEqual([]);
  });

  it("a command's background leftovers end when it does, even outside its process group", async () => {
    const result = await run({ command: 'sh', args: ['-c', 'setsid sleep 3003.1 >/dev/null 2>&1 & sleep 3003.2 >/dev/null 2>&1 & echo left'] });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'left\n', timedOut: false });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive('3003.')).toEqual([]);
  });

  it('bounds the output per stream', async () => {
    const plan = await shell.plan({ command: 'head', args: ['-c', '300000', '/dev/zero'] });
    const result = await runCommand({ ...plan, maxOutputBytes: 1000 });
    expect(result.exitCode).toBe(0);
    expect(result.stdoutTruncated).toBe(true);
    expect(Buffer.byteLength(result.stdout)).toBeLessThanOrEqual(1000);
  });

  it('passes exit statuses on: a child killed by a signal is 128 + n; the command ignores signals it sends itself (process 1)', async () => {
    const result = await run({ command: 'sh', args: ['-c', 'kill -SEGV $$'] });
    // As process 1 of its namespace the command ignores signals from inside without a handler...
    expect(result).toMatchObject({ exitCode: 0, signal: null });
    // ...but its children are ordinary processes.
    const child = await run({ command: 'sh', args: ['-c', 'sleep 5 & kill -KILL $!; wait $!'] });
    expect(child).toMatchObject({ exitCode: 137, signal: null, timedOut: false });
  });

  it('runs in the working directory it was given, and TMPDIR is the private temp folder', async () => {
    fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
    const plan = await shell.plan({ command: 'sh', args: ['-c', 'pwd; echo "$TMPDIR"; touch "$TMPDIR/x" && echo wrote'], cwd: path.join(dir, 'sub') });
    const result = await runCommand({ ...plan, env: { ...plan.env, TMPDIR: '/somewhere/else' } });
    expect(result.stdout).toBe(`${path.join(dir, 'sub')}\n/tmp\nwrote\n`);
  });

  describe('a place swapped for a link between the plan and the start (a process handle can do it) is refused, and nothing outside is written', () => {
    // A repository's .git is mounted writable (pinned); bwrap given its path would mount what a link there names.
    const swapped = async (name: string, swap: (repo: string, outside: string) => void) => {
      const repo = path.join(dir, name);
      const outside = makeTempDir();
      try {
        execFileSync('git', ['init', '-q', repo]);
        const plan = await shell.plan({ command: 'sh', args: ['-c', 'touch .git/planted && echo wrote'], cwd: repo });
        expect(plan.sandbox?.entries).toContainEqual(expect.objectContaining({ path: path.join(repo, '.git'), access: 'write' }));
        swap(repo, outside);
        const outcome = await runCommand(plan).then(
          (result) => ({ stdout: result.stdout }),
          (error: Error & { code?: string }) => ({ code: error.code, message: error.message }),
        );
        return { outcome, landed: fs.readdirSync(outside, { recursive: true }).map(String) };
      } finally {
        removeDir(outside);
      }
    };

    it('the folder itself', async () => {
      const { outcome, landed } = await swapped('swap-last', (repo, outside) => {
        fs.renameSync(path.join(repo, '.git'), path.join(repo, '.git-real'));
        fs.symlinkSync(outside, path.join(repo, '.git'));
      });
      expect(outcome).toEqual({ code: 'PRECONDITION_FAILED', message: expect.stringContaining('replaced by a link while the command was starting') });
      expect(landed).toEqual([]);
    });

    it('a folder on the way to it', async () => {
      const { outcome, landed } = await swapped('swap-middle', (repo, outside) => {
        fs.mkdirSync(path.join(outside, '.git'));
        fs.renameSync(repo, `${repo}-real`);
        fs.symlinkSync(outside, repo);
      });
      expect(outcome).toEqual({ code: 'PRECONDITION_FAILED', message: expect.stringContaining(`${path.join(dir, 'swap-middle')} was moved`) });
      expect(landed).toEqual(['.git']);
    });
  });

  describe("a folder holding a repository moved between the start's check and bwrap's mounts (fs_move, or a process handle, can do it)", () => {
    // bwrap, which finds where to mount by path, makes the old place anew and covers that; the guard then refuses.
    const moveDuringStart = async (name: string, guard: string | null) => {
      const box = path.join(dir, name);
      const repo = path.join(box, 'repo');
      const hook = path.join(`${box}-moved`, 'repo', '.git', 'hooks', 'pre-commit');
      execFileSync('git', ['init', '-q', repo]);
      const plan = await shell.plan({ command: 'sh', args: ['-c', `echo planted > ${hook} && echo wrote`], cwd: dir });
      expect(plan.sandbox?.entries).toContainEqual(expect.objectContaining({ path: path.join(repo, '.git', 'hooks'), access: 'read' }));
      const launch = sandboxed(plan, guard);
      const handOn = openHandOn(launch.handOn);
      fs.renameSync(box, `${box}-moved`);
      let child;
      try {
        child = startChild(launch.file, launch.args, { argv0: undefined, cwd: dir, env: launch.env, stdin: 'ignore', platform: 'linux', handOn: handOn.fds });
      } finally {
        closeMountSources(handOn.fds);
      }
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      // Both listened for at once: 'close' can come in the same turn as 'exit'.
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
      const [code] = await Promise.all([exited, closed]);
      return { code, stdout, stderr, planted: fs.existsSync(hook) };
    };

    it('without the guard, the command writes the real hooks (what the guard is for)', async () => {
      const outcome = await moveDuringStart('moved-unguarded', null);
      expect(outcome).toMatchObject({ code: 0, stdout: 'wrote\n', planted: true });
    });

    it('with the guard, nothing runs, and the guard says what moved', async () => {
      const guard = sandboxGuard();
      expect(guard, 'build/native.mjs builds out/native/sandbox-guard (CI requires it)').not.toBeNull();
      const outcome = await moveDuringStart('moved-guarded', guard);
      expect(outcome).toEqual({
        code: 125,
        stdout: '',
        // The folder moved is mounted (pinned, on the way to .git) from where it went: it is no longer at its place.
        stderr: `chatgpt-mcp sandbox: ${path.join(dir, 'moved-guarded')} was moved while the command was starting (by another program); nothing ran\n`,
        planted: false,
      });
      expect(guardRefusal(outcome.code, outcome.stderr)).toContain('was moved');
    });

    it("runCommand answers the guard's refusal as PRECONDITION_FAILED, with the guard's reason", async () => {
      const repo = path.join(dir, 'refused');
      execFileSync('git', ['init', '-q', repo]);
      const plan = await shell.plan({ command: 'sh', args: ['-c', 'echo ran > ran'], cwd: repo });
      // A stand-in for bwrap that mounts nothing and runs what follows its "--": the guard, which then finds no place mounted.
      const standIn = path.join(dir, 'no-mounts-bwrap');
      fs.writeFileSync(standIn, '#!/bin/sh\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n', { mode: 0o755 });
      await expect(runCommand({ ...plan, sandbox: { ...plan.sandbox!, program: standIn } })).rejects.toMatchObject({
        code: 'PRECONDITION_FAILED',
        message: `the sandbox was not started: ${repo} was moved while the command was starting (by another program); nothing ran, and running it again plans the sandbox anew`,
      });
      expect(fs.existsSync(path.join(repo, 'ran'))).toBe(false);
    });

    it('runCommand answers a bwrap that failed before the guard ran (a place moved while it mounted) as PRECONDITION_FAILED, with its line', async () => {
      const repo = path.join(dir, 'not-set-up');
      execFileSync('git', ['init', '-q', repo]);
      const plan = await shell.plan({ command: 'sh', args: ['-c', 'echo ran > ran'], cwd: repo });
      // What bwrap 0.8 printed when fs.move fell between two of its mounts (sandbox-move-race.test.ts), and its status.
      const said = `bwrap: Can't remount readonly on /newroot${repo}/.git/.git: realpath(destination): No such file or directory`;
      const standIn = path.join(dir, 'failing-bwrap');
      fs.writeFileSync(standIn, `#!/bin/sh\necho "${said}" >&2\nexit 1\n`, { mode: 0o755 });
      const notSetUp = {
        code: 'PRECONDITION_FAILED',
        message: `the sandbox was not set up (${said}): most likely a place it mounts was moved or removed while the command was starting (by another program); nothing ran, and running it again plans the sandbox anew`,
      };
      await expect(runCommand({ ...plan, sandbox: { ...plan.sandbox!, program: standIn } })).rejects.toMatchObject(notSetUp);
      // A git run is refused the same way, not answered as git's own failure.
      const git = { file: '/usr/bin/git', env: plan.env, cwd: repo, sandbox: { ...plan.sandbox!, program: standIn } };
      await expect(runGit(git, ['status'], { operation: 'git.status' })).rejects.toMatchObject(notSetUp);
      // A command that says the same and fails the same way ran: its own answer, as it is.
      const mimic = await shell.plan({ command: 'sh', args: ['-c', `echo ran > ran; echo "${said}" >&2; exit 1`], cwd: repo });
      expect(await runCommand(mimic)).toMatchObject({ exitCode: 1, stderr: `${said}\n` });
      expect(fs.existsSync(path.join(repo, 'ran'))).toBe(true);
    });
  });

  describe("a cover the owner's git takes off while a command runs (it renames a new .git/config over the old one)", () => {
    const started = async (name: string, script: string, prepare?: (repo: string) => void) => {
      const repo = path.join(dir, name);
      execFileSync('git', ['init', '-q', repo]);
      prepare?.(repo);
      const plan = await shell.plan({ command: 'sh', args: ['-c', script], cwd: repo });
      return { repo, running: runCommand({ ...plan, timeoutMs: 20_000 }) };
    };
    // Until the command has started (its sandbox mounted): the file it touches first.
    const waitFor = async (file: string) => {
      for (let i = 0; i < 200 && !fs.existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    };

    it('stops the command, says why, and nothing it would have written after lands', async () => {
      const { repo, running } = await started('cover-lost', 'touch started; sleep 3; echo "[core] hooksPath = /tmp/x" >> .git/config && echo wrote');
      await waitFor(path.join(repo, 'started'));
      execFileSync('git', ['config', 'user.name', 'owner'], { cwd: repo });
      const result = await running;
      expect(result.signal).toBe('SIGKILL');
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`chatgpt-mcp sandbox: stopped: ${path.join(repo, '.git', 'config')} was replaced or removed outside the sandbox`);
      expect(result.sandboxStopped).toMatch(/^\S+\/\.git\/config was replaced or removed outside the sandbox/);
      expect(fs.readFileSync(path.join(repo, '.git', 'config'), 'utf8')).not.toContain('hooksPath');
    });

    it('stops a git run the same way, and its caller learns why, not an exit code', async () => {
      const repo = path.join(dir, 'cover-lost-git');
      execFileSync('git', ['init', '-q', repo]);
      const plan = await shell.plan({ command: 'sh', args: [], cwd: repo });
      // runGit runs the program it is given: a shell here, so that it waits for the owner's git.
      const running = runGit({ file: '/bin/sh', env: plan.env, cwd: repo, sandbox: plan.sandbox!, timeoutMs: 20_000 }, ['-c', 'touch started; sleep 3'], {
        operation: 'git.status',
      });
      await waitFor(path.join(repo, 'started'));
      execFileSync('git', ['config', 'user.name', 'owner'], { cwd: repo });
      await expect(running).rejects.toMatchObject({
        code: 'PRECONDITION_FAILED',
        message: expect.stringContaining(`was stopped: ${path.join(repo, '.git', 'config')} was replaced or removed outside the sandbox`),
      });
    });

    it('lets it run when the owner writes into the covered file, and when bwrap makes the empty ones it covers missing places with', async () => {
      const { repo, running } = await started('cover-kept', 'touch started; sleep 1; echo done', (repo) =>
        fs.rmSync(path.join(repo, '.git', 'hooks'), { recursive: true }),
      );
      await waitFor(path.join(repo, 'started'));
      fs.appendFileSync(path.join(repo, '.git', 'config'), '# a note\n');
      const result = await running;
      expect({ code: result.exitCode, stdout: result.stdout, stderr: result.stderr, stopped: result.sandboxStopped }).toEqual({
        code: 0,
        stdout: 'done\n',
        stderr: '',
        stopped: undefined,
      });
    });
  });

  it("lets sandboxes started at once in one repository run, though each one's bwrap may make a place the others cover (all see its event)", async () => {
    const repo = path.join(dir, 'at-once');
    execFileSync('git', ['init', '-q', repo]);
    const plan = await shell.plan({ command: 'sh', args: ['-c', 'sleep 0.3; echo done'], cwd: repo });
    const results = await Promise.all(Array.from({ length: 6 }, () => runCommand(plan)));
    expect(results.map((r) => [r.exitCode, r.stdout, r.stderr])).toEqual(Array.from({ length: 6 }, () => [0, 'done\n', '']));
  });

  it("loader variables (LD_*) act only inside: bwrap's own loader, outside the sandbox, never sees them", async () => {
    const plan = await shell.plan({ command: 'sh', args: ['-c', 'echo "$LD_DEBUG"'] });
    const result = await runCommand({ ...plan, env: { ...plan.env, LD_DEBUG: 'files' } });
    expect(result.stdout).toContain('files');
    // The program inside loads with LD_DEBUG (its loader reports); bwrap, started outside, does not.
    expect(result.stderr).toMatch(/needed by/);
    expect(result.stderr).not.toMatch(/needed by (?:\S*\/)?bwrap/);
  });
});
