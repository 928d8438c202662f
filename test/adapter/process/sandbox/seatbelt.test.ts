/**
 * The macOS Seatbelt profile, generated from the sandbox policy for a known Mac (a written-down
 * filesystem with /Users, /private and a per-user TMPDIR): the snapshot is the whole profile and
 * its parameters, so any change to what a Mac command may do shows up in review.
 */
import { describe, expect, it } from 'vitest';
import { seatbeltArgs, seatbeltProfile } from '../../../../adapter/process/sandbox/seatbelt.js';
import type { SandboxSupport } from '../../../../adapter/contract/sandbox.js';
import type { ConfigInput } from '../../../../main/config/schema.js';
import { sandboxFor } from '../../../helpers/sandbox-fixtures.js';
import type { Tree } from '../../../helpers/tree-port.js';

const SEATBELT: SandboxSupport = { mechanism: 'seatbelt', usable: true, program: '/usr/bin/sandbox-exec', version: 'sandbox-exec', userNamespace: false };

const MAC: Tree = {
  '/tmp': '-> /private/tmp',
  '/var': '-> /private/var',
  '/private/tmp': 'dir',
  '/private/var/folders/xy/abc/T': 'dir',
  '/private/var/root': 'dir',
  '/Users/Shared': 'dir',
  '/Users/bob/Documents': 'dir',
  '/Users/alex/.ssh/id_ed25519': 'file',
  '/Users/alex/.netrc': 'file',
  '/Users/alex/Library/Keychains/login.keychain-db': 'file',
  '/Users/alex/Library/Application Support/chatgpt-mcp/token': 'file',
  '/Users/alex/code/app': 'dir',
  '/Users/alex/code/app/vendor': 'dir',
  '/Users/alex/code/app/.git/hooks': 'dir',
  '/Users/alex/code/app/.git/config': 'file',
  '/Users/alex/code/app/.git/HEAD': 'text:ref: refs/heads/main\n',
  '/usr/bin/git': 'file',
};
const ENV = { HOME: '/Users/alex', PATH: '/usr/bin:/bin', TMPDIR: '/var/folders/xy/abc/T/' };
const PROTECTED = ['/Users/alex/Library/Application Support/chatgpt-mcp/config.json', '/Users/alex/Library/Application Support/chatgpt-mcp'];

const GIT_IN_APP = { file: '/usr/bin/git', found: '/usr/bin/git', cwd: '/Users/alex/code/app' };

function macPlan(input: ConfigInput) {
  return sandboxFor(input, { platform: 'darwin', tree: MAC, env: ENV, support: SEATBELT, protectedFiles: PROTECTED }).plan(GIT_IN_APP);
}

const CONFIG: ConfigInput = {
  filesystem: { write: true, roots: ['/Users/alex/code/app', { path: '/Users/alex/code/app/vendor', readOnly: true }] },
  shell: { enabled: true, allowedCommands: ['git'], sandbox: 'workspace' },
};

describe('the Seatbelt profile for a known Mac', () => {
  it('workspace, no network, display hidden', async () => {
    const plan = (await macPlan(CONFIG))!;
    expect(plan.tempDir).toBe('/private/var/folders/xy/abc/T');
    const { profile, params } = seatbeltProfile(plan);
    expect(params).toMatchInlineSnapshot(`
      [
        [
          "P0",
          "/private/var/folders/xy/abc/T",
        ],
        [
          "P1",
          "/private/tmp",
        ],
        [
          "P2",
          "/Users/bob",
        ],
        [
          "P3",
          "/private/var/root",
        ],
        [
          "P4",
          "/Users/alex/code/app",
        ],
        [
          "P5",
          "/Users/alex/code/app/vendor",
        ],
        [
          "P6",
          "/Users/alex/code/app/.git",
        ],
        [
          "P7",
          "/Users/alex/code/app/.git/hooks",
        ],
        [
          "P8",
          "/Users/alex/code/app/.git/config",
        ],
        [
          "P9",
          "/Users/alex/code/app/.git/.git",
        ],
        [
          "P10",
          "/Users/alex/Library/Application Support/chatgpt-mcp",
        ],
        [
          "P11",
          "/Users/alex/.ssh",
        ],
        [
          "P12",
          "/Users/alex/.netrc",
        ],
        [
          "P13",
          "/Users/alex/Library/Keychains",
        ],
      ]
    `);
    expect(profile).toMatchInlineSnapshot(`
      "(version 1)
      (deny default)
      (allow process-exec)
      (allow process-fork)
      (allow signal (target same-sandbox))
      (allow process-info* (target same-sandbox))
      (allow file-read*)
      (allow file-write-data file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (literal "/dev/tty"))
      (allow sysctl-read)
      (allow mach-lookup)
      (allow ipc-posix-shm* ipc-posix-sem)
      (allow iokit-open)
      (allow pseudo-tty)
      (allow user-preference-read)
      (allow system-socket)
      (deny network*)
      (allow file-read* file-write* (subpath (param "P0")))
      (allow file-read* file-write* (subpath (param "P1")))
      (deny file-read* file-write* (subpath (param "P2")))
      (deny file-read* file-write* (subpath (param "P3")))
      (allow file-read* file-write* (subpath (param "P4")))
      (allow file-read* (subpath (param "P5")))
      (deny file-write* (subpath (param "P5")))
      (allow file-read* file-write* (subpath (param "P6")))
      (deny file-write* (literal (param "P6")))
      (allow file-read* (subpath (param "P7")))
      (deny file-write* (subpath (param "P7")))
      (allow file-read* (literal (param "P8")))
      (deny file-write* (literal (param "P8")))
      (deny file-read* file-write* (subpath (param "P9")))
      (deny file-read* file-write* (subpath (param "P10")))
      (deny file-read* file-write* (subpath (param "P11")))
      (deny file-read* file-write* (literal (param "P12")))
      (deny file-read* file-write* (subpath (param "P13")))
      (deny mach-lookup (global-name "com.apple.coreservices.launchservicesd") (global-name "com.apple.lsd.mapdb") (global-name "com.apple.lsd.modifydb"))
      (deny mach-lookup (global-name "com.apple.windowserver") (global-name "com.apple.windowserver.active") (global-name "com.apple.CoreDisplay.master") (global-name "com.apple.screencapture.interactive") (global-name "com.apple.replayd") (global-name "com.apple.universalaccessd") (global-name "com.apple.tccd"))
      "
    `);
  });

  it('every entry gets exactly the rules its access means (the snapshot above cannot hide a wrong one)', async () => {
    const plan = (await macPlan(CONFIG))!;
    const { profile } = seatbeltProfile(plan);
    const rules = profile.split('\n');
    plan.entries.forEach((entry, i) => {
      const mine = rules.filter((rule) => rule.includes(`(param "P${i}")`));
      const where = entry.kind === 'directory' ? `(subpath (param "P${i}"))` : `(literal (param "P${i}"))`;
      const expected = {
        write: [`(allow file-read* file-write* ${where})`],
        temp: [`(allow file-read* file-write* ${where})`],
        read: [`(allow file-read* ${where})`, `(deny file-write* ${where})`],
        hidden: [`(deny file-read* file-write* ${where})`],
      }[entry.access];
      expect(mine, entry.path).toEqual(entry.pinned ? [...expected, `(deny file-write* (literal (param "P${i}")))`] : expected);
    });
    expect(plan.entries.filter((e) => e.pinned).map((e) => e.path)).toEqual(['/Users/alex/code/app/.git']);
  });

  it('a deny path in the temp folders stays denied: there they are the shared ones, not private empty ones', async () => {
    const config = { ...CONFIG, filesystem: { ...CONFIG.filesystem, deny: ['/tmp/**', '/var/folders/xy/abc/T/build-secrets'] } };
    const tree: Tree = { ...MAC, '/private/var/folders/xy/abc/T/build-secrets': 'file' };
    const plan = (await sandboxFor(config, { platform: 'darwin', tree, env: ENV, support: SEATBELT, protectedFiles: PROTECTED }).plan(GIT_IN_APP))!;
    const hidden = plan.entries.flatMap((e, i) => (e.access === 'hidden' ? [[e.path, i] as const] : []));
    const { profile } = seatbeltProfile(plan);
    for (const path of ['/private/tmp', '/private/var/folders/xy/abc/T/build-secrets']) {
      const i = hidden.find(([p]) => p === path)?.[1];
      expect(i, path).toBeDefined();
      expect(profile).toContain(`(deny file-read* file-write* (${path.endsWith('tmp') ? 'subpath' : 'literal'} (param "P${i}")))`);
    }
  });

  it('the network on, display access on: no window-server rule, all network allowed', async () => {
    const plan = (await macPlan({ ...CONFIG, shell: { ...CONFIG.shell, network: 'on' }, desktop: { hostDisplayAccess: true } }))!;
    const { profile } = seatbeltProfile(plan);
    expect(profile).toContain('(allow network*)');
    expect(profile).not.toContain('com.apple.windowserver');
    expect(profile).toContain('com.apple.coreservices.launchservicesd');
  });

  it('loopback: only localhost', async () => {
    const { profile } = seatbeltProfile((await macPlan({ ...CONFIG, shell: { ...CONFIG.shell, network: 'loopback' } }))!);
    expect(profile).toContain('(allow network* (local ip "localhost:*") (remote ip "localhost:*"))');
    expect(profile).not.toContain('(allow network*)\n');
  });

  it('sandbox-exec gets the profile, one -D per path, then -- and the command (no path is quoted into the profile)', async () => {
    const plan = (await macPlan(CONFIG))!;
    const args = seatbeltArgs(plan, '/usr/bin/git', ['log', '-1']);
    expect(args[0]).toBe('-p');
    expect(args.slice(-4)).toEqual(['--', '/usr/bin/git', 'log', '-1']);
    const defines = args.filter((_, i) => args[i - 1] === '-D');
    expect(defines).toEqual(plan.entries.map((e, i) => `P${i}=${e.path}`));
    expect(args[1]).not.toContain('/Users/alex');
  });
});
