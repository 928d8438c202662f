/**
 * A server killed with SIGKILL in the middle of fs.move of a folder loses nothing: whenever it
 * dies (while the journal copies the folder whole, once the pre-images are recorded, after the
 * rename but before its end is recorded, after the answer), every file is at its source or its
 * destination with its bytes and mode, a fresh `undo list` works, and `undo apply` of the group
 * puts the folder back at its source byte for byte, or says what it leaves, losing nothing.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectModernHttp, type TestClient } from '../helpers/clients.js';
import { childEnv, runCli, startCliHttp } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

const linux = process.platform === 'linux';
/** Enough that keeping the folder takes a second or so: the polls below land inside the copy. */
const FILES = 3000;
const GROUP_ID = /^\d{8}-\d{9}-[0-9a-f]{4}$/;

type Tree = Map<string, string>;

/** Every entry under `dir` by relative path: a file's mode and bytes, a folder's mode, a link's target. */
function snapshot(dir: string): Tree {
  const tree: Tree = new Map();
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
      const inner = rel ? `${rel}/${name}` : name;
      const full = path.join(dir, inner);
      const stat = fs.lstatSync(full);
      const mode = (stat.mode & 0o7777).toString(8);
      if (stat.isSymbolicLink()) tree.set(inner, `link ${fs.readlinkSync(full)}`);
      else if (stat.isDirectory()) {
        tree.set(inner, `dir ${mode}`);
        walk(inner);
      } else tree.set(inner, `file ${mode} ${fs.readFileSync(full, 'base64')}`);
    }
  };
  if (fs.existsSync(dir)) walk('');
  return tree;
}

/** Files and links of `original` found neither at the source nor at the destination as they were. */
function lost(original: Tree, source: string, destination: string): string[] {
  const [here, there] = [snapshot(source), snapshot(destination)];
  return [...original].filter(([rel, what]) => !what.startsWith('dir ') && here.get(rel) !== what && there.get(rel) !== what).map(([rel]) => rel);
}

/** A few thousand small files, folders within folders, a symlink, an executable. */
function makeFolder(dir: string): void {
  for (const sub of ['', 'a', 'a/b', 'a/b/c', 'd']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const subs = ['', 'a', 'a/b', 'a/b/c', 'd'];
  for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(dir, subs[i % subs.length]!, `f${i}.txt`), `file ${i} ${randomBytes(8).toString('hex')}\n`);
  fs.writeFileSync(path.join(dir, 'a/run.sh'), '#!/bin/sh\necho hi\n');
  fs.chmodSync(path.join(dir, 'a/run.sh'), 0o755);
  fs.chmodSync(path.join(dir, 'd'), 0o750);
  fs.symlinkSync('../a/run.sh', path.join(dir, 'd/link'));
}

/** Where the move was when the server died, read from disk after (the journal's files and the two paths). */
interface Phase {
  group: boolean;
  blobs: number;
  pre: number;
  post: number;
  moved: boolean;
}

function phaseOf(journal: string, destination: string): Phase {
  const ids = fs.existsSync(path.join(journal, 'groups')) ? fs.readdirSync(path.join(journal, 'groups')).filter((n) => GROUP_ID.test(n)) : [];
  const group = ids[0] ? path.join(journal, 'groups', ids[0]) : null;
  const records = group && fs.existsSync(path.join(group, 'records.jsonl')) ? fs.readFileSync(path.join(group, 'records.jsonl'), 'utf8') : '';
  return {
    group: group !== null,
    blobs: group ? fs.readdirSync(path.join(group, 'blobs')).length : 0,
    pre: records.split('\n').filter((l) => l.startsWith('{"k":"pre"')).length,
    post: records.split('\n').filter((l) => l.startsWith('{"k":"post"')).length,
    moved: fs.existsSync(destination),
  };
}

/** Cheap looks at the call in flight (a stat each: the window before the rename is a millisecond or so). */
interface Watch {
  group: () => boolean;
  blobs: () => number;
  recorded: () => boolean;
  moved: () => boolean;
}

function watching(journal: string, destination: string): Watch {
  let dir: string | undefined;
  const groups = path.join(journal, 'groups');
  const group = () => {
    const id = dir || !fs.existsSync(groups) ? undefined : fs.readdirSync(groups).find((n) => GROUP_ID.test(n));
    if (id) dir = path.join(groups, id);
    return dir;
  };
  return {
    group: () => group() !== undefined,
    blobs: () => (group() ? fs.readdirSync(path.join(dir!, 'blobs')).length : 0),
    recorded: () => (group() ? (fs.statSync(path.join(dir!, 'records.jsonl'), { throwIfNoEntry: false })?.size ?? 0) > 0 : false),
    moved: () => fs.existsSync(destination),
  };
}

/** Each moment: when to kill, and what the journal and paths must show after (proof it landed there). */
interface Moment {
  name: string;
  when: (w: Watch) => boolean;
  /** Looked at in a busy loop once the copy is nearly done (a window of a millisecond or so), else every few ms. */
  spin?: boolean;
  /** After the call answered. */
  answered?: boolean;
  landed: (p: Phase) => boolean;
}

const MOMENTS: Moment[] = [
  // Its group folder is made before anything is kept: nothing recorded, the copy not begun or barely.
  { name: 'the group made, the copy starting', when: (w) => w.group(), landed: (p) => p.group && p.blobs < FILES && p.pre === 0 && !p.moved },
  { name: 'half the folder kept', when: (w) => w.blobs() >= FILES / 2, landed: (p) => p.blobs < FILES && p.pre === 0 && !p.moved },
  // The source's pre-image is one line, written once the whole folder is kept; the rename(2) follows within a millisecond,
  // so the kill lands just before it or while it runs (a syscall under way completes: moved whole or not at all).
  { name: 'the pre-images recorded, the rename under way', when: (w) => w.recorded(), spin: true, landed: (p) => p.pre > 0 && p.post === 0 },
  // After the rename the server walks the moved folder to stamp it (thousands of lstats) before its "post" lines: a wide window.
  { name: 'moved, not yet recorded done', when: (w) => w.moved(), spin: true, landed: (p) => p.moved && p.pre === 2 && p.post === 0 },
  { name: 'after the answer', when: () => true, answered: true, landed: (p) => p.moved && p.post === 2 },
];

describe.runIf(linux)('fs.move of a folder, the server killed with SIGKILL part way', () => {
  it.each(MOMENTS)('$name: nothing lost, and undo lists and puts back or says why', { timeout: 40_000 }, async (moment) => {
    const base = makeTempDir('undo-killed-move-');
    const home = path.join(base, 'home');
    const root = path.join(base, 'root');
    const source = path.join(root, 'project');
    const destination = path.join(root, 'renamed');
    const journal = path.join(home, '.config', 'chatgpt-mcp', 'journal');
    fs.mkdirSync(home);
    makeFolder(source);
    const original = snapshot(source);
    // Default tool names (fs_move); the client speaks the contract's (fs.move) either way.
    const config = writeJson(path.join(base, 'config.json'), { server: { auth: 'none' }, filesystem: { write: true, roots: [root] } });
    const env = childEnv(home, { PATH: process.env.PATH ?? '' });
    // The CLI server as its own process: SIGKILL reaches the very process recording the journal.
    const server = await startCliHttp(['--config', config], env);
    const died = new Promise((resolve) => server.child.once('exit', resolve));
    let client: TestClient | undefined;
    try {
      client = await connectModernHttp(server.url);
      const call = client.callTool({ name: 'fs.move', arguments: { source, destination } }).catch((error: Error) => error);
      const w = watching(journal, destination);
      if (moment.answered) expect(await call).not.toBeInstanceOf(Error);
      const deadline = Date.now() + 20_000;
      let spinning = false;
      while (!moment.when(w) && Date.now() < deadline) {
        spinning ||= moment.spin === true && w.blobs() > FILES - 50;
        if (!spinning) await new Promise((resolve) => setTimeout(resolve, 2));
      }
      server.child.kill('SIGKILL');
      await died;
      // Read back from disk: the kill landed where this moment says (its blobs, records and paths show it).
      const at = phaseOf(journal, destination);
      expect(moment.landed(at), `killed at ${JSON.stringify(at)}`).toBe(true);

      // (a) Every file and link is at the source or the destination, with its bytes and mode.
      expect(lost(original, source, destination)).toEqual([]);

      // (b) A fresh list works and shows the group the killed call left (cut short: "0 paths"), not a crash.
      const list = await runCli(['undo', 'list', '--config', config], env);
      expect(list.code, list.stderr).toBe(0);
      const id = /^(\d{8}-\d{9}-[0-9a-f]{4}) /m.exec(list.stdout)?.[1];
      expect(id, list.stdout).toBeDefined();

      // (c) Its undo puts the folder back byte for byte, or leaves it and says so; nothing is lost either way.
      const undo = await runCli(['undo', 'apply', id!, '--config', config], env, 30_000);
      const said = `${undo.stdout}\n${undo.stderr}`;
      expect(said, 'no stack trace').not.toMatch(/\n\s+at /);
      expect(lost(original, source, destination), said.slice(0, 600)).toEqual([]);
      const back = snapshot(source);
      const there = snapshot(destination);
      if (back.size > 0) expect(back, 'put back at the source, as it was').toEqual(original);
      else expect(there, 'not put back: all still at the destination').toEqual(original);
      // Killed before the rename, the source never moved: nothing there is the model's to take away.
      if (!at.moved) expect(back).toEqual(original);
      // Both sides hold it (undo put the source back from the journal, the call never recorded done): it says what it left.
      if (back.size > 0 && there.size > 0) expect(said).toContain(`${destination}: its change was never recorded as done`);
      if (back.size === 0 || undo.code !== 0) expect(said).toMatch(/left|cannot|not restored/);
    } finally {
      server.child.kill('SIGKILL');
      await client?.close().catch(() => undefined);
      removeDir(base);
    }
  });
});
