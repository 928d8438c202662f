/** Which mounts the sandbox guard checks, in which folder, with which descriptors; and how its refusal is read back. */
import { describe, expect, it } from 'vitest';
import { guardArgs, guardPlan, guardRefusal } from '../../../../adapter/process/sandbox/guard-plan.js';
import type { SandboxEntry } from '../../../../adapter/contract/sandbox.js';
import { bubblewrapPlan } from '../../../helpers/sandbox-fixtures.js';

const plan = bubblewrapPlan;
const dir = (path: string, access: SandboxEntry['access'], pinned = false): SandboxEntry => ({
  path,
  access,
  kind: 'directory',
  ...(pinned ? { pinned } : {}),
});

describe('guardPlan', () => {
  it("checks each place in its folder, every folder opened once: a repository's .git and the covers inside it", () => {
    const guard = guardPlan(
      plan([
        dir('/w', 'write'),
        dir('/w/repo/.git', 'write', true),
        dir('/w/repo/.git/hooks', 'read'),
        { path: '/w/repo/.git/config', access: 'read', kind: 'file' },
        dir('/w/other/.git', 'hidden'),
      ]),
    );
    expect(guard.folders).toEqual(['/w/repo', '/w/repo/.git', '/w/other']);
    // What a place mounts from is checked too: its index among the places read or written.
    expect(guard.checks).toEqual([
      { folder: 0, source: 1, place: '/w/repo/.git' },
      { folder: 1, source: 2, place: '/w/repo/.git/hooks' },
      { folder: 1, source: 3, place: '/w/repo/.git/config' },
      { folder: 2, place: '/w/other/.git' },
    ]);
  });

  it("leaves out places the model cannot move (in no writable folder), and places in a folder bwrap made (a temp or hidden folder holds nothing of the owner's)", () => {
    const guard = guardPlan(
      plan([
        dir('/tmp', 'temp'),
        dir('/tmp/x', 'write'),
        dir('/tmp/x/y', 'hidden'),
        dir('/home/bob', 'hidden'),
        dir('/home/alex', 'write'),
        dir('/home/alex/.ssh', 'hidden'),
        dir('/home/alex/.ssh/keys', 'read'),
        dir('/home/alex/shared', 'read'),
        dir('/home/alex/shared/deep', 'hidden'),
        dir('/proc/sys', 'read'),
      ]),
    );
    // /tmp/x/y is in a folder mounted from a real one the model may write: checked; deep the same.
    expect(guard.checks.map((check) => check.place)).toEqual(['/tmp/x/y', '/home/alex/.ssh', '/home/alex/shared', '/home/alex/shared/deep']);
  });

  it('leaves out a place a later entry mounts over (it is hidden whole), not one a later entry mounts on again', () => {
    const guard = guardPlan(plan([dir('/w', 'write'), dir('/w/a/b', 'read'), dir('/w/c', 'read'), dir('/w/a', 'hidden'), dir('/w/c', 'write')]));
    expect(guard.checks).toEqual([
      { folder: 0, source: 2, place: '/w/c' },
      { folder: 0, place: '/w/a' },
      { folder: 0, source: 3, place: '/w/c' },
    ]);
  });
});

describe('guardArgs', () => {
  it("runs the guard through its descriptor, with its start mark's, each check with its folder's and its source's, then the command", () => {
    const guard = {
      folders: ['/w', '/w/repo'],
      checks: [
        { folder: 1, source: 1, place: '/w/repo/.git' },
        { folder: 0, place: '/w/x' },
      ],
    };
    // Two sources at 3 and 4 (bwrap's), the folders at 5 and 6, the sources again at 7 and 8, the guard at 9, its start mark at 10.
    expect(guardArgs(guard, 2, '/usr/bin/git', ['commit', '-m', 'x'])).toEqual([
      '/proc/self/fd/9',
      '--started',
      '10',
      '2',
      '6',
      '8',
      '/w/repo/.git',
      '5',
      '-',
      '/w/x',
      '/usr/bin/git',
      'commit',
      '-m',
      'x',
    ]);
  });
});

describe('guardRefusal', () => {
  it("reads the guard's line back only with its exit status", () => {
    const line = 'chatgpt-mcp sandbox: /w/repo was moved while the command was starting (by another program); nothing ran\n';
    expect(guardRefusal(125, line)).toBe('/w/repo was moved while the command was starting (by another program); nothing ran');
    expect(guardRefusal(1, line)).toBeUndefined();
    expect(guardRefusal(125, 'fatal: something else\n')).toBeUndefined();
    expect(guardRefusal(null, line)).toBeUndefined();
  });
});
