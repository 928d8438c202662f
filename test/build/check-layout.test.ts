/**
 * `node build/check-layout.mjs <root>` as `npm run lint` runs it, on small trees built in temp
 * folders: each rule failing with its message, the same trees passing once fixed, and this
 * repository passing.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const SCRIPT = path.join(REPO_ROOT, 'build', 'check-layout.mjs');
const TABLE = '# Architecture\n\n## Files over 400 lines\n\n| file | why |\n|---|---|\n';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

/** A tree with these files (and an empty size table unless one is given). */
function tree(files: Record<string, string>): string {
  const root = makeTempDir('check-layout-');
  dirs.push(root);
  for (const [file, content] of Object.entries({ 'docs/ARCHITECTURE.md': TABLE, ...files })) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
  return root;
}

function check(root?: string): { code: number | null; out: string } {
  const run = spawnSync(process.execPath, root ? [SCRIPT, root] : [SCRIPT], { encoding: 'utf8', cwd: root ?? REPO_ROOT });
  return { code: run.status, out: run.stdout + run.stderr };
}

const lines = (n: number) => 'x;\n'.repeat(n);

describe('import-cycles', () => {
  it('finds a cycle through type imports, re-exports and dynamic imports, and prints it as a chain', () => {
    const root = tree({
      'adapter/a.ts': "import type { B } from './b.js';\nexport type A = B;\n",
      'adapter/b.ts': "export async function load() {\n  return import('./a.js');\n}\nexport type B = number;\n",
      'main/x.ts': "export { y } from './sub/y.js';\n",
      'main/sub/y.ts': "import { z } from '../z.js';\nexport const y = z;\n",
      'main/z.ts': "import {\n  x,\n} from './x.js';\nexport const z = x;\n",
    });
    const { code, out } = check(root);
    expect(code).toBe(1);
    expect(out).toContain('import-cycles: adapter/a.ts -> adapter/b.ts -> adapter/a.ts');
    expect(out).toContain('import-cycles: main/sub/y.ts -> main/z.ts -> main/x.ts -> main/sub/y.ts');
    expect(out).toContain('move what they share (often types) into a file both import');
    expect(out).toContain('check-layout: 2 problem(s)');
  });

  it('passes once the shared piece has a file of its own; imports in comments, strings of other code and packages are no edges', () => {
    const root = tree({
      'adapter/shared.ts': 'export type B = number;\n',
      'adapter/a.ts': "import type { B } from './shared.js';\n// import { a } from './b.js';\nexport type A = B;\n",
      'adapter/b.ts': "/* import('./a.js') */\nimport fs from 'node:fs';\nconst re = /'/;\nexport const b = [fs, re];\n",
    });
    expect(check(root)).toEqual({ code: 0, out: expect.stringContaining('check-layout: import cycles, test mirrors and file sizes are fine') });
  });
});

describe('test-mirror', () => {
  const sources = {
    'adapter/fs/read.ts': '',
    'main/mcp/server.ts': '',
    'main/cli.ts': '',
    'renderer/src/sections/Panel.tsx': '',
    'build/bundle.mjs': '',
    'build/packager.config.mjs': '',
    'adapter/process/native/guard.c': '',
  };

  it('names a test that mirrors no source file, and what it should be', () => {
    const root = tree({ ...sources, 'test/adapter/fs/parsers.test.ts': '' });
    const { code, out } = check(root);
    expect(code).toBe(1);
    expect(out).toContain('test-mirror: test/adapter/fs/parsers.test.ts mirrors no source file (expected adapter/fs/parsers.{ts,tsx,mjs})');
    expect(out).toContain('rename or move it after the file it tests');
  });

  it('accepts every mirror: aspects, main/ without its name, renderer/src/, build/ scripts and configs, C programs; skips e2e, helpers and fixtures', () => {
    const root = tree({
      ...sources,
      'test/adapter/fs/read.test.ts': '',
      'test/adapter/fs/read.large-files.test.ts': '',
      'test/mcp/server.test.ts': '',
      'test/cli.test.ts': '',
      'test/renderer/sections/Panel.test.ts': '',
      'test/build/bundle.test.ts': '',
      'test/build/packager.test.ts': '',
      'test/adapter/process/native/guard.test.ts': '',
      'test/e2e/whole-story.test.ts': '',
      'test/helpers/odd.test.ts': '',
      'test/adapter/fixtures/sample.test.ts': '',
      'test/adapter/fs/helpers.ts': '',
    });
    expect(check(root).code).toBe(0);
  });
});

describe('file-size', () => {
  it('fails a source file over 400 lines that the table does not name, saying how to fix it', () => {
    const root = tree({ 'main/big.ts': lines(401), 'adapter/native/x.c': lines(400), 'renderer/src/app.css': lines(400), 'docs/long.md': lines(900) });
    const { code, out } = check(root);
    expect(code).toBe(1);
    expect(out).toContain('file-size: main/big.ts has 401 lines (the limit is 400)');
    expect(out).toContain('add a row | `main/big.ts` | why | to the table under "## Files over 400 lines" in docs/ARCHITECTURE.md');
    expect(out).not.toMatch(/x\.c|app\.css|long\.md/);
  });

  it('passes a long file the table names, and fails a row for a file that is no longer long or is gone', () => {
    const table = `${TABLE}| \`main/big.ts\` | one parser, whole |\n| \`main/small.ts\` | was long |\n| \`main/gone.ts\` | was here |\n\n## Next\n`;
    const root = tree({ 'docs/ARCHITECTURE.md': table, 'main/big.ts': lines(401), 'main/small.ts': lines(10) });
    const { code, out } = check(root);
    expect(code).toBe(1);
    expect(out).not.toContain('main/big.ts has');
    expect(out).toContain('file-size: docs/ARCHITECTURE.md lists main/small.ts, which is not over 400 lines');
    expect(out).toContain('file-size: docs/ARCHITECTURE.md lists main/gone.ts, which does not exist');
    expect(out).toContain('Remove its row');

    fs.writeFileSync(path.join(root, 'docs/ARCHITECTURE.md'), `${TABLE}| \`main/big.ts\` | one parser, whole |\n`);
    expect(check(root).code).toBe(0);
  });

  it('fails without the table', () => {
    const root = tree({ 'docs/ARCHITECTURE.md': '# Architecture\n' });
    expect(check(root)).toEqual({ code: 1, out: expect.stringContaining('file-size: docs/ARCHITECTURE.md has no "## Files over 400 lines" section') });
  });
});

it('this repository passes (the root defaults to it)', () => {
  expect(check()).toEqual({ code: 0, out: 'check-layout: import cycles, test mirrors and file sizes are fine\n' });
});
