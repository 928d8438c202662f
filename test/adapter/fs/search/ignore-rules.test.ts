import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirHandle } from '../../../../adapter/fs/dir-handle.js';
import { EntryFilter, globMatcher } from '../../../../adapter/fs/search/ignore-rules.js';
import type { FilterOptions } from '../../../../adapter/contract/files.js';
import { SYNC_CALLS } from '../../../../adapter/fs/search/entry-calls.js';
import { walk } from '../../../../adapter/fs/search/walk.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

const RG = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
})();
if (!RG && process.env.REQUIRE_DESKTOP_TESTS === '1') throw new Error('ripgrep is missing (apt-get install ripgrep): the ignore rules cannot be compared');

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

const options = (over: Partial<FilterOptions> = {}): FilterOptions => ({ hidden: false, gitignore: true, include: [], exclude: [], ...over });

/** Files the walk yields under `dir` with these options. */
async function walked(filterOptions: FilterOptions): Promise<string[]> {
  const start = await DirHandle.open(dir, () => {}, 'test');
  const files: string[] = [];
  try {
    for await (const entry of walk(start, { filter: new EntryFilter(filterOptions), confirm: () => {}, budget: () => true, calls: SYNC_CALLS })) {
      if (entry.type === 'file') files.push(entry.relative);
    }
  } finally {
    await start.close();
  }
  return files;
}

/** What `rg --files` lists with the flags fs.search gives it. */
function ripgrepFiles(filterOptions: FilterOptions): string[] {
  const args = [
    '--files',
    '--no-config',
    '--no-messages',
    '--no-ignore-parent',
    '--no-ignore-global',
    '--no-ignore-exclude',
    '--no-require-git',
    '--glob=!.git',
  ];
  if (filterOptions.hidden) args.push('--hidden');
  if (!filterOptions.gitignore) args.push('--no-ignore');
  for (const glob of filterOptions.exclude) args.push(`--glob=!${glob}`);
  let out: string;
  try {
    out = execFileSync(RG!, [...args, '--', '.'], { cwd: dir, encoding: 'utf8', env: {} });
  } catch (error) {
    if ((error as { status?: number }).status !== 1) throw error;
    out = ''; // no file at all
  }
  return out
    .split('\n')
    .filter(Boolean)
    .map((p) => p.replace(/^\.\//, ''))
    .sort();
}

function write(rel: string, content = 'x\n'): void {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), content);
}

describe('EntryFilter', () => {
  it('walks in depth-first order with names sorted at each level', async () => {
    for (const f of ['b.txt', 'a/z.txt', 'a.txt', 'A.txt', 'a/b/c.txt']) write(f);
    expect(await walked(options())).toEqual(['A.txt', 'a/b/c.txt', 'a/z.txt', 'a.txt', 'b.txt']);
  });

  it('never enters .git, even with hidden', async () => {
    write('.git/config');
    write('sub/.git/HEAD');
    write('.gitignore', '');
    expect(await walked(options({ hidden: true }))).toEqual(['.gitignore']);
  });

  it('include globs without "/" match names at any depth, with "/" the path; they never lift an ignore rule', async () => {
    write('.gitignore', 'gen/\n');
    for (const f of ['a.ts', 'src/b.ts', 'src/c.js', 'gen/d.ts', '.e.ts']) write(f);
    expect(await walked(options({ include: ['*.ts'] }))).toEqual(['a.ts', 'src/b.ts']);
    expect(await walked(options({ include: ['src/*'] }))).toEqual(['src/b.ts', 'src/c.js']);
    expect(await walked(options({ include: ['./src/*.js'] }))).toEqual(['src/c.js']);
  });

  it('globMatcher matches dot names too and is null without globs', () => {
    expect(globMatcher([])).toBeNull();
    expect(globMatcher(['*.env'])!('dir/.x.env')).toBe(true);
    expect(globMatcher(['dir/**'])!('dir/a/b')).toBe(true);
    expect(globMatcher(['dir/*'])!('other/dir/a')).toBe(false);
  });
});

/**
 * The walk against ripgrep itself on many generated trees: ignore files of the three kinds at
 * several depths with a mix of rules (negations, anchored, folder-only, wildcards, classes),
 * hidden names, exclude globs. Deterministic (seeded), so a difference is reproducible.
 */
describe.skipIf(!RG)('the walk picks the same files as rg --files', () => {
  const NAMES = ['a', 'b', 'build', 'sub', 'tmp', 'keep.log', 'err.log', 'n.txt', 'z.txt', '.hid', '.hidden.txt', 'a.md', 'b.md', 'doc', 'x1', 'ab'];
  const RULES = [
    '*.log',
    '!keep.log',
    'build/',
    '/build',
    'b*/',
    '**/tmp',
    'a/**/z.txt',
    '*.txt',
    '!*.txt',
    '.hid*',
    '!.hid*',
    'sub/',
    '!sub/',
    'x?',
    '[ab].md',
    'doc/*.md',
    '!n.txt',
    '# comment',
    '',
    'a',
    '!a',
    '/sub/z.txt',
    'tmp/',
    '*',
    '!*/',
    '!*.md',
  ];
  const KINDS = ['.gitignore', '.ignore', '.rgignore'];

  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    };
  }

  function generate(seed: number): void {
    const next = random(seed);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    const dirs = [''];
    for (let i = 0; i < 40; i++) {
      const parent = pick(dirs);
      const name = pick(NAMES);
      const rel = parent ? `${parent}/${name}` : name;
      if (fs.existsSync(path.join(dir, rel))) continue;
      if (next() < 0.35 && rel.split('/').length < 4) {
        fs.mkdirSync(path.join(dir, rel), { recursive: true });
        dirs.push(rel);
      } else write(rel);
    }
    for (const d of dirs) {
      for (const kind of KINDS) {
        if (next() < (d === '' ? 0.6 : 0.3)) {
          const rules = Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(RULES));
          write(d ? `${d}/${kind}` : kind, rules.join('\n') + '\n');
        }
      }
    }
  }

  it.each(Array.from({ length: Number(process.env.IGNORE_TREES ?? 40) }, (_, i) => i + 1))('tree %i', async (seed) => {
    generate(seed);
    for (const filterOptions of [options(), options({ hidden: true }), options({ exclude: ['b*', 'sub/**'] })]) {
      const ours = (await walked(filterOptions)).sort();
      const theirs = ripgrepFiles(filterOptions);
      if (process.env.DIRECTION) {
        const more = ours.filter((f) => !theirs.includes(f));
        const fewer = theirs.filter((f) => !ours.includes(f));
        if (more.length || fewer.length)
          console.log(
            `seed ${seed} ${JSON.stringify(filterOptions.exclude)} hidden=${filterOptions.hidden} MORE=${JSON.stringify(more)} FEWER=${JSON.stringify(fewer)}`,
          );
      }
      expect(ours, `${JSON.stringify(filterOptions)}\n${describeTree()}`).toEqual(theirs);
    }
  });

  function describeTree(): string {
    const lines: string[] = [];
    const visit = (rel: string) => {
      for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) visit(child);
        else
          lines.push(
            entry.name.startsWith('.') && entry.name.endsWith('ignore') ? `${child}: ${JSON.stringify(fs.readFileSync(path.join(dir, child), 'utf8'))}` : child,
          );
      }
    };
    visit('');
    return lines.join('\n');
  }
});
