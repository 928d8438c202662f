/** A clone takes what git runs on the other side from the run (--upload-pack): a clone sets its own, over any remote.origin.uploadpack. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clone } from '../../../adapter/git/network-ops.js';
import { makeBare, makeRepo, git, ownerRun, ownerGitBase } from '../../helpers/git-repos.js';

const at = ownerGitBase();

describe('clone', () => {
  it('runs the upload-pack the run names on the other side', async () => {
    const work = makeRepo(at.owner, path.join(at.base, 'work'), { 'f.txt': 'one\n' });
    const bare = makeBare(at.owner, path.join(at.base, 'source.git'), work);
    const marker = path.join(at.base, 'used');
    const wrapper = path.join(at.base, 'upload-pack.sh');
    fs.writeFileSync(wrapper, `#!/bin/sh\necho used > '${marker}'\nexec /usr/bin/git upload-pack "$@"\n`, { mode: 0o755 });
    const run = ownerRun(at.owner, at.base, { uploadPack: `'${wrapper}'` });
    const cloned = await clone(run, bare, 'copy', { check: async () => {} });
    expect(cloned.branch).toBe('main');
    expect(fs.readFileSync(marker, 'utf8')).toBe('used\n');
    expect(git(at.owner, path.join(at.base, 'copy'), ['log', '-1', '--format=%s']).trim()).toBe(git(at.owner, work, ['log', '-1', '--format=%s']).trim());
  });
});
