/**
 * The probe's remembered git runs, on real repositories with a git that counts its runs: reused
 * while nothing changed; run again when a config file, an include target that appears, HEAD, or a
 * `.git` between the folder and the top level changes; never remembered while files were changing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeRepository } from '../../../adapter/git/probe.js';
import { ProbeCache } from '../../../adapter/git/probe-cache.js';
import { git, gitHome, makeRepo, type GitHome } from '../../helpers/git-repos.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let base: string;
let owner: GitHome;
let counter: string;
let program: { file: string; env: Record<string, string> };
const runs = () => (fs.existsSync(counter) ? fs.readFileSync(counter, 'utf8').length : 0);

beforeAll(() => {
  base = makeTempDir();
  owner = gitHome(path.join(base, 'home'));
  counter = path.join(base, 'runs');
  const wrapper = path.join(base, 'counting-git');
  fs.writeFileSync(wrapper, `#!/bin/sh\nprintf x >> '${counter}'\nexec /usr/bin/git "$@"\n`, { mode: 0o755 });
  program = { file: wrapper, env: { PATH: process.env.PATH!, HOME: owner.home, LC_ALL: 'C' } };
});
afterAll(() => removeDir(base));

/** Probes twice in a row with a cache that trusts files at once, and says how many git runs the second took. */
async function secondRuns(cache: ProbeCache, dir: string, change?: () => void) {
  await probeRepository(dir, program, {}, cache);
  change?.();
  const before = runs();
  const facts = await probeRepository(dir, program, {}, cache);
  return { runs: runs() - before, facts: facts! };
}

describe('ProbeCache', () => {
  it('reuses the runs while nothing changed, from the top level and from a subfolder', async () => {
    const repo = makeRepo(owner, path.join(base, 'still'), { 'src/a.txt': 'a\n' });
    const cache = new ProbeCache(0);
    expect((await secondRuns(cache, repo)).runs).toBe(0);
    const inside = await secondRuns(cache, path.join(repo, 'src'));
    expect(inside.runs).toBe(0);
    expect(inside.facts.topLevel).toBe(repo);
  });

  it("runs git again when the repository's config changes, and sees the new setting", async () => {
    const repo = makeRepo(owner, path.join(base, 'config'));
    const second = await secondRuns(new ProbeCache(0), repo, () => git(owner, repo, ['config', 'core.fsmonitor', '/never/run']));
    expect(second.runs).toBe(2);
    expect(second.facts.config).toContainEqual(expect.objectContaining({ scope: 'local', key: 'core.fsmonitor', value: '/never/run' }));
  });

  it('runs git again when an include target that was missing appears', async () => {
    const repo = makeRepo(owner, path.join(base, 'include'));
    git(owner, repo, ['config', 'include.path', '../notes.cfg']);
    const second = await secondRuns(new ProbeCache(0), repo, () => fs.writeFileSync(path.join(repo, 'notes.cfg'), '[core]\n\tfsmonitor = /never/run\n'));
    expect(second.runs).toBe(2);
    expect(second.facts.config).toContainEqual(expect.objectContaining({ key: 'core.fsmonitor', value: '/never/run' }));
  });

  it("runs git again when the owner's global config changes, or HEAD moves to another branch", async () => {
    const repo = makeRepo(owner, path.join(base, 'global'));
    const cache = new ProbeCache(0);
    expect((await secondRuns(cache, repo, () => fs.appendFileSync(path.join(owner.home, '.gitconfig'), '[color]\n\tui = false\n'))).runs).toBe(2);
    git(owner, repo, ['branch', 'other']);
    expect((await secondRuns(cache, repo, () => git(owner, repo, ['symbolic-ref', 'HEAD', 'refs/heads/other']))).runs).toBe(2);
  });

  it('runs git again when a repository appears between the folder and the top level', async () => {
    const repo = makeRepo(owner, path.join(base, 'outer'), { 'inner/deep/a.txt': 'a\n' });
    const deep = path.join(repo, 'inner', 'deep');
    const second = await secondRuns(new ProbeCache(0), deep, () => git(owner, path.join(repo, 'inner'), ['init', '-q']));
    expect(second.runs).toBe(2);
    expect(second.facts.topLevel).toBe(path.join(repo, 'inner'));
  });

  it('remembers nothing while a file it rests on changed moments ago', async () => {
    const repo = makeRepo(owner, path.join(base, 'fresh'));
    // The default: a config written in the last two seconds may have been read half-way.
    expect((await secondRuns(new ProbeCache(), repo)).runs).toBe(2);
  });
});
