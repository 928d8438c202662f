/** The checks project files on disk suggest, for the owner to adopt: a root and the folders just below it. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectProjectChecks, proposeProjects } from '../../main/config/project-checks.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let root: string;
const put = (relative: string, content: string) => {
  fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  fs.writeFileSync(path.join(root, relative), content);
};
beforeEach(() => (root = makeTempDir()));
afterEach(() => removeDir(root));

describe('proposeProjects', () => {
  it('finds the root and the folders below it that have project files, skipping hidden folders and node_modules', () => {
    put('package.json', JSON.stringify({ scripts: { test: 'vitest run' } }));
    put('api/go.mod', 'module example.com/api\n\ngo 1.22\n');
    put('docs/readme.md', '# nothing to check\n');
    put('.hidden/package.json', JSON.stringify({ scripts: { test: 'evil' } }));
    put('node_modules/dep/package.json', JSON.stringify({ scripts: { test: 'dep' } }));
    put('node_modules/package.json', JSON.stringify({ scripts: { test: 'dep' } }));
    const found = proposeProjects(root);
    expect(found.map((p) => p.path)).toEqual([root, path.join(root, 'api')]);
    expect(found[0]!.checks.test).toMatchObject({ command: ['npm', 'test'] });
    expect(Object.values(found[1]!.checks).map((c) => c.command[0])).toContain('go');
  });

  it('reads nothing from a file too large or not a file, and answers nothing for a missing folder', () => {
    put('package.json', JSON.stringify({ scripts: { test: 'x' }, pad: 'x'.repeat(1024 * 1024) }));
    fs.mkdirSync(path.join(root, 'sub', 'Cargo.toml'), { recursive: true });
    expect(detectProjectChecks(root)).toEqual({});
    expect(detectProjectChecks(path.join(root, 'sub'))).toEqual({});
    expect(proposeProjects(path.join(root, 'missing'))).toEqual([]);
  });
});
