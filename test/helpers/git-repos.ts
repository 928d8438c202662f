/**
 * Real git repositories in temp folders for the git tools' tests. git runs with a temp HOME
 * whose ~/.gitconfig (the owner's global config) gives an identity and nothing else, and
 * without the machine's system config, so no test depends on (or touches) the real home.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { GitRun } from '../../adapter/contract/git.js';
import { makeTempDir, removeDir } from './temp.js';

export interface GitHome {
  home: string;
  /** The environment the server's adapter and the tests' own git calls use. */
  env: NodeJS.ProcessEnv;
}

/** A temp folder holding an owner's git home (`home/`), made before a test file's tests and removed after them. */
export function ownerGitBase(): { readonly base: string; readonly owner: GitHome } {
  const at = {} as { base: string; owner: GitHome };
  beforeAll(() => {
    at.base = makeTempDir();
    at.owner = gitHome(path.join(at.base, 'home'));
  });
  afterAll(() => removeDir(at.base));
  return at;
}

export function gitHome(home: string, globalConfig = ''): GitHome {
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(home, '.gitconfig'), `[user]\n\tname = Test Owner\n\temail = owner@example.com\n[init]\n\tdefaultBranch = main\n${globalConfig}`);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), LANG: 'C', LC_ALL: 'C' };
  return { home, env };
}

/** Runs git in `cwd` as the owner would (not through the tools); returns stdout. */
export function git(owner: GitHome, cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, {
    cwd,
    env: { ...owner.env, GIT_CONFIG_NOSYSTEM: '1' },
    encoding: 'utf8',
    input,
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: 30_000,
  });
}

/** A repository with one commit of `files` (path -> content). */
export function makeRepo(owner: GitHome, dir: string, files: Record<string, string> = { 'README.md': '# project\n' }): string {
  fs.mkdirSync(dir, { recursive: true });
  git(owner, dir, ['init', '-q']);
  writeFiles(dir, files);
  git(owner, dir, ['add', '-A']);
  git(owner, dir, ['commit', '-q', '-m', 'first commit']);
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
}

/** A bare repository holding `source`'s main branch, to push to and pull from. */
export function makeBare(owner: GitHome, dir: string, source?: string): string {
  git(owner, path.dirname(dir), ['init', '-q', '--bare', '-b', 'main', dir]);
  if (source) git(owner, source, ['push', '-q', dir, 'main:main']);
  return dir;
}

/** A git run of the owner's git in `cwd`, outside any sandbox, with no overrides: for the adapter's tests. */
export function ownerRun(owner: GitHome, cwd: string, more: Partial<GitRun> = {}): GitRun {
  const env = { PATH: process.env.PATH!, HOME: owner.home, LC_ALL: 'C', GIT_LITERAL_PATHSPECS: '1' };
  return { file: '/usr/bin/git', env, cwd, config: [], timeoutMs: 30_000, visible: () => true, ...more };
}
