import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapterError } from '../../../../adapter/contract/errors.js';
import type { GuardedPath, FindOptions } from '../../../../adapter/contract/files.js';
import { findEntries } from '../../../../adapter/fs/search/find-entries.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

let home: string;
let dir: string;
beforeAll(() => {
  home = makeTempDir();
  dir = path.join(home, 'tree');
  const write = (rel: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), 'x');
  };
  for (const f of ['src/a.test.ts', 'src/b.ts', 'src/lib/c.test.ts', 'test/d.test.ts', 'dist/e.test.ts', '.hidden/f.test.ts', 'id_rsa', 'README.md']) write(f);
  fs.writeFileSync(path.join(dir, '.gitignore'), 'dist/\n');
  fs.mkdirSync(path.join(home, 'outside'));
  fs.writeFileSync(path.join(home, 'outside', 'g.test.ts'), 'x');
  fs.symlinkSync(path.join(home, 'outside'), path.join(dir, 'link'));
});
afterAll(() => removeDir(home));

const guard: GuardedPath = {
  path: '',
  confirm: (real) => {
    if (path.basename(real).startsWith('id_')) throw adapterError('PATH_NOT_ALLOWED', 'test', 'secret');
  },
};
const find = (options: Partial<FindOptions> & { pattern: string }) =>
  findEntries({ ...guard, path: dir }, { type: 'any', maxResults: 100, gitignore: true, hidden: false, exclude: [], ...options });
const paths = async (options: Partial<FindOptions> & { pattern: string }) => (await find(options)).entries.map((e) => e.path);

describe('findEntries', () => {
  it('a glob without "/" matches names at any depth, sorted depth-first; ignored, hidden, secret and linked entries are left out', async () => {
    expect(await paths({ pattern: '*.test.ts' })).toEqual(['src/a.test.ts', 'src/lib/c.test.ts', 'test/d.test.ts']);
    expect(await paths({ pattern: 'id_*' })).toEqual([]);
    expect(await paths({ pattern: 'link' })).toEqual([]);
  });

  it('a glob with "/" matches the path; type narrows to files or directories', async () => {
    expect(await paths({ pattern: 'src/**/*.ts' })).toEqual(['src/a.test.ts', 'src/b.ts', 'src/lib/c.test.ts']);
    expect(await paths({ pattern: '*', type: 'directory' })).toEqual(['src', 'src/lib', 'test']);
    const [file] = (await find({ pattern: 'README.md' })).entries;
    expect(file).toEqual({ path: 'README.md', type: 'file', size: 1, mtime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  it('gitignore: false and hidden: true widen, exclude narrows', async () => {
    expect(await paths({ pattern: '*.test.ts', gitignore: false, hidden: true })).toEqual([
      '.hidden/f.test.ts',
      'dist/e.test.ts',
      'src/a.test.ts',
      'src/lib/c.test.ts',
      'test/d.test.ts',
    ]);
    expect(await paths({ pattern: '*.test.ts', exclude: ['src'] })).toEqual(['test/d.test.ts']);
  });

  it('maxResults bounds the answer and says it was cut only when something was left out', async () => {
    expect(await find({ pattern: '*.test.ts', maxResults: 2 })).toMatchObject({
      entries: [{ path: 'src/a.test.ts' }, { path: 'src/lib/c.test.ts' }],
      truncated: true,
    });
    expect(await find({ pattern: '*.test.ts', maxResults: 3 })).toMatchObject({ truncated: false });
  });
});
