import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapterError } from '../../../../adapter/contract/errors.js';
import type { GuardedPath, SearchOptions, SearchResult } from '../../../../adapter/contract/files.js';
import { POOL_CALLS, type WithEntryCalls } from '../../../../adapter/fs/search/entry-calls.js';
import { findEntries } from '../../../../adapter/fs/search/find-entries.js';
import { MAX_WALK_DEPTH } from '../../../../adapter/fs/search/walk.js';
import { searchFiles } from '../../../../adapter/fs/search/search-files.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

/** ripgrep from the machine (Debian package `ripgrep`; CI installs it). */
const RG = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
})();
if (!RG && process.env.REQUIRE_DESKTOP_TESTS === '1') throw new Error('ripgrep is missing (apt-get install ripgrep): the engine comparison cannot run');
if (!RG) console.warn('\n*** SKIPPING the ripgrep half of search-files.test.ts: rg is not on the PATH (apt-get install ripgrep) ***\n');

let home: string;
let dir: string;
const write = (rel: string, content: string | Buffer) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), content);
};

beforeAll(() => {
  home = makeTempDir();
  dir = path.join(home, 'tree');
  fs.mkdirSync(dir);
  fs.mkdirSync(path.join(home, 'outside'));
  fs.writeFileSync(path.join(home, 'outside', 'o.txt'), 'needle outside\n');
  write('.gitignore', 'build/\n*.gen.ts\n!keep.gen.ts\n!.eslintrc.js\n');
  write('.ignore', '*.log\n');
  write('a.ts', 'const needle = 1;\nother\nneedle again\n');
  write('B.txt', 'Needle upper\n');
  write('a/inner.txt', 'needle in a/\n');
  write('x.gen.ts', 'needle generated\n');
  write('keep.gen.ts', 'needle kept\n');
  write('build/out.ts', 'needle built\n');
  write('.eslintrc.js', 'needle whitelisted hidden\n');
  write('.hidden.txt', 'needle hidden\n');
  write('.config/settings.txt', 'needle hidden dir\n');
  write('.git/HEAD', 'needle in .git\n');
  write('pkg/.gitignore', '*.txt\n!important.txt\n');
  write('pkg/notes.txt', 'needle notes\n');
  write('pkg/important.txt', 'needle important\n');
  write('logs/.gitignore', '!keep.log\n');
  write('logs/keep.log', 'needle log\n'); // .ignore beats .gitignore, at any depth (ripgrep's precedence)
  write('docs/.ignore', '*.md\n');
  write('docs/.rgignore', '!draft.md\n'); // .rgignore beats .ignore
  write('docs/draft.md', 'needle draft\n');
  write('docs/other.md', 'needle other\n');
  write('bin.dat', Buffer.concat([Buffer.from('needle binary\n'), Buffer.from([0, 1, 2, 3])]));
  write('big.txt', `needle big\n${'x'.repeat(5000)}\n`);
  write('crlf.txt', 'ends with needle\r\nnext\r\n');
  write('unicode.txt', 'éneedle after a letter\n');
  write('server.key', 'needle secret\n');
  write('src/deep/er/file.ts', 'before\nneedle deep\nafter\n');
  write('src/.hidden/x.ts', 'needle hidden src\n');
  fs.symlinkSync(path.join(home, 'outside'), path.join(dir, 'out-link'));
  fs.symlinkSync(path.join(dir, 'a.ts'), path.join(dir, 'file-link.ts'));
});
afterAll(() => removeDir(home));

/** The policy's re-check, as fs.search gets it: secrets refused (here: *.key). */
const guard = (): GuardedPath => ({
  path: dir,
  confirm: (real) => {
    if (!real.startsWith(dir)) throw adapterError('PATH_NOT_ALLOWED', 'test', `outside: ${real}`);
    if (real.endsWith('.key')) throw adapterError('PATH_NOT_ALLOWED', 'test', `secret: ${real}`);
  },
});

const defaults: Omit<SearchOptions, 'pattern' | 'ripgrep'> = {
  regex: false,
  caseSensitive: true,
  include: [],
  exclude: [],
  contextLines: 0,
  maxMatches: 100,
  maxBytes: 64 * 1024,
  maxFileBytes: 4096,
  gitignore: true,
  hidden: false,
};

type Options = Partial<SearchOptions & WithEntryCalls> & { pattern: string };
const search = (ripgrep: string | null, options: Options) => searchFiles(guard(), { ...defaults, ripgrep, ...options });
const places = (result: SearchResult) => result.matches.map((m) => `${m.path}:${m.line}`);

/**
 * Both engines on the same tree: the same answer (the engine name aside), which is returned.
 * The built-in one also walks through the thread pool (as on a network mount): the same again.
 */
async function both(options: Options): Promise<SearchResult> {
  const builtin = await search(null, options);
  expect(builtin.engine).toBe('builtin');
  expect(await search(null, { ...options, entryCalls: POOL_CALLS }), JSON.stringify(options)).toEqual(builtin);
  if (RG) {
    const rg = await search(RG, options);
    expect({ ...rg, engine: 'same' }, JSON.stringify(options)).toEqual({ ...builtin, engine: 'same' });
  }
  return builtin;
}

describe('searchFiles: the built-in walk and ripgrep give the same answer', () => {
  it('literal search: ignore files (nested, negations, .ignore over .gitignore, .rgignore over .ignore), hidden, binary, large, secrets and links left out', async () => {
    const result = await both({ pattern: 'needle' });
    expect(places(result)).toEqual([
      '.eslintrc.js:1', // hidden, but whitelisted by .gitignore (as ripgrep does)
      'a/inner.txt:1',
      'a.ts:1',
      'a.ts:3',
      'crlf.txt:1',
      'docs/draft.md:1',
      'keep.gen.ts:1',
      'pkg/important.txt:1',
      'src/deep/er/file.ts:2',
      'unicode.txt:1',
    ]);
    expect(result).toMatchObject({ truncated: false, filesWithMatches: 9 });
    expect(result.matches[2]).toEqual({ path: 'a.ts', line: 1, column: 7, text: 'const needle = 1;' });
  });

  it('hidden: true adds dot files and folders, never .git', async () => {
    const result = await both({ pattern: 'needle', hidden: true });
    expect(places(result)).toEqual(expect.arrayContaining(['.config/settings.txt:1', '.hidden.txt:1', 'src/.hidden/x.ts:1']));
    expect(places(result).some((p) => p.startsWith('.git/'))).toBe(false);
  });

  it('gitignore: false searches ignored files too; secrets, binaries, large files and links still never appear', async () => {
    const result = await both({ pattern: 'needle', gitignore: false });
    expect(places(result)).toEqual(
      expect.arrayContaining(['build/out.ts:1', 'docs/other.md:1', 'logs/keep.log:1', 'pkg/notes.txt:1', 'x.gen.ts:1', 'keep.gen.ts:1']),
    );
    const text = JSON.stringify(result);
    for (const absent of ['server.key', 'bin.dat', 'big.txt', 'out-link', 'file-link', 'outside', 'needle secret']) expect(text).not.toContain(absent);
  });

  it('include globs narrow to matching files and never bring back ignored or hidden ones', async () => {
    expect(places(await both({ pattern: 'needle', include: ['*.ts'] }))).toEqual(['a.ts:1', 'a.ts:3', 'keep.gen.ts:1', 'src/deep/er/file.ts:2']);
    expect(places(await both({ pattern: 'needle', include: ['src/**'] }))).toEqual(['src/deep/er/file.ts:2']);
    expect(places(await both({ pattern: 'needle', include: ['*.md', '*.txt'], hidden: true }))).toEqual(
      expect.arrayContaining(['.hidden.txt:1', 'docs/draft.md:1', 'pkg/important.txt:1']),
    );
  });

  it('exclude globs drop files and whole folders', async () => {
    const result = await both({ pattern: 'needle', exclude: ['a', '*.txt', 'src/deep/**'] });
    expect(places(result)).toEqual(['.eslintrc.js:1', 'a.ts:1', 'a.ts:3', 'docs/draft.md:1', 'keep.gen.ts:1']);
  });

  it('case-insensitive search', async () => {
    expect(places(await both({ pattern: 'NEEDLE UPPER', caseSensitive: false }))).toEqual(['B.txt:1']);
    expect(places(await both({ pattern: 'NEEDLE UPPER' }))).toEqual([]);
  });

  it('regular expressions, with $ at the end of a CRLF line and \\b next to a non-ASCII letter', async () => {
    expect(places(await both({ pattern: 'ne+dle (again|deep)', regex: true }))).toEqual(['a.ts:3', 'src/deep/er/file.ts:2']);
    expect(places(await both({ pattern: 'needle$', regex: true }))).toEqual(['crlf.txt:1']);
    expect(places(await both({ pattern: '\\bneedle after', regex: true }))).toEqual(['unicode.txt:1']);
    expect(places(await both({ pattern: '^\\s*needle\\s(again|deep)', regex: true }))).toEqual(['a.ts:3', 'src/deep/er/file.ts:2']);
  });

  it('a regular expression ripgrep rejects (look-behind) is searched by the built-in engine', async () => {
    const result = await both({ pattern: '(?<=const )needle', regex: true });
    expect(places(result)).toEqual(['a.ts:1']);
    if (RG) expect((await search(RG, { pattern: '(?<=const )needle', regex: true })).engine).toBe('builtin');
    if (RG) expect((await search(RG, { pattern: 'needle' })).engine).toBe('ripgrep');
  });

  it('context lines before and after each match', async () => {
    const result = await both({ pattern: 'needle deep', contextLines: 2 });
    expect(result.matches).toEqual([{ path: 'src/deep/er/file.ts', line: 2, column: 1, text: 'needle deep', before: ['before'], after: ['after'] }]);
  });

  it('maxMatches and maxBytes cut the answer in order, and say so; truncated is false when nothing was left out', async () => {
    const two = await both({ pattern: 'needle', maxMatches: 2 });
    expect(places(two)).toEqual(['.eslintrc.js:1', 'a/inner.txt:1']);
    expect(two.truncated).toBe(true);
    const all = await both({ pattern: 'needle', maxMatches: 10 });
    expect(all.matches).toHaveLength(10);
    expect(all.truncated).toBe(false);
    const nine = await both({ pattern: 'needle', maxMatches: 9 });
    expect(nine.truncated).toBe(true);
    const small = await both({ pattern: 'needle', maxBytes: 40 });
    expect(small.truncated).toBe(true);
    expect(small.matches.reduce((n, m) => n + Buffer.byteLength(m.text), 0)).toBeLessThanOrEqual(40);
    expect(places(small)).toEqual(['.eslintrc.js:1', 'a/inner.txt:1']);
  });

  it('maxMatchesPerFile keeps one file from using up the bound, and is not truncation', async () => {
    const all = await both({ pattern: 'needle' });
    const one = await both({ pattern: 'needle', maxMatchesPerFile: 1 });
    const files = [...new Set(all.matches.map((m) => m.path))];
    expect(one.matches.map((m) => m.path)).toEqual(files);
    expect(places(one)).toContain('a.ts:1');
    expect(places(one)).not.toContain('a.ts:3');
    expect(one.truncated).toBe(false);
    expect((await both({ pattern: 'needle', maxMatchesPerFile: 1, maxMatches: 2 })).truncated).toBe(true);
  });

  it('skips files larger than maxFileBytes, and includes one exactly at the limit', async () => {
    const size = fs.statSync(path.join(dir, 'big.txt')).size;
    expect(places(await both({ pattern: 'needle big', maxFileBytes: size }))).toEqual(['big.txt:1']);
    expect(places(await both({ pattern: 'needle big', maxFileBytes: size - 1 }))).toEqual([]);
  });

  it('reads a file past 1 MiB through the thread pool and finds its last line, as it does a small one', async () => {
    write('huge/huge.txt', `${'filler line\n'.repeat(100_000)}needle at the end\n`);
    try {
      const result = await both({ pattern: 'needle at the end', include: ['huge/**'], maxFileBytes: 2 * 1024 * 1024 });
      expect(places(result)).toEqual(['huge/huge.txt:100001']);
    } finally {
      fs.rmSync(path.join(dir, 'huge'), { recursive: true, force: true });
    }
  });

  it('a regular expression that backtracks for ages is stopped with TIMEOUT instead of freezing the server', async () => {
    write('slow/redos.txt', `${'a'.repeat(40)}\nab\n`); // ripgrep finds "ab"; JavaScript backtracks on the first line
    try {
      for (const engine of RG ? [RG, null] : [null]) {
        const started = performance.now();
        const error = await search(engine, { pattern: '(a|a)*b', regex: true, include: ['slow/**'] }).catch((e: Error) => e);
        expect(error).toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining('slow/redos.txt') });
        // Unbounded, this takes hours (2^40 steps); the limit is 2 s per file.
        expect(performance.now() - started).toBeLessThan(6000);
      }
    } finally {
      fs.rmSync(path.join(dir, 'slow'), { recursive: true });
    }
  }, 20_000);

  it('an invalid regular expression is INVALID_INPUT', async () => {
    await expect(search(null, { pattern: '(unclosed', regex: true })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('stops when the request is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(search(null, { pattern: 'needle', signal: controller.signal })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
    if (RG) await expect(search(RG, { pattern: 'needle', signal: controller.signal })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
  });

  it('refuses a directory whose real place the policy refuses', async () => {
    const refusing: GuardedPath = {
      path: dir,
      confirm: () => {
        throw adapterError('PATH_NOT_ALLOWED', 'test', 'refused');
      },
    };
    await expect(searchFiles(refusing, { ...defaults, ripgrep: RG, pattern: 'needle' })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
  });
});

describe('large trees', () => {
  it('does not hold the event loop: a timer keeps running while the built-in scanner reads thousands of files', async () => {
    const big = makeTempDir();
    try {
      // One folder, so the walk has no per-folder thread-pool hop to yield at: only its own turns.
      for (let i = 0; i < 10_000; i++) fs.writeFileSync(path.join(big, `f${i}.txt`), `line ${i}\nneedle ${i}\n`);
      let last = performance.now();
      let longest = 0;
      const ticker = setInterval(() => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
      }, 1);
      const started = performance.now();
      const result = await searchFiles({ path: big, confirm: () => {} }, { ...defaults, ripgrep: null, pattern: 'needle 9999', maxFileBytes: 4096 });
      const took = performance.now() - started;
      clearInterval(ticker);
      expect(result.matches.map((m) => m.path)).toEqual(['f9999.txt']);
      // Without turns the whole walk is one gap; with them, none comes near half of it.
      expect(longest).toBeLessThan(took / 2);
    } finally {
      removeDir(big);
    }
  });

  it('goes no deeper than MAX_WALK_DEPTH, says the answer is incomplete, and leaves no folder open', async () => {
    const deep = makeTempDir();
    try {
      let at = deep;
      for (let level = 1; level <= MAX_WALK_DEPTH + 20; level++) {
        at = path.join(at, 'd');
        fs.mkdirSync(at);
        fs.writeFileSync(path.join(at, 'f.txt'), `needle ${level}\n`);
      }
      const open = () => fs.readdirSync('/proc/self/fd').length;
      const before = open();
      for (const entryCalls of [undefined, POOL_CALLS]) {
        const options = { ...defaults, ripgrep: null, pattern: 'needle', maxMatches: 1000, maxBytes: 1 << 20, ...(entryCalls ? { entryCalls } : {}) };
        const result = await searchFiles({ path: deep, confirm: () => {} }, options);
        // Folders 1..MAX_WALK_DEPTH are walked, so their files are found; none below.
        expect(result.matches.length).toBe(MAX_WALK_DEPTH);
        expect(result.truncated).toBe(true);
      }
      const found = await findEntries(
        { path: deep, confirm: () => {} },
        { pattern: 'f.txt', type: 'file', maxResults: 1000, hidden: false, gitignore: true, exclude: [] },
      );
      expect(found).toMatchObject({ truncated: true });
      expect(found.entries.length).toBe(MAX_WALK_DEPTH);
      if (process.platform === 'linux') expect(open()).toBe(before);
    } finally {
      removeDir(deep);
    }
  });
});
