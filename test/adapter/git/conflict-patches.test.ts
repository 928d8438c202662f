/** A working tree stopped on a merge conflict, diffed for real: the conflicted file's combined patch, with its markers, within the byte budget. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GitRun } from '../../../adapter/contract/git.js';
import { diff } from '../../../adapter/git/read-ops.js';
import { git, gitHome, makeRepo, writeFiles, type GitHome, ownerRun } from '../../helpers/git-repos.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let base: string;
let owner: GitHome;
let repo: string;
let run: GitRun;

beforeAll(() => {
  base = makeTempDir();
  owner = gitHome(path.join(base, 'home'));
  repo = makeRepo(owner, path.join(base, 'repo'), { 'f.txt': 'a\nb\nc\n', 'g.txt': 'y\n' });
  git(owner, repo, ['checkout', '-q', '-b', 'other']);
  writeFiles(repo, { 'f.txt': 'a\nB-other\nc\n' });
  git(owner, repo, ['commit', '-q', '-am', 'other']);
  git(owner, repo, ['checkout', '-q', 'main']);
  writeFiles(repo, { 'f.txt': 'a\nB-main\nc\n' });
  git(owner, repo, ['commit', '-q', '-am', 'main']);
  try {
    git(owner, repo, ['merge', '-q', 'other']);
  } catch {
    // The conflict stops the merge: what the test needs.
  }
  writeFiles(repo, { 'g.txt': 'y\nz\n' });
  run = ownerRun(owner, repo);
});
afterAll(() => removeDir(base));

describe('diff of a working tree with a conflicted file', () => {
  it('gives the conflicted file its combined patch, with the markers, and the other file its own', async () => {
    const result = await diff(run, { diff: { kind: 'worktree' }, paths: [], maxBytes: 1 << 20, contextLines: 3 });
    const [f, g] = result.files;
    expect(f).toMatchObject({ path: 'f.txt', conflicted: true, added: null, removed: null });
    expect(f!.patch).toMatch(/^diff --cc f\.txt\n/);
    expect(f!.patch).toContain('++<<<<<<< HEAD\n +B-main\n++=======\n+ B-other\n++>>>>>>> other\n');
    expect(g).toMatchObject({ path: 'g.txt', added: 1, removed: 0 });
    expect(g!.patch).toMatch(/^diff --git a\/g\.txt b\/g\.txt\n/);
    expect(result.truncated).toBe(false);
  });

  it('leaves the combined patch out, and says so, when the budget is spent', async () => {
    const whole = await diff(run, { diff: { kind: 'worktree' }, paths: [], maxBytes: 1 << 20, contextLines: 3 });
    const gBytes = Buffer.byteLength(whole.files[1]!.patch!);
    const result = await diff(run, { diff: { kind: 'worktree' }, paths: [], maxBytes: gBytes + 10, contextLines: 3 });
    expect(result.files[0]).toMatchObject({ path: 'f.txt', conflicted: true });
    expect(result.files[0]!.patch).toBeUndefined();
    expect(result.files[1]!.patch).toBeDefined();
    expect(result.truncated).toBe(true);
  });

  it('asked for the conflicted file alone, gives its patch', async () => {
    const result = await diff(run, { diff: { kind: 'worktree' }, paths: ['f.txt'], maxBytes: 1 << 20, contextLines: 3 });
    expect(result.files).toHaveLength(1);
    expect(result.files[0]!.patch).toContain('++<<<<<<< HEAD');
  });
});
