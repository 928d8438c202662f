/** The command policy: allow-list by name and real path, env rules, display gating, cwd. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localPort } from '../helpers/adapter.js';
import { FilesystemPolicy } from '../../main/policy/filesystem.js';
import { DEFAULT_PROMOTE_AFTER_MS, ShellPolicy, type ShellRequest } from '../../main/policy/shell.js';
import { makeConfig } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import type { ConfigInput } from '../../main/config/schema.js';

let dir: string;
let writable: string;
let readOnly: string;
const SERVER_ENV_SECRET = 'server-secret-value-123';

beforeAll(() => {
  dir = makeTempDir();
  writable = path.join(dir, 'rw');
  readOnly = path.join(dir, 'ro');
  fs.mkdirSync(path.join(writable, 'bin'), { recursive: true });
  fs.mkdirSync(readOnly);
  // A program a tool could have written: same name as an allowed command, first on PATH.
  fs.writeFileSync(path.join(writable, 'bin', 'git'), '#!/bin/sh\necho pwned\n', { mode: 0o755 });
  fs.symlinkSync('/bin/echo', path.join(writable, 'bin', 'echo-link'));
});
afterAll(() => removeDir(dir));

function policy(input: ConfigInput, env: NodeJS.ProcessEnv = {}): ShellPolicy {
  const config = makeConfig({ filesystem: { write: true, roots: [writable, { path: readOnly, readOnly: true }] }, ...input });
  const files = new FilesystemPolicy(config.filesystem, localPort());
  const serverEnv = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: dir,
    CHATGPT_MCP_TOKEN: SERVER_ENV_SECRET,
    AWS_SECRET_ACCESS_KEY: SERVER_ENV_SECRET,
    DISPLAY: ':0',
    WAYLAND_DISPLAY: 'wayland-0',
    ...env,
  };
  return new ShellPolicy(config, files, localPort(serverEnv));
}

const shell = (allowedCommands: string[], extra: Partial<ConfigInput['shell']> = {}) => ({ shell: { enabled: true, allowedCommands, ...extra } });
const run = (command: string, more: Partial<ShellRequest> = {}): ShellRequest => ({ command, args: [], ...more });

describe('allow-list', () => {
  it('runs a listed name as the real program it resolves to', async () => {
    const plan = await policy(shell(['echo'])).plan(run('echo', { args: ['hi'] }));
    expect(plan.file).toBe(fs.realpathSync('/bin/echo'));
    expect(plan.args).toEqual(['hi']);
    expect(plan.argv0).toMatch(/\/echo$/);
  });

  const denied: Array<[string, string[], string, RegExp]> = [
    ['an unlisted name', ['echo'], 'rm', /COMMAND_NOT_ALLOWED|not in the allowed commands \(echo\)/],
    ['an absolute path of an unlisted program', ['echo'], '/bin/rm', /not in the allowed commands/],
    ['a relative path', ['echo'], './echo', /not a relative path/],
    ['a parent-relative path', ['echo'], '../bin/echo', /not a relative path/],
    ['a prefix of a listed name', ['python3'], 'python', /not in the allowed commands/],
    ['a listed name with a suffix', ['echo'], 'echo2', /not in the allowed commands/],
  ];
  it.each(denied)('refuses %s', async (_name, list, command, message) => {
    await expect(policy(shell(list)).plan(run(command))).rejects.toMatchObject({ code: 'COMMAND_NOT_ALLOWED', message: expect.stringMatching(message) });
  });

  it('refuses an absolute path whose name is listed but which is a different program', async () => {
    const planted = path.join(writable, 'bin', 'git');
    await expect(policy(shell(['git'])).plan(run(planted))).rejects.toMatchObject({ code: 'COMMAND_NOT_ALLOWED' });
    // A copy of a listed program planted in a writable root is refused too, by where it lives.
    fs.copyFileSync('/bin/echo', path.join(writable, 'bin', 'echo'));
    await expect(policy(shell(['echo'])).plan(run(path.join(writable, 'bin', 'echo')))).rejects.toMatchObject({ code: 'COMMAND_NOT_ALLOWED' });
  });

  it('accepts an absolute path when it is the program the listed name runs', async () => {
    const plan = await policy(shell(['echo'])).plan(run(fs.realpathSync('/bin/echo')));
    expect(plan.file).toBe(fs.realpathSync('/bin/echo'));
  });

  it('refuses a listed name that resolves into a writable root (a planted program)', async () => {
    const p = policy(shell(['git']), { PATH: `${path.join(writable, 'bin')}:/usr/bin:/bin` });
    await expect(p.plan(run('git'))).rejects.toMatchObject({ code: 'COMMAND_NOT_ALLOWED', message: expect.stringMatching(/inside a writable root/) });
  });

  it('refuses a listed name whose PATH entry is a link inside a writable root, even to a system program', async () => {
    const p = policy(shell(['echo-link']), { PATH: `${path.join(writable, 'bin')}:/usr/bin:/bin` });
    await expect(p.plan(run('echo-link'))).rejects.toMatchObject({ code: 'COMMAND_NOT_ALLOWED' });
  });

  it('refuses a listed name whose link outside the roots leads through a link inside a writable root', async () => {
    // ~/.local/bin/mytool -> <root>/tools/current -> /bin/echo: rewriting `current` (ln -sfn) would pick the program.
    const bin = path.join(dir, 'outside-bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.mkdirSync(path.join(writable, 'tools'), { recursive: true });
    fs.symlinkSync('/bin/echo', path.join(writable, 'tools', 'current'));
    fs.symlinkSync(path.join(writable, 'tools', 'current'), path.join(bin, 'mytool'));
    fs.symlinkSync('/bin/echo', path.join(bin, 'plain-link'));
    const p = policy(shell(['mytool', 'plain-link']), { PATH: `${bin}:/usr/bin:/bin` });
    await expect(p.plan(run('mytool'))).rejects.toMatchObject({
      code: 'COMMAND_NOT_ALLOWED',
      message: expect.stringContaining(`through ${path.join(writable, 'tools', 'current')}, inside a writable root`),
    });
    // The control: a link outside the roots straight to a system program runs.
    expect((await p.plan(run('plain-link'))).file).toBe(fs.realpathSync('/bin/echo'));
  });

  it('refuses a listed name whose chain passes a folder link inside a writable root', async () => {
    // ~/bin/tool -> <root>/d/echo, where <root>/d -> /bin: swapping d for a folder of scripts would pick the program.
    const bin = path.join(dir, 'folder-link-bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.symlinkSync('/bin', path.join(writable, 'd'));
    fs.symlinkSync(path.join(writable, 'd', 'echo'), path.join(bin, 'tool'));
    const p = policy(shell(['tool']), { PATH: `${bin}:/usr/bin:/bin` });
    await expect(p.plan(run('tool'))).rejects.toMatchObject({
      code: 'COMMAND_NOT_ALLOWED',
      message: expect.stringContaining(`through ${path.join(writable, 'd')}, inside a writable root`),
    });
  });

  it('reports a listed but missing program as NOT_FOUND', async () => {
    await expect(policy(shell(['no-such-program-xyz'])).plan(run('no-such-program-xyz'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lets "*" run anything the owner could, but still nothing from a writable root, and the disabled shell nothing', async () => {
    expect((await policy(shell(['*'])).plan(run('rm'))).file).toBe(fs.realpathSync('/bin/rm'));
    await expect(policy(shell(['*'])).plan(run(path.join(writable, 'bin', 'git')))).rejects.toMatchObject({
      code: 'COMMAND_NOT_ALLOWED',
      message: expect.stringMatching(/writable root/),
    });
    await expect(policy({ shell: { enabled: false, allowedCommands: ['echo'] } }).plan(run('echo'))).rejects.toMatchObject({ code: 'CAPABILITY_DISABLED' });
  });

  it('refuses NUL bytes in the command or arguments', async () => {
    await expect(policy(shell(['echo'])).plan(run('echo', { args: ['a\0b'] }))).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('environment', () => {
  it('gives children a short inherited environment: never the token or other server secrets', async () => {
    const { env } = await policy(shell(['env'])).plan(run('env'));
    expect(env.PATH).toBe('/usr/local/bin:/usr/bin:/bin');
    expect(env.HOME).toBe(dir);
    expect(JSON.stringify(env)).not.toContain(SERVER_ENV_SECRET);
  });

  it('refuses env additions unless shell.allowEnv, then takes allow-listed names only (environment.ts)', async () => {
    await expect(policy(shell(['env'])).plan(run('env', { env: { LANG: 'C' } }))).rejects.toMatchObject({
      code: 'CAPABILITY_DISABLED',
      message: expect.stringMatching(/shell\.allowEnv/),
    });
    const { env } = await policy(shell(['env'], { allowEnv: true, allowedEnv: ['FOO'] })).plan(run('env', { env: { FOO: 'bar', LANG: 'C' } }));
    expect(env).toMatchObject({ FOO: 'bar', LANG: 'C' });
    await expect(policy(shell(['env'], { allowEnv: true })).plan(run('env', { env: { FOO: 'bar' } }))).rejects.toMatchObject({
      code: 'COMMAND_NOT_ALLOWED',
      message: expect.stringMatching(/FOO is not on the allow-list\. Allowed names: LANG, /),
    });
  });

  it('accepts PATH only with shell.allowPathEnv, and still resolves the program on the server PATH', async () => {
    const plan = await policy(shell(['echo'], { allowEnv: true, allowPathEnv: true })).plan(run('echo', { env: { PATH: path.join(writable, 'bin') } }));
    expect(plan.env.PATH).toBe(path.join(writable, 'bin'));
    expect(plan.file).toBe(fs.realpathSync('/bin/echo'));
  });
});

describe('display gating (desktop.hostDisplayAccess)', () => {
  it('removes the graphical session from children when display access is off', async () => {
    const { env } = await policy(shell(['env'])).plan(run('env'));
    expect(env.DISPLAY).toBeUndefined();
    expect(env.WAYLAND_DISPLAY).toBeUndefined();
  });

  it('keeps it when the owner granted host display access', async () => {
    const { env } = await policy({ ...shell(['env']), desktop: { hostDisplayAccess: true } }).plan(run('env'));
    expect(env.DISPLAY).toBe(':0');
  });

  it.each(['DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY', 'DBUS_SESSION_BUS_ADDRESS', 'MIR_SOCKET'])('refuses a caller-provided %s', async (key) => {
    await expect(policy(shell(['env'], { allowEnv: true })).plan(run('env', { env: { [key]: ':0' } }))).rejects.toMatchObject({
      code: 'COMMAND_NOT_ALLOWED',
      message: expect.stringMatching(/hostDisplayAccess/),
    });
  });

  it('refuses capture programs even with allowedCommands ["*"]', async () => {
    const p = policy(shell(['*']));
    await expect(p.plan(run('sh', { args: ['-c', 'import -window root /tmp/x.png'] }))).rejects.toMatchObject({ code: 'COMMAND_NOT_ALLOWED' });
    await expect(p.plan(run('xdotool', { args: ['getmouselocation'] }))).rejects.toMatchObject({ code: 'COMMAND_NOT_ALLOWED' });
    // Refused by its arguments before any lookup, so it does not matter whether ffmpeg is installed.
    await expect(p.plan(run('ffmpeg', { args: ['-f', 'x11grab', '-i', ':0', 'out.mp4'] }))).rejects.toMatchObject({ code: 'COMMAND_NOT_ALLOWED' });
  });
});

describe('cwd and limits', () => {
  it('defaults the working directory to the first root and validates a given one', async () => {
    const p = policy(shell(['echo']));
    expect((await p.plan(run('echo'))).cwd).toBe(writable);
    expect((await p.plan(run('echo', { cwd: readOnly }))).cwd).toBe(readOnly);
    await expect(p.plan(run('echo', { cwd: '/etc' }))).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    await expect(p.plan(run('echo', { cwd: `${writable}/../..` }))).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    await expect(p.plan(run('echo', { cwd: path.join(writable, 'missing') }))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('caps the timeout at shell.maxRuntimeMs', async () => {
    const p = policy(shell(['echo'], { maxRuntimeMs: 5000, maxOutputBytes: 1234 }));
    expect(await p.plan(run('echo', { timeoutMs: 60_000 }))).toMatchObject({ timeoutMs: 5000, maxOutputBytes: 1234 });
    expect((await p.plan(run('echo', { timeoutMs: 100 }))).timeoutMs).toBe(100);
  });
});

describe('promotion to a process handle', () => {
  const promotion = async (extra: Partial<ConfigInput['shell']>, request: Partial<ShellRequest>) => {
    const plan = await policy(shell(['echo'], extra)).plan(run('echo', request));
    return { timeoutMs: plan.timeoutMs, promoteAfterMs: plan.promoteAfterMs, keepTimeout: plan.keepTimeout, handles: plan.handles };
  };

  it('without timeoutMs: after 60 s by default, and no deadline once under the handle', async () => {
    expect(DEFAULT_PROMOTE_AFTER_MS).toBe(60_000);
    expect(await promotion({}, {})).toEqual({
      timeoutMs: 120_000,
      promoteAfterMs: 60_000,
      keepTimeout: undefined,
      handles: { maxHandles: 8, ringBytes: 1024 * 1024, idleMs: 15 * 60 * 1000 },
    });
    expect(await promotion({ maxProcesses: 2, processIdleMs: 5000 }, { promoteAfterMs: 300 })).toMatchObject({
      promoteAfterMs: 300,
      keepTimeout: undefined,
      handles: { maxHandles: 2, idleMs: 5000 },
    });
  });

  it('a call never waits longer than shell.maxRuntimeMs without a handle: a later promotion comes at that limit', async () => {
    expect(await promotion({ maxRuntimeMs: 30_000 }, {})).toMatchObject({ timeoutMs: 30_000, promoteAfterMs: 30_000 });
    expect(await promotion({ maxRuntimeMs: 1000 }, { promoteAfterMs: 5000 })).toMatchObject({ timeoutMs: 1000, promoteAfterMs: 1000 });
  });

  it('timeoutMs alone: no promotion, killed at the timeout', async () => {
    expect(await promotion({}, { timeoutMs: 90_000 })).toEqual(
      expect.objectContaining({ timeoutMs: 90_000, promoteAfterMs: undefined, keepTimeout: undefined }),
    );
  });

  it('timeoutMs and an earlier promoteAfterMs: promoted, and the timeout still ends it under the handle', async () => {
    expect(await promotion({}, { timeoutMs: 90_000, promoteAfterMs: 1000 })).toMatchObject({ timeoutMs: 90_000, promoteAfterMs: 1000, keepTimeout: true });
    expect(await promotion({}, { timeoutMs: 1000, promoteAfterMs: 1000 })).toMatchObject({ promoteAfterMs: undefined, keepTimeout: undefined });
  });
});

describe('a check the owner configured (verify_changes)', () => {
  it('is allowed without the allow-list or shell.enabled, for as long as the caller says', async () => {
    const plan = await policy({ shell: { enabled: false } }).plan(run('echo', { args: ['ok'], timeoutMs: 600_000 }), 'owner-checks');
    expect(plan).toMatchObject({ file: fs.realpathSync('/bin/echo'), args: ['ok'], timeoutMs: 600_000 });
    expect(plan.promoteAfterMs).toBeUndefined();
    expect(plan.env.CHATGPT_MCP_TOKEN).toBeUndefined();
  });

  it('still never runs a program a tool could have written', async () => {
    await expect(policy({ shell: { enabled: false } }).plan(run(path.join(writable, 'bin', 'git')), 'owner-checks')).rejects.toMatchObject({
      code: 'COMMAND_NOT_ALLOWED',
      message: expect.stringMatching(/inside a writable root/),
    });
  });
});
