/** A clone takes what git runs on the other side from the run (--upload-pack): a clone sets its own, over any remote.origin.uploadpack. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clone } from '../../../adapter/git/network-ops.js';
import { gitHome, makeBare, makeRepo, git, type GitHome, ownerRun } from '../../helpers/git-repos.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let base: string;
let owner: GitHome;
beforeAll(() => {
  base = makeTempDir();
  owner = gitHome(path.join(base, 'home'));
});
afterAll(() => removeDir(base));

describe('clone', () => {
  it('runs the upload-pack the run names on the other side', async () => {
    const work = makeRepo(owner, path.join(base, 'work'), { 'f.txt': 'one\n' });
    const bare = makeBare(owner, path.join(base, 'source.git'), work);
    const marker = path.join(base, 'used');
    const wrapper = path.join(base, 'upload-pack.sh');
    fs.writeFileSync(wrapper, `#!/bin/sh\necho used > '${marker}'\nexec /usr/bin/git upload-pack "$@"\n`, { mode: 0o755 });
    const run = ownerRun(owner, base, { uploadPack: `'${wrapper}'` });
    const cloned = await clone(run, bare, 'copy', { check: async () => {} });
    expect(cloned.branch).toBe('main');
    expect(fs.readFileSync(marker, 'utf8')).toBe('used\n');
    expect(git(owner, path.join(base, 'copy'), ['log', '-1', '--format=%s']).trim()).toBe(git(owner, work, ['log', '-1', '--format=%s']).trim());
  });
});
