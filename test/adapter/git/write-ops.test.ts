/** A commit checked on what it changes, before and after: one that a program staged more into meanwhile is taken back. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GitRun } from '../../../adapter/contract/git.js';
import { commit } from '../../../adapter/git/write-ops.js';
import { git, gitHome, makeRepo, ownerRun, writeFiles, type GitHome } from '../../helpers/git-repos.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let base: string;
let owner: GitHome;
let n = 0;
beforeAll(() => {
  base = makeTempDir();
  owner = gitHome(path.join(base, 'home'));
});
afterAll(() => removeDir(base));

function repository(): { repo: string; run: GitRun } {
  const repo = makeRepo(owner, path.join(base, `repo${n++}`), { 'a.txt': 'a\n' });
  return { repo, run: ownerRun(owner, repo) };
}

describe('commit', () => {
  it('shows the check what is staged, and commits it when the check lets it', async () => {
    const { repo, run } = repository();
    writeFiles(repo, { 'a.txt': 'a changed\n', 'b.txt': 'b\n' });
    git(owner, repo, ['add', '-A']);
    const seen: string[][] = [];
    const result = await commit(run, 'two files', async (paths) => void seen.push([...paths]));
    expect(seen).toEqual([
      ['a.txt', 'b.txt'],
      ['a.txt', 'b.txt'],
    ]);
    expect(result).toMatchObject({ files: 2, commit: { subject: 'two files' } });
  });

  it('takes the commit back when the second look finds a path staged after the first', async () => {
    const { repo, run } = repository();
    writeFiles(repo, { 'a.txt': 'a changed\n', '.env': 'SECRET=1\n' });
    git(owner, repo, ['add', 'a.txt']);
    const head = git(owner, repo, ['rev-parse', 'HEAD']).trim();
    let looks = 0;
    const check = async (paths: readonly string[]) => {
      // A command still running stages the secret right after the first look.
      if (looks++ === 0) git(owner, repo, ['add', '-f', '.env']);
      if (paths.includes('.env')) throw new Error('.env is protected');
    };
    await expect(commit(run, 'innocent', check)).rejects.toThrow('.env is protected');
    expect(looks).toBe(2);
    expect(git(owner, repo, ['rev-parse', 'HEAD']).trim()).toBe(head);
    expect(git(owner, repo, ['log', '--format=%s']).trim()).toBe('first commit');
  });

  it('takes back a first commit too, leaving no branch', async () => {
    const { repo, run } = repository();
    git(owner, repo, ['checkout', '-q', '--orphan', 'fresh']);
    git(owner, repo, ['rm', '-q', '--cached', 'a.txt']);
    writeFiles(repo, { '.env': 'SECRET=1\n' });
    git(owner, repo, ['add', 'a.txt']);
    let looks = 0;
    const check = async (paths: readonly string[]) => {
      if (looks++ === 0) git(owner, repo, ['add', '-f', '.env']);
      if (paths.includes('.env')) throw new Error('.env is protected');
    };
    await expect(commit(run, 'first', check)).rejects.toThrow('.env is protected');
    expect(git(owner, repo, ['branch', '--list', 'fresh']).trim()).toBe('');
  });

  it("counts a merge's changes against the branch it was made on (git prints no counts for one)", async () => {
    const { repo, run } = repository();
    git(owner, repo, ['checkout', '-q', '-b', 'other']);
    writeFiles(repo, { 'b.txt': 'b\nmore\n' });
    git(owner, repo, ['add', 'b.txt']);
    git(owner, repo, ['commit', '-q', '-m', 'b on other']);
    git(owner, repo, ['checkout', '-q', 'main']);
    writeFiles(repo, { 'a.txt': 'a on main\n' });
    git(owner, repo, ['commit', '-q', '-am', 'a on main']);
    git(owner, repo, ['merge', '-q', '--no-ff', '--no-commit', 'other']);
    const result = await commit(run, 'merge other', async () => {});
    expect(result.commit.parents).toHaveLength(2);
    expect(result).toMatchObject({ files: 1, added: 2, removed: 0, branch: 'main' });
  });
});
