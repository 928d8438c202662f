/** A group's undo lock between processes: one holder at a time, and a dead holder's lock taken over by exactly one. */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JournalFiles } from '../../../../adapter/fs/journal/journal-files.js';
import { bootId } from '../../../../adapter/fs/journal/undo-lock.js';
import { REPO_ROOT } from '../../../helpers/servers.js';
import { useJournalFolders } from '../../../helpers/journal-folders.js';

const { journalDir } = useJournalFolders();
afterEach(() => vi.restoreAllMocks());

const ID = '20260131-142501123-9f3a';
/** A lock (or claim) left by a process that is gone. */
const dead = (n = 0) => JSON.stringify({ pid: 2 ** 30 + n, host: os.hostname(), at: '2026-01-31T14:25:01.123Z', nonce: `dead${n}` });
const claimOf = (content: string) => `undoing.taken-${createHash('sha256').update(content).digest('hex').slice(0, 24)}`;

async function group(): Promise<{ files: JournalFiles; dir: string }> {
  const files = new JournalFiles(journalDir());
  await files.create({ id: ID, client: 'c', startedAt: '2026-01-31T14:25:01.123Z' });
  return { files, dir: files.groupDir(ID) };
}

/**
 * Child processes each asking for the lock when told to go: 'held' or 'busy'. The one holding it
 * lets go only once every one has answered (no answer depends on how fast each one started).
 */
async function askAtOnce(count: number): Promise<string[]> {
  const module = path.join(REPO_ROOT, 'out/adapter/fs/journal/journal-files.js');
  const script = `
    const { JournalFiles } = await import(${JSON.stringify(module)});
    const files = new JournalFiles(${JSON.stringify(journalDir())});
    process.stdout.write('ready\\n');
    process.stdin.once('data', async () => {
      const lock = await files.lockUndo(${JSON.stringify(ID)});
      if ('busy' in lock) return process.stdout.write('busy\\n', () => process.exit(0));
      process.stdout.write('held\\n');
      process.stdin.on('end', () => lock.release().then(() => process.exit(0))).resume();
    });
  `;
  const children = Array.from({ length: count }, () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    return { child, exited, lines: () => out.split('\n').filter(Boolean) };
  });
  await expect.poll(() => children.every(({ lines }) => lines().includes('ready')), { timeout: 20_000 }).toBe(true);
  for (const { child } of children) child.stdin.write('go\n');
  await expect.poll(() => children.every(({ lines }) => lines().length > 1), { timeout: 20_000 }).toBe(true);
  for (const { child } of children) child.stdin.end();
  await Promise.all(children.map(({ exited }) => exited));
  return children.map(({ lines }) => lines().slice(1).join());
}

describe('the undo lock', () => {
  it('is held by one of several processes asking at once, and by none after', async () => {
    const { dir } = await group();
    const answers = await askAtOnce(6);
    expect(answers.sort()).toEqual(['busy', 'busy', 'busy', 'busy', 'busy', 'held']);
    expect(fs.readdirSync(dir).sort()).toEqual(['blobs', 'meta.json']);
  });

  it('is taken over from a dead holder by one of several processes finding it at once, leaving no claim behind', async () => {
    const { dir } = await group();
    for (let round = 0; round < 2; round++) {
      fs.writeFileSync(path.join(dir, 'undoing'), dead(round));
      const answers = await askAtOnce(6);
      expect(answers.sort()).toEqual(['busy', 'busy', 'busy', 'busy', 'busy', 'held']);
      expect(fs.readdirSync(dir).sort()).toEqual(['blobs', 'meta.json']);
    }
  });

  it('is not removed by a process that found the dead lock, once another took it over', async () => {
    const { dir } = await group();
    const lock = path.join(dir, 'undoing');
    fs.writeFileSync(lock, dead());
    // The first to read the lock sees it dead, but goes on only once the other has taken it over.
    const { readFile } = fs.promises;
    let attempts: Array<Promise<unknown>> = [];
    let held = false;
    vi.spyOn(fs.promises, 'readFile').mockImplementation((async (file: fs.PathLike, options: BufferEncoding) => {
      const content = await readFile(file, options);
      if (String(file) === lock && !held) {
        held = true;
        await Promise.race(attempts);
      }
      return content;
    }) as typeof readFile);
    attempts = [new JournalFiles(journalDir()).lockUndo(ID), new JournalFiles(journalDir()).lockUndo(ID)];
    const answers = (await Promise.all(attempts)) as Array<Awaited<ReturnType<JournalFiles['lockUndo']>>>;
    expect(answers.filter((answer) => 'release' in answer)).toHaveLength(1);
    const refused = answers.find((answer) => 'busy' in answer) as { busy: string };
    expect(JSON.parse(refused.busy)).toMatchObject({ pid: process.pid });
    expect(JSON.parse(fs.readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('takes over a claim whose claimer died before it removed the dead lock; not a live one', async () => {
    const { files, dir } = await group();
    const lock = path.join(dir, 'undoing');
    fs.writeFileSync(lock, dead(0));
    fs.writeFileSync(path.join(dir, claimOf(dead(0))), dead(1));
    const taken = await files.lockUndo(ID);
    if (!('release' in taken)) throw new Error(`not taken: ${taken.busy}`);
    expect(fs.readdirSync(dir).sort()).toEqual(['blobs', 'meta.json', 'undoing']);
    await taken.release();
    expect(fs.readdirSync(dir).sort()).toEqual(['blobs', 'meta.json']);

    const live = JSON.stringify({ pid: process.pid, host: os.hostname(), at: '2026-01-31T14:25:01.123Z', nonce: 'live' });
    fs.writeFileSync(lock, dead(0));
    fs.writeFileSync(path.join(dir, claimOf(dead(0))), live);
    expect(await files.lockUndo(ID)).toEqual({ busy: dead(0) });
    expect(fs.readFileSync(lock, 'utf8')).toBe(dead(0));
  });

  it.runIf(bootId() !== null)('is taken over from a holder of an earlier boot, whose pid a live process may have now', async () => {
    const { files, dir } = await group();
    const lock = path.join(dir, 'undoing');
    const before = (boot: string) => JSON.stringify({ pid: process.pid, host: os.hostname(), boot, at: '2026-01-31T14:25:01.123Z', nonce: 'b' });
    fs.writeFileSync(lock, before(bootId()!));
    expect(await files.lockUndo(ID)).toEqual({ busy: before(bootId()!) });
    fs.writeFileSync(lock, before('an-earlier-boot'));
    const taken = await files.lockUndo(ID);
    if (!('release' in taken)) throw new Error(`not taken: ${taken.busy}`);
    expect(JSON.parse(fs.readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid, boot: bootId() });
    await taken.release();
  });

  it('counts as held when it cannot be read, and is only released by its holder', async () => {
    const { files, dir } = await group();
    fs.writeFileSync(path.join(dir, 'undoing'), '');
    expect(await files.lockUndo(ID)).toEqual({ busy: '' });
    // An empty one, which only an earlier version's crash leaves, is taken over once a minute old.
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(path.join(dir, 'undoing'), old, old);
    const over = await files.lockUndo(ID);
    if (!('release' in over)) throw new Error('an old empty lock was not taken over');
    await over.release();
    fs.writeFileSync(path.join(dir, 'undoing'), '{not json');
    fs.utimesSync(path.join(dir, 'undoing'), old, old);
    expect(await files.lockUndo(ID)).toEqual({ busy: '{not json' });
    fs.rmSync(path.join(dir, 'undoing'));
    const taken = await files.lockUndo(ID);
    if (!('release' in taken)) throw new Error('not taken');
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'undoing'), 'utf8'))).toMatchObject({ pid: process.pid, host: os.hostname() });
    // Someone removed it and another undo took it: the first holder's release leaves the second's lock.
    fs.writeFileSync(path.join(dir, 'undoing'), dead());
    await taken.release();
    expect(fs.readFileSync(path.join(dir, 'undoing'), 'utf8')).toBe(dead());
  });
});
