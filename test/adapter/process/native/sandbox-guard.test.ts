/**
 * The sandbox guard (adapter/process/native/sandbox-guard.c) run by a real bwrap, as the launch
 * runs it, with mounts made by hand to look like each way a start can go wrong: what it refuses,
 * and that a command it lets run gets none of the descriptors it was handed (they reach real
 * folders past every cover).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxGuard } from '../../../../adapter/process/sandbox/launch.js';
import { sandboxSupport } from '../../../../adapter/process/sandbox/support.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

const usable = process.platform === 'linux' && sandboxSupport('linux', process.env).usable;
const required = process.env.REQUIRE_DESKTOP_TESTS === '1' && process.platform === 'linux';
const O_PATH = 0o10000000;
let dir: string;
let repo: string;

beforeAll(() => {
  if (!usable && !required) return;
  dir = makeTempDir();
  repo = path.join(dir, 'repo');
  fs.mkdirSync(path.join(repo, '.git', 'hooks'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'elsewhere', 'hooks'), { recursive: true });
});
afterAll(() => dir && removeDir(dir));

/**
 * bwrap with `mounts`, then the guard (handed on last) checking `checks` ([folder, source or null, place]),
 * every folder and source opened here and handed on from 3; the command lists the descriptors it has.
 */
function guarded(mounts: string[], checks: [string, string | null, string][]) {
  const opened: number[] = [];
  const fdOf = (place: string) => String(3 + opened.push(fs.openSync(place, O_PATH)) - 1);
  const args = checks.flatMap(([folder, source, place]) => [fdOf(folder), source === null ? '-' : fdOf(source), place]);
  const guardFd = fdOf(sandboxGuard()!);
  try {
    const bwrap = ['--unshare-user-try', '--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...mounts];
    const command = ['/bin/sh', '-c', 'echo ran; ls /proc/self/fd'];
    const result = spawnSync('bwrap', [...bwrap, '--', `/proc/self/fd/${guardFd}`, String(checks.length), ...args, ...command], {
      stdio: ['ignore', 'pipe', 'pipe', ...opened],
      encoding: 'utf8',
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  } finally {
    for (const fd of opened) fs.closeSync(fd);
  }
}

const hooks = () => path.join(repo, '.git', 'hooks');
const refusal = (place: string, what: string) => `chatgpt-mcp sandbox: ${place} ${what} while the command was starting (by another program); nothing ran\n`;

describe.skipIf(!usable && !required)('sandbox-guard', () => {
  it('is built, and linked statically (no loader reads the LD_* variables the command gets)', () => {
    expect(sandboxGuard(), 'build/native.mjs builds out/native/sandbox-guard').not.toBeNull();
    expect(fs.readFileSync(sandboxGuard()!).includes('/ld-linux')).toBe(false);
  });

  it('runs the command when every mount is where the plan put it, and hands it none of its descriptors', () => {
    const git = path.join(repo, '.git');
    const outcome = guarded(
      ['--bind', dir, dir, '--ro-bind', hooks(), hooks()],
      [
        [path.dirname(dir), dir, dir],
        [git, hooks(), hooks()],
      ],
    );
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    // sh's own: 0-2 and the one ls reads /proc/self/fd with.
    expect(outcome.stdout.split('\n').filter(Boolean)).toEqual(['ran', '0', '1', '2', '3']);
  });

  it('refuses a place that is no mount point: the cover was made elsewhere (the folder was moved and moved back)', () => {
    const outcome = guarded(['--bind', dir, dir], [[path.join(repo, '.git'), hooks(), hooks()]]);
    expect(outcome).toEqual({ code: 125, stdout: '', stderr: refusal(hooks(), 'was moved') });
    const missing = path.join(repo, 'nothing-here');
    expect(guarded(['--bind', dir, dir], [[repo, null, missing]])).toEqual({ code: 125, stdout: '', stderr: refusal(missing, 'was moved or removed') });
  });

  it('refuses a mount that shows something else than what the server opened at the place', () => {
    const other = path.join(dir, 'elsewhere', 'hooks');
    const outcome = guarded(['--bind', dir, dir, '--ro-bind', other, hooks()], [[path.join(repo, '.git'), hooks(), hooks()]]);
    expect(outcome).toEqual({ code: 125, stdout: '', stderr: refusal(hooks(), 'was moved') });
  });

  it('refuses what the server opened when it is no longer at the place (a folder mounted from where it was moved to)', () => {
    const other = path.join(dir, 'elsewhere', 'hooks');
    const outcome = guarded(['--bind', dir, dir, '--ro-bind', other, hooks()], [[path.join(repo, '.git'), other, hooks()]]);
    expect(outcome).toEqual({ code: 125, stdout: '', stderr: refusal(hooks(), 'was moved') });
  });

  it('refuses a place whose folder the server opened is not there now (it was moved away)', () => {
    const git = path.join(repo, '.git');
    const outcome = guarded(['--bind', dir, dir, '--ro-bind', hooks(), hooks()], [[path.join(dir, 'elsewhere'), null, hooks()]]);
    expect(outcome).toEqual({ code: 125, stdout: '', stderr: refusal(git, 'was moved or removed') });
  });

  it('refuses a place whose folder in here is another folder than the one the server opened there', () => {
    const elsewhere = path.join(dir, 'elsewhere');
    const outcome = guarded(['--bind', dir, dir, '--bind', path.join(repo, '.git'), elsewhere], [[elsewhere, null, path.join(elsewhere, 'hooks')]]);
    expect(outcome).toEqual({ code: 125, stdout: '', stderr: refusal(elsewhere, 'was moved or replaced') });
  });

  it('refuses a link on the way to a place', () => {
    const link = path.join(dir, 'link');
    fs.symlinkSync(repo, link);
    const outcome = guarded(['--bind', dir, dir], [[repo, null, path.join(link, '.git')]]);
    expect(outcome.code).toBe(125);
    expect(outcome.stdout).toBe('');
  });

  it('refuses a command line it cannot read, and runs nothing', () => {
    const guard = sandboxGuard()!;
    for (const args of [[], ['x', '/bin/true'], ['1', '3', '-', '/tmp'], ['1', 'three', '-', '/tmp', '/bin/true'], ['1', '3', 'x', '/tmp', '/bin/true']]) {
      const result = spawnSync(guard, args, { encoding: 'utf8' });
      expect(result.status, JSON.stringify(args)).toBe(125);
      expect(result.stderr).toMatch(/^chatgpt-mcp sandbox: /);
    }
  });

  it('writes one byte to its start mark first (--started), before any check, and hands the command no descriptor of it', () => {
    const mark = path.join(dir, 'mark');
    const run = (args: string[]) => {
      const fd = fs.openSync(mark, 'w+');
      try {
        const result = spawnSync(sandboxGuard()!, ['--started', '3', ...args], { stdio: ['ignore', 'pipe', 'pipe', fd], encoding: 'utf8' });
        return { status: result.status, stdout: result.stdout, marked: fs.readFileSync(mark, 'utf8') };
      } finally {
        fs.closeSync(fd);
      }
    };
    expect(run(['0', '/bin/sh', '-c', 'ls /proc/self/fd'])).toEqual({ status: 0, stdout: '0\n1\n2\n3\n', marked: '1' });
    // Refused by a check: it ran all the same, so the mark is there (the refusal says what happened).
    expect(run(['1', '4', '-', '/nowhere', '/bin/true'])).toMatchObject({ status: 125, marked: '1' });
    // A mark it cannot write to is a command line it cannot read.
    const result = spawnSync(sandboxGuard()!, ['--started', '9', '0', '/bin/true'], { encoding: 'utf8' });
    expect([result.status, result.stderr]).toEqual([125, expect.stringMatching(/^chatgpt-mcp sandbox: usage: --started/)]);
  });

  it('execs no shell for a file that is no program, as the server never does', () => {
    const script = path.join(dir, 'no-shebang');
    fs.writeFileSync(script, 'echo ran\n', { mode: 0o755 });
    const result = spawnSync(sandboxGuard()!, ['0', script], { encoding: 'utf8' });
    expect(result.status).toBe(126);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Exec format error');
    expect(execFileSync(sandboxGuard()!, ['0', '/bin/echo', 'a b'], { encoding: 'utf8' })).toBe('a b\n');
  });
});
