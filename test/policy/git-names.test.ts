import { describe, expect, it } from 'vitest';
import { branchProblem, remoteNameProblem, revisionProblem } from '../../main/policy/git-names.js';

describe('names a model passes to git', () => {
  it.each(['HEAD', 'main', 'HEAD~2', 'main^', 'v1.2.3', 'origin/main', 'main..feature', 'a...b', 'abc123', 'HEAD@{1}', 'feature/x-y_z'])(
    'revision %s',
    (rev) => {
      expect(revisionProblem(rev)).toBeNull();
    },
  );
  it.each(['--upload-pack=x', '-p', '', 'a b', 'main:secret.txt', 'a\nb', 'x'.repeat(300)])('not a revision: %j', (rev) => {
    expect(revisionProblem(rev)).toEqual(expect.any(String));
  });
  it.each(['main', 'feature/x', 'fix-1.2', 'a_b'])('branch %s', (name) => expect(branchProblem(name)).toBeNull());
  it.each(['-b', '.hidden', 'a..b', 'a/', 'a.lock', 'x/.y', 'a//b', 'HEAD', '@', 'a@{b', 'a b', 'a~1', 'a:b'])('not a branch: %s', (name) => {
    expect(branchProblem(name)).toEqual(expect.any(String));
  });
  it('remotes', () => {
    expect(remoteNameProblem('origin')).toBeNull();
    expect(remoteNameProblem('--exec=x')).toEqual(expect.any(String));
    expect(remoteNameProblem('a/b')).toEqual(expect.any(String));
  });
});
