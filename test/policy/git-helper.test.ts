/** The other side's override, with real git: a local remote's planted hook and alternateRefsCommand do not run, and the push and the fetch still work. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteSideOverride } from '../../main/policy/git-helper.js';
import { git, gitHome, makeBare, makeRepo, type GitHome } from '../helpers/git-repos.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let base: string;
let owner: GitHome;
let bare: string;
let work: string;
let marker: string;
const GIT = '/usr/bin/git';

beforeAll(() => {
  base = makeTempDir();
  owner = gitHome(path.join(base, 'home'));
  marker = path.join(base, 'ran');
  work = makeRepo(owner, path.join(base, 'work'), { 'f.txt': 'one\n' });
  bare = makeBare(owner, path.join(base, 'remote.git'));
  // What a tool could plant in a remote it can write, between the policy's look and git's run.
  for (const hook of ['pre-receive', 'post-receive', 'post-update', 'reference-transaction'])
    fs.writeFileSync(path.join(bare, 'hooks', hook), `#!/bin/sh\necho ${hook} >> '${marker}'\n`, { mode: 0o755 });
  git(owner, bare, ['config', 'core.alternateRefsCommand', `sh -c 'echo alternates >> ${marker}'`]);
  git(owner, work, ['remote', 'add', 'origin', bare]);
});
afterAll(() => removeDir(base));

describe('remoteSideOverride', () => {
  it("pushes with none of the remote repository's hooks or programs run", () => {
    git(owner, work, ['-c', remoteSideOverride(GIT, 'origin', 'push'), 'push', '-q', 'origin', 'main']);
    expect(git(owner, bare, ['rev-parse', 'main'])).toBe(git(owner, work, ['rev-parse', 'HEAD']));
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('fetches and clones with none run either', () => {
    git(owner, work, ['-c', remoteSideOverride(GIT, 'origin', 'pull'), 'fetch', '-q', 'origin']);
    git(owner, base, ['-c', remoteSideOverride(GIT, 'origin', 'pull'), 'clone', '-q', '--no-local', bare, path.join(base, 'clone')]);
    expect(fs.readFileSync(path.join(base, 'clone', 'f.txt'), 'utf8')).toBe('one\n');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('(without it, the same push runs them: the test plants what it means to)', () => {
    git(owner, work, ['commit', '-q', '--allow-empty', '-m', 'again']);
    git(owner, work, ['push', '-q', 'origin', 'main']);
    expect(fs.readFileSync(marker, 'utf8')).toMatch(/pre-receive[\s\S]*post-receive/);
  });

  it('quotes the program for the shell that runs it on the other side', () => {
    expect(remoteSideOverride("/opt/it's/git", 'up', 'pull')).toMatch(/^remote\.up\.uploadpack='\/opt\/it'\\''s\/git' -c /);
  });
});
