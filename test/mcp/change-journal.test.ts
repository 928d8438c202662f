/**
 * How the tool host groups what it records: one group per client while its calls come within
 * undo.groupIdleMs, a new one after the pause or once the owner's undo of it began; commands and reads are
 * not recorded; a journal that fails does not stop the change. Real journal on disk, real files,
 * a clock the test moves.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GuardedPath } from '../../adapter/contract/files.js';
import type { ChangeJournal } from '../../adapter/contract/journal.js';
import { LocalJournal } from '../../adapter/fs/journal/local-journal.js';
import { ChangeRecording } from '../../main/mcp/change-journal.js';
import { NOT_RECORDED } from '../../main/mcp/change-recorder.js';
import type { ToolDeps } from '../../main/mcp/tool.js';
import { PathLock } from '../../main/policy/path-lock.js';
import { writeTextFile } from '../../adapter/fs/write-text.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const IDLE = 60_000;
let base: string;
let journal: LocalJournal;
let clock: number;
let errors: unknown[];
let recording: ChangeRecording;
const at = (name: string) => path.join(base, 'work', name);
const noGit = { state: async () => null as never };

beforeEach(() => {
  base = makeTempDir();
  fs.mkdirSync(path.join(base, 'work'));
  journal = new LocalJournal({ dir: path.join(base, 'journal'), maxBytes: 1024 * 1024 });
  clock = Date.parse('2026-01-31T14:25:00Z');
  errors = [];
  recording = new ChangeRecording(
    journal,
    { enabled: true, maxBytes: 1024 * 1024, groupIdleMs: IDLE },
    noGit,
    (e) => errors.push(e),
    () => clock,
  );
});
afterEach(() => removeDir(base));

/** A file tool writing `name` as the host runs it: through the (recording) path lock's exclusive claim. */
async function write(tool: string, client: string | null, name: string, content: string, using: ChangeRecording = recording): Promise<void> {
  const deps = using.depsFor(tool, client, { policy: { fsLock: new PathLock() }, changes: NOT_RECORDED } as unknown as ToolDeps);
  await deps.policy.fsLock.run([{ path: at(name), exclusive: true }], async () => fs.writeFileSync(at(name), content));
}

async function groups() {
  return (await journal.list()).groups.map((g) => ({ client: g.client, files: g.files, tools: g.tools }));
}

describe('ChangeRecording', () => {
  it('one group per client while its calls keep coming; a new one after the idle window', async () => {
    await write('fs.write', 'ChatGPT', 'a.txt', 'one');
    clock += IDLE - 1;
    await write('fs.edit', 'ChatGPT', 'b.txt', 'two');
    await write('fs.write', 'Claude', 'c.txt', 'three');
    await write('fs.mkdir', null, 'd.txt', 'four');
    clock += IDLE;
    await write('fs.patch', 'ChatGPT', 'e.txt', 'five');
    expect(await groups()).toEqual(
      expect.arrayContaining([
        { client: 'ChatGPT', files: 2, tools: ['fs.write', 'fs.edit'] },
        { client: 'Claude', files: 1, tools: ['fs.write'] },
        { client: 'local', files: 1, tools: ['fs.mkdir'] },
        { client: 'ChatGPT', files: 1, tools: ['fs.patch'] },
      ]),
    );
    expect((await journal.list()).groups).toHaveLength(4);
  });

  it('a group the owner undid takes no more changes', async () => {
    await write('fs.write', 'ChatGPT', 'a.txt', 'one');
    const [first] = (await journal.list()).groups;
    const outcome = await journal.apply(first!.id, {
      resolve: async (p): Promise<GuardedPath> => ({ path: p, confirm: () => {} }),
      repository: async () => [],
    });
    expect(outcome.restored).toEqual([at('a.txt')]);
    await write('fs.write', 'ChatGPT', 'b.txt', 'two');
    const after = (await journal.list()).groups;
    expect(after).toHaveLength(2);
    expect(after.find((g) => g.id !== first!.id)).toMatchObject({ files: 1, state: 'open' });
  });

  it('a group whose undo began (another process holds its undo lock) takes no new call', async () => {
    await write('fs.write', 'ChatGPT', 'a.txt', 'one');
    const [first] = (await journal.list()).groups;
    fs.writeFileSync(path.join(base, 'journal', 'groups', first!.id, 'undoing'), JSON.stringify({ pid: process.pid, host: os.hostname() }));
    await write('fs.write', 'ChatGPT', 'b.txt', 'two');
    const after = (await journal.list()).groups;
    expect(after.map((g) => g.files)).toEqual([1, 1]);
    expect(after.find((g) => g.id === first!.id)).toMatchObject({ files: 1, state: 'open' });
    expect((await journal.show(first!.id)).changes.map((c) => c.path)).toEqual([at('a.txt')]);
  });

  it("one client's unbroken run of small changes stays within the bound: a group holding half of it takes no new call, and older ones are dropped", async () => {
    const maxBytes = 24_000;
    const small = new LocalJournal({ dir: path.join(base, 'small'), maxBytes });
    const bounded = new ChangeRecording(
      small,
      { enabled: true, maxBytes, groupIdleMs: IDLE },
      noGit,
      (e) => errors.push(e),
      () => clock,
    );
    const onDisk = (dir: string): number =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .reduce((sum, e) => sum + (e.isDirectory() ? onDisk(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).size), 0);
    let largest = 0;
    // About 60 KB of records in all, each call a second after the last: one group without the split.
    for (let i = 0; i < 150; i++) {
      clock += 1000;
      await write('fs.write', 'ChatGPT', `n-${i}.txt`, 'n', bounded);
      largest = Math.max(largest, onDisk(path.join(base, 'small')));
      await small.settled();
    }
    // Past the bound by at most what one call adds, until older groups go.
    expect(largest).toBeLessThanOrEqual(maxBytes + 1_000);
    expect(onDisk(path.join(base, 'small'))).toBeLessThanOrEqual(maxBytes);
    const { groups, dropped } = await small.list();
    expect(dropped.length).toBeGreaterThan(0);
    expect(groups[0]).toMatchObject({ state: 'open' });
    // The newest group still undoes what it holds.
    const newest = await small.show(groups[0]!.id);
    expect(newest.changes.map((c) => c.path)).toContain(at('n-149.txt'));
    // Calls that go on while older groups are dropped grow it meanwhile: the dropping goes on until it is within the bound.
    for (let i = 0; i < 150; i++) await write('fs.write', 'ChatGPT', `m-${i}.txt`, 'm', bounded);
    await small.settled();
    expect(onDisk(path.join(base, 'small'))).toBeLessThanOrEqual(maxBytes);
    // Calls in parallel that find the group full start one next group between them, not one each.
    // All of a burst's calls join the group it finds open, so a group can grow past half the bound
    // by one burst: a burst of 10 calls (about 4 KB) leaves room for the group recorded into (it is
    // never dropped) and the list of dropped ones. One of 30 (about 11 KB, just under half) let the
    // next burst join it too, and that group alone filled nearly all the bound.
    const ids = async () => {
      const { groups: open, dropped: gone } = await small.list();
      return new Set([...open, ...gone].map((g) => g.id));
    };
    const known = await ids();
    const bursts = 9;
    for (let burst = 0; burst < bursts; burst++)
      await Promise.all(Array.from({ length: 10 }, (_, i) => write('fs.write', 'ChatGPT', `p-${burst}-${i}.txt`, 'p', bounded)));
    await small.settled();
    const started = [...(await ids())].filter((id) => !known.has(id));
    expect(started.length).toBeGreaterThan(0);
    expect(started.length).toBeLessThanOrEqual(bursts);
    expect(onDisk(path.join(base, 'small'))).toBeLessThanOrEqual(maxBytes);
    expect(errors).toEqual([]);
  });

  it('records only the file and git write tools', () => {
    const deps = { policy: { fsLock: new PathLock() }, changes: NOT_RECORDED } as unknown as ToolDeps;
    for (const tool of ['shell.exec', 'process.start', 'fs.read', 'git.status', 'git.push']) expect(recording.depsFor(tool, 'ChatGPT', deps)).toBe(deps);
    expect(recording.depsFor('git.commit', 'ChatGPT', deps).changes).not.toBe(NOT_RECORDED);
    expect(recording.depsFor('fs.delete', 'ChatGPT', deps).policy.fsLock).not.toBe(deps.policy.fsLock);
  });

  it('a git write refused before it changed anything opens no group; one that changes a file is recorded', async () => {
    const deps = recording.depsFor('git.add', 'ChatGPT', { policy: { fsLock: new PathLock() }, changes: NOT_RECORDED } as unknown as ToolDeps);
    const repo = { topLevel: path.join(base, 'work') } as Parameters<ToolDeps['changes']['repository']>[0];
    await expect(
      deps.changes.repository(repo, {}, async () => {
        throw new Error('refused: a hook is active');
      }),
    ).rejects.toThrow('refused');
    expect(await groups()).toEqual([]);
    fs.writeFileSync(at('b.txt'), 'old');
    await deps.changes.repository(repo, {}, async (before) => {
      await before(['b.txt']);
      fs.writeFileSync(at('b.txt'), 'new');
    });
    expect(await groups()).toEqual([{ client: 'ChatGPT', files: 1, tools: ['git.add'] }]);
  });

  it("reads a repository's state once more when a read fails (a sandbox stopped under it), so the change is still recorded", async () => {
    const states = [
      new Error('git write-tree was stopped'),
      { headRef: 'refs/heads/main', commit: 'c1', index: 't1' },
      { headRef: 'refs/heads/main', commit: 'c1', index: 't2' },
    ];
    const flaky = { state: async () => (states[0] instanceof Error ? Promise.reject(states.shift()!) : states.shift()!) as never };
    const rec = new ChangeRecording(
      journal,
      { enabled: true, maxBytes: 1 << 20, groupIdleMs: IDLE },
      flaky,
      (e) => errors.push(e),
      () => clock,
    );
    const deps = rec.depsFor('git.add', 'ChatGPT', { policy: { fsLock: new PathLock() }, changes: NOT_RECORDED } as unknown as ToolDeps);
    await deps.changes.repository({ topLevel: path.join(base, 'work') } as Parameters<ToolDeps['changes']['repository']>[0], {}, async () => {});
    expect((await journal.list()).groups.map((g) => [g.tools, g.repositories])).toEqual([[['git.add'], 1]]);
    expect([states, errors]).toEqual([[], []]);
  });

  it('a failing journal is reported and the change still happens', async () => {
    const broken: ChangeJournal = Object.assign(Object.create(journal) as ChangeJournal, {
      open: async () => {
        throw new Error('disk full');
      },
    });
    const failing = new ChangeRecording(
      broken,
      { enabled: true, maxBytes: 1024, groupIdleMs: IDLE },
      noGit,
      (e) => errors.push(e),
      () => clock,
    );
    await write('fs.write', 'ChatGPT', 'a.txt', 'still written', failing);
    expect(fs.readFileSync(at('a.txt'), 'utf8')).toBe('still written');
    expect(errors.map(String)).toContain('Error: disk full');
  });

  it("fs.write's and fs.edit's writer hands the file over: the old inode itself is kept; fs.patch's pre-image is still a copy", async () => {
    for (const name of ['w.txt', 'e.txt']) fs.writeFileSync(at(name), `old ${name}\n`);
    const inodes = ['w.txt', 'e.txt'].map((name) => fs.statSync(at(name)).ino);
    for (const [tool, name] of [
      ['fs.write', 'w.txt'],
      ['fs.patch', 'e.txt'],
    ] as const) {
      const deps = recording.depsFor(tool, 'ChatGPT', { policy: { fsLock: new PathLock() }, changes: NOT_RECORDED } as unknown as ToolDeps);
      const beforeChange = deps.changes.beforeChange?.(at(name));
      expect(beforeChange === undefined).toBe(tool === 'fs.patch');
      await deps.policy.fsLock.run([{ path: at(name), exclusive: true }], () =>
        writeTextFile({ path: at(name), confirm: () => {} }, 'new\n', 'overwrite', beforeChange ? { beforeChange } : {}),
      );
    }
    const edit = recording.depsFor('fs.edit', 'ChatGPT', { policy: { fsLock: new PathLock() }, changes: NOT_RECORDED } as unknown as ToolDeps);
    expect(edit.changes.beforeChange).toBeTypeOf('function');
    const [group] = (await journal.list()).groups;
    const blobs = path.join(base, 'journal', 'groups', group!.id, 'blobs');
    const kept = fs.readdirSync(blobs).map((blob) => [fs.readFileSync(path.join(blobs, blob), 'utf8'), fs.statSync(path.join(blobs, blob)).ino === inodes[0]]);
    expect(kept.sort()).toEqual([
      ['old e.txt\n', false],
      ['old w.txt\n', true],
    ]);
  });
});
