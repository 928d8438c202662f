/**
 * Every filesystem rule is declared once (main/policy/fs-rules.ts) and enforced twice: by the
 * filesystem tools' policy and by the command sandbox's plan. For each declared rule, its example
 * place is put on a written-down Linux machine inside a root, and both faces are checked: a rule
 * one side forgets fails here.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SandboxEntry } from '../../adapter/contract/sandbox.js';
import { bubblewrapArgs } from '../../adapter/process/sandbox/bubblewrap.js';
import { FilesystemPolicy } from '../../main/policy/filesystem.js';
import { activeRules, FS_RULES, mountablePlaces, type FsRule } from '../../main/policy/fs-rules.js';
import { SandboxPolicy } from '../../main/policy/sandbox.js';
import { BWRAP, LINUX_ENV } from '../helpers/sandbox-fixtures.js';
import { makeConfig } from '../helpers/servers.js';
import { treePort } from '../helpers/tree-port.js';

const HOME = '/home/alex';
const inside = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/** What a command sees at `place` under the plan: the last entry holding it decides; /dev and /proc are the sandbox's own. */
function seen(entries: readonly SandboxEntry[], place: string): string {
  for (let i = entries.length - 1; i >= 0; i--) if (inside(place, entries[i]!.path)) return entries[i]!.access;
  return 'read';
}

/** Both policies over one machine that holds the rule's example, everything readable through one root and the home writable. */
function policies(rule: FsRule) {
  const example = rule.example(HOME);
  const port = treePort({
    platform: 'linux',
    tree: { [example]: 'file', [`${HOME}/projects/.git/HEAD`]: 'file', [`${HOME}/projects/.git/config`]: 'file', '/usr/bin/git': 'file' },
    env: LINUX_ENV,
    support: BWRAP,
    // As root, so that the root-only rule applies too.
    uid: 0,
  });
  const config = makeConfig({
    filesystem: { write: true, roots: [{ path: '/', readOnly: true }, HOME], deny: ['private/'] },
    shell: { enabled: true, allowedCommands: ['git'], sandbox: 'workspace' },
  });
  const files = new FilesystemPolicy(config.filesystem, port, { protectedFiles: [path.posix.join(HOME, '.config', 'chatgpt-mcp')] });
  return { example, files, sandbox: new SandboxPolicy(config, files, port) };
}

describe('each filesystem rule, in the tools and in the command sandbox', () => {
  it('every rule applies on the test machine', () => {
    const { files } = policies(FS_RULES[0]!);
    expect(files.rules.map((r) => r.rule.id).sort()).toEqual(FS_RULES.map((r) => r.id).sort());
  });

  it.each(FS_RULES.map((rule) => [rule.id, rule] as const))('%s', async (_id, rule) => {
    const { example, files, sandbox } = policies(rule);

    // The tools.
    if (rule.tools === 'deny') {
      await expect(files.resolve(example, 'read', 'fs.read')).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    } else {
      await expect(files.resolve(example, 'read', 'fs.read')).resolves.toMatchObject({ path: example });
      await expect(files.resolve(example, 'write', 'fs.write')).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    }

    // The sandbox.
    const plan = (await sandbox.plan({ file: '/usr/bin/git', found: '/usr/bin/git', cwd: `${HOME}/projects` }))!;
    if (rule.sandbox === 'hide') expect(seen(plan.entries, example)).toBe('hidden');
    if (rule.sandbox === 'read-only') {
      expect(seen(plan.entries, path.posix.dirname(example))).toBe('read');
      expect(seen(plan.entries, HOME)).toBe('write');
    }
    if (rule.sandbox === 'private') {
      // Nothing of the host's is mounted there: the mechanism's own (a new /proc of the sandbox's pid namespace) stands.
      expect(plan.entries.filter((e) => e.access !== 'hidden' && inside(e.path, example))).toEqual([]);
      const args = bubblewrapArgs(plan, `${HOME}/projects`, '/usr/bin/git', ['status']);
      expect(args.join(' ')).toContain(`--proc ${rule.places!(makeConfig().filesystem, { platform: 'linux' })[0]}`);
    }
  });

  it('the sandbox mounts what a path can name: places, absolute patterns as they are, relative ones in the home folder', () => {
    const config = makeConfig({ filesystem: { deny: ['/srv/keys/**', 'notes/', '*.secret'] } }).filesystem;
    const [deny] = activeRules(config, { platform: 'linux' }).filter((r) => r.rule.id === 'deny-list');
    expect(mountablePlaces(deny!, HOME)).toEqual(['/srv/keys', `${HOME}/notes`]);
    expect(mountablePlaces(deny!, undefined)).toEqual(['/srv/keys']);
  });
});
