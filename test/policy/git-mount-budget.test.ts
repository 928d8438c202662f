/** The mounts a plan spends on git's code: a repository whole or not at all, within its own share, leaving what the .git files after it need. */
import { describe, expect, it } from 'vitest';
import { GitMountBudget, KEPT_FOR_GIT_FILES, MAX_GIT_MOUNTS, MAX_MOUNTS_PER_GIT_FILE, MAX_MOUNTS_PER_REPOSITORY } from '../../main/policy/git-mount-budget.js';

const ROOT = '/home/alex/code';
/** A repository's entries: its .git and `n - 1` more, in a folder one below the root (which costs one more mount). */
const repository = (name: string, n: number) => [
  { root: ROOT, paths: [`${ROOT}/${name}/.git`, ...Array.from({ length: n - 1 }, (_, i) => `${ROOT}/${name}/.git/e${i}`)] },
];

describe('GitMountBudget', () => {
  it('counts each folder up to the root once, and takes a repository whole or not at all', () => {
    const budget = new GitMountBudget();
    expect(budget.take(repository('a', 3))).toBe(true);
    // `a` itself is counted already: the same entries again cost nothing.
    expect(budget.take(repository('a', 3), 0)).toBe(true);
    expect(budget.take(repository('big', MAX_MOUNTS_PER_REPOSITORY))).toBe(false);
    expect(budget.take([{ root: ROOT, paths: [`${ROOT}/${'x/'.repeat(MAX_MOUNTS_PER_GIT_FILE)}.git`] }], MAX_MOUNTS_PER_GIT_FILE)).toBe(false);
  });

  it(`leaves what repositories are asked to keep for the .git files after them, within ${MAX_GIT_MOUNTS}`, () => {
    const budget = new GitMountBudget();
    let repositories = 0;
    while (budget.take(repository(`r${repositories}`, 9), undefined, KEPT_FOR_GIT_FILES)) repositories += 1;
    // Ten mounts each (nine and its folder): they stop short of what is kept.
    expect(repositories).toBe(Math.floor((MAX_GIT_MOUNTS - KEPT_FOR_GIT_FILES.mounts) / 10));
    let files = 0;
    while (budget.take([{ root: ROOT, paths: [`${ROOT}/f${files}/.git`] }], MAX_MOUNTS_PER_GIT_FILE)) files += 1;
    expect(files).toBe((MAX_GIT_MOUNTS - repositories * 10) / 2);
  });
});
