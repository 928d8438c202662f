/** Running git: argv only, bounded output that stops git, stdin, timeouts, and git's own reasons in errors. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitMessage, runGit } from '../../../adapter/git/run-git.js';
import { gitHome, makeRepo } from '../../helpers/git-repos.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let base: string;
let repo: string;
let run: { file: string; env: Record<string, string>; cwd: string };

beforeAll(() => {
  base = makeTempDir();
  const owner = gitHome(path.join(base, 'home'));
  const files: Record<string, string> = {};
  for (let i = 0; i < 200; i++) files[`f${i}.txt`] = `${'x'.repeat(1000)}\n`;
  repo = makeRepo(owner, path.join(base, 'repo'), files);
  run = { file: '/usr/bin/git', env: { PATH: process.env.PATH!, HOME: owner.home, LC_ALL: 'C' }, cwd: repo };
});
afterAll(() => removeDir(base));

describe('runGit', () => {
  it('returns the output as bytes, and the -c overrides come first', async () => {
    const out = await runGit({ ...run, config: ['core.abbrev=7'] }, ['rev-parse', '--short', 'HEAD'], { operation: 't' });
    expect(out).toMatchObject({ code: 0, truncated: false });
    expect(out.stdout.toString().trim()).toMatch(/^[0-9a-f]{7}$/);
  });

  it('stops git once it has read maxBytes', async () => {
    const out = await runGit(run, ['log', '-p'], { operation: 't', maxBytes: 1000 });
    expect(out).toMatchObject({ truncated: true });
    expect(out.stdout.length).toBe(1000);
  });

  it('writes input to stdin', async () => {
    const out = await runGit(run, ['hash-object', '--stdin'], { operation: 't', input: 'hello\n' });
    expect(out.stdout.toString().trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it("fails with git's reason, or passes exit codes the caller expects", async () => {
    await expect(runGit(run, ['rev-parse', '--verify', 'nope'], { operation: 't' })).rejects.toMatchObject({
      code: 'OS_ERROR',
      message: expect.stringMatching(/^git rev-parse failed: fatal: Needed a single revision/),
    });
    const expected = await runGit(run, ['rev-parse', '--verify', '--quiet', 'nope'], { operation: 't', ok: [0, 1] });
    expect(expected.code).toBe(1);
  });

  it('ends git at the timeout, and on an abort', async () => {
    const slow = path.join(base, 'slow.sh');
    fs.writeFileSync(slow, '#!/bin/sh\nsleep 30\n', { mode: 0o755 });
    await expect(runGit({ ...run, timeoutMs: 300, config: [`alias.slow=!${slow}`] }, ['slow'], { operation: 't' })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await expect(runGit({ ...run, signal: controller.signal, config: [`alias.slow=!${slow}`] }, ['slow'], { operation: 't' })).rejects.toMatchObject({
      message: /cancelled/,
    });
  });
});

describe('gitMessage', () => {
  it("keeps git's fatal/error lines, without control characters, bounded", () => {
    expect(gitMessage('Cloning into x...\nfatal: repository not found\n')).toBe('fatal: repository not found');
    expect(gitMessage('plain line\x1b[31m\n')).toBe('plain line?[31m');
    expect(gitMessage(`fatal: ${'x'.repeat(2000)}`)).toHaveLength(1003);
  });

  it('hides the user and token of every URL it quotes', () => {
    expect(gitMessage("fatal: unable to access 'https://me:ghp_x1@github.com/o/r/': 403\nfatal: again https://ghp_y2@h/x")).toBe(
      "fatal: unable to access 'https://***@github.com/o/r/': 403 fatal: again https://***@h/x",
    );
  });
});
