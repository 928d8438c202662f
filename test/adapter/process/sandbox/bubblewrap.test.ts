/** The bwrap command line for a plan, and how a request is launched with or without one. */
import { describe, expect, it } from 'vitest';
import { bubblewrapArgs } from '../../../../adapter/process/sandbox/bubblewrap.js';
import { guardPlan } from '../../../../adapter/process/sandbox/guard-plan.js';
import { sandboxed } from '../../../../adapter/process/sandbox/launch.js';
import type { SandboxPlan } from '../../../../adapter/contract/sandbox.js';
import { GIT_IN_PROJECT, LINUX_CONFIG, sandboxFor } from '../../../helpers/sandbox-fixtures.js';

async function linuxPlan(): Promise<SandboxPlan> {
  return (await sandboxFor(LINUX_CONFIG).plan(GIT_IN_PROJECT))!;
}

describe('bubblewrapArgs', () => {
  it('isolates every namespace, drops capabilities and mounts the entries in order, sealing hidden folders last', async () => {
    expect(bubblewrapArgs(await linuxPlan(), '/home/alex/projects', '/usr/bin/git', ['status', '--short'])).toEqual([
      ...['--unshare-user', '--disable-userns', '--unshare-pid', '--unshare-uts', '--unshare-cgroup-try', '--unshare-ipc', '--unshare-net'],
      ...['--as-pid-1', '--die-with-parent', '--cap-drop', 'ALL'],
      ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'],
      ...['--ro-bind', '/proc/sys', '/proc/sys', '--ro-bind-try', '/proc/sysrq-trigger', '/proc/sysrq-trigger'],
      ...['--tmpfs', '/tmp', '--tmpfs', '/var/tmp'],
      ...['--tmpfs', '/run', '--tmpfs', '/home/bob', '--tmpfs', '/root'],
      // Mounted from the descriptors the launch opens, in this order (mountSources).
      ...['--bind-fd', '3', '/home/alex/projects'],
      ...['--ro-bind-fd', '4', '/home/bob/shared', '--ro-bind-fd', '5', '/home/alex/projects/vendor'],
      ...['--tmpfs', '/home/alex/.config/chatgpt-mcp', '--tmpfs', '/home/alex/.ssh', '--tmpfs', '/home/alex/secrets/aws'],
      ...['--ro-bind', '/dev/null', '/home/alex/.netrc'],
      ...['--tmpfs', '/home/alex/.mozilla', '--tmpfs', '/home/alex/private'],
      ...['--remount-ro', '/run', '--remount-ro', '/home/bob', '--remount-ro', '/root', '--remount-ro', '/home/alex/.config/chatgpt-mcp'],
      ...[
        '--remount-ro',
        '/home/alex/.ssh',
        '--remount-ro',
        '/home/alex/secrets/aws',
        '--remount-ro',
        '/home/alex/.mozilla',
        '--remount-ro',
        '/home/alex/private',
      ],
      ...['--chdir', '/home/alex/projects', '--', '/usr/bin/git', 'status', '--short'],
    ]);
  });

  it('shares the network when the plan says on, and the IPC namespace and GPU/sound devices with display access', async () => {
    const plan = { ...(await linuxPlan()), network: 'on' as const, display: true };
    const args = bubblewrapArgs(plan, undefined, '/usr/bin/git', []);
    expect(args).not.toContain('--unshare-net');
    expect(args).not.toContain('--unshare-ipc');
    expect(args.join(' ')).toContain('--dev-bind-try /dev/dri /dev/dri --dev-bind-try /dev/snd /dev/snd');
    expect(args).not.toContain('--chdir');
  });

  it('falls back to --unshare-user-try where the kernel refuses bwrap a user namespace (setuid bwrap)', async () => {
    const args = bubblewrapArgs({ ...(await linuxPlan()), userNamespace: false }, undefined, '/usr/bin/git', []);
    expect(args.slice(0, 2)).toEqual(['--unshare-user-try', '--unshare-pid']);
    expect(args).not.toContain('--disable-userns');
    expect(args).toContain('--cap-drop');
  });

  it('passes arguments that look like bwrap options to the command, after --', async () => {
    const args = bubblewrapArgs(await linuxPlan(), undefined, '/usr/bin/git', ['--bind', '/', '/']);
    expect(args.slice(-5)).toEqual(['--', '/usr/bin/git', '--bind', '/', '/']);
  });
});

describe('sandboxed (the launch)', () => {
  const request = {
    file: '/usr/lib/git-core/git',
    argv0: '/usr/bin/git',
    args: ['status'],
    cwd: '/home/alex/projects',
    env: { PATH: '/usr/bin', TMPDIR: '/home/alex/tmp', HOME: '/home/alex' },
  };

  it('without a plan, starts the request as it is', () => {
    expect(sandboxed(request)).toEqual({
      file: request.file,
      args: request.args,
      argv0: request.argv0,
      env: request.env,
      scopeSockets: false,
      handOn: { sources: [], folders: [] },
    });
  });

  it('asks the start to scope abstract sockets exactly when the plan says so', async () => {
    expect(sandboxed({ ...request, sandbox: await linuxPlan() }).scopeSockets).toBe(false);
    expect(sandboxed({ ...request, sandbox: { ...(await linuxPlan()), scopeAbstractSockets: true } }).scopeSockets).toBe(true);
  });

  it('with a plan, starts bwrap, which runs the program by the path it was found under', async () => {
    const launch = sandboxed({ ...request, sandbox: await linuxPlan() }, null);
    expect(launch.file).toBe('/usr/bin/bwrap');
    expect(launch.argv0).toBeUndefined();
    expect(launch.args.slice(-3)).toEqual(['--', '/usr/bin/git', 'status']);
    expect(launch.env).toEqual({ PATH: '/usr/bin', TMPDIR: '/tmp', HOME: '/home/alex' });
    // What bwrap mounts from, for the launch to open: the places read or written, in the arguments' order.
    expect(launch.handOn).toEqual({ sources: ['/home/alex/projects', '/home/bob/shared', '/home/alex/projects/vendor'], folders: [] });
  });

  it('with the guard, bwrap runs the guard through its descriptor, after the sources and the folders it checks, and its start mark after it', async () => {
    const plan = await linuxPlan();
    const launch = sandboxed({ ...request, sandbox: plan }, '/opt/app/native/sandbox-guard');
    const { sources, folders, guard } = launch.handOn;
    expect(sources).toHaveLength(3);
    expect(guard).toBe('/opt/app/native/sandbox-guard');
    // The places the plan mounts, each in its folder (guard-plan.test.ts says which are left out).
    const { checks } = guardPlan(plan);
    expect(folders).toEqual(guardPlan(plan).folders);
    const tail = launch.args.slice(launch.args.indexOf('--') + 1);
    const again = 3 + sources.length + folders.length;
    expect(tail).toEqual([
      `/proc/self/fd/${again + sources.length}`,
      '--started',
      String(again + sources.length + 1),
      String(checks.length),
      ...checks.flatMap((check) => [String(3 + sources.length + check.folder), check.source === undefined ? '-' : String(again + check.source), check.place]),
      '/usr/bin/git',
      'status',
    ]);
    // The one place in a folder the command may write: vendor, read-only in the project, the third source.
    expect(tail.slice(3)).toEqual(['1', String(3 + sources.length), String(again + 2), '/home/alex/projects/vendor', '/usr/bin/git', 'status']);
    expect(folders).toEqual(['/home/alex/projects']);
  });

  it('runs the real path when argv0 is not an absolute path (it could name another program inside)', async () => {
    const launch = sandboxed({ ...request, argv0: 'git', sandbox: await linuxPlan() }, null);
    expect(launch.args.slice(-3)).toEqual(['--', '/usr/lib/git-core/git', 'status']);
  });

  it('leaves TMP variables the environment did not have unset', async () => {
    const launch = sandboxed({ ...request, env: { PATH: '/usr/bin' }, sandbox: await linuxPlan() });
    expect(launch.env).toEqual({ PATH: '/usr/bin' });
  });

  it('gives loader variables to the program inside only (--setenv), never to bwrap, which runs outside', async () => {
    const env = { PATH: '/usr/bin', LD_PRELOAD: '/home/alex/lib.so', GCONV_PATH: '/x', MALLOC_PERTURB_: '1', TOKEN: 's3cret' };
    const launch = sandboxed({ ...request, env, sandbox: await linuxPlan() });
    expect(launch.env).toEqual({ PATH: '/usr/bin', TOKEN: 's3cret' });
    expect(launch.args.slice(0, 9)).toEqual([
      '--setenv',
      'LD_PRELOAD',
      '/home/alex/lib.so',
      '--setenv',
      'GCONV_PATH',
      '/x',
      '--setenv',
      'MALLOC_PERTURB_',
      '1',
    ]);
    expect(launch.args).not.toContain('s3cret');
  });
});
