/** git's refusals of a caller's mistake (as git 2.39 words them, and from a real run) come back with the contract's codes and a hint. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitMistake } from '../../../adapter/git/git-mistakes.js';
import { runGit } from '../../../adapter/git/run-git.js';
import { makeRepo, ownerRun, ownerGitBase } from '../../helpers/git-repos.js';

const at = ownerGitBase();

describe('gitMistake', () => {
  it.each([
    ["fatal: a branch named 'main' already exists", 'ALREADY_EXISTS'],
    ['fatal: invalid reference: nope', 'NOT_FOUND'],
    ["error: pathspec 'nope.js' did not match any file(s) known to git", 'NOT_FOUND'],
    ["fatal: pathspec '*.dat' did not match any files", 'NOT_FOUND'],
    ["fatal: not a valid object name: 'master'", 'NOT_FOUND'],
    ["fatal: bad revision 'HEAD'", 'NOT_FOUND'],
    ['error: Committing is not possible because you have unmerged files.', 'PRECONDITION_FAILED'],
    ['error: you need to resolve your current index first', 'PRECONDITION_FAILED'],
  ])('%s: %s', (stderr, code) => {
    expect(gitMistake(stderr)).toMatchObject({ code });
  });

  it('leaves what is not a request to put right as it is', () => {
    expect(gitMistake('fatal: unable to write new index file')).toBeNull();
  });

  it("turns a real refusal into its code, with git's words and the hint", async () => {
    const repo = makeRepo(at.owner, path.join(at.base, 'repo'), { 'a.txt': 'a\n' });
    const run = ownerRun(at.owner, repo);
    await expect(runGit(run, ['branch', '--', 'main'], { operation: 'git.branch_create' })).rejects.toMatchObject({
      code: 'ALREADY_EXISTS',
      message: expect.stringMatching(/git branch: fatal: a branch named 'main' already exists \(pick another name, or git_switch to it\)/),
    });
  });
});
