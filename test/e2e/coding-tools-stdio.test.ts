/**
 * The coding tools through the built CLI over stdio (as desktop hosts run it), from a config
 * file: edit, patch, search (ripgrep when installed), find, stat, line ranges, search/fetch.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLegacyStdio, connectModernStdio, textOf, type TestClient } from '../helpers/clients.js';
import { childEnv } from '../helpers/servers.js';
import { makeRootAndOutside, removeDir, writeJson } from '../helpers/temp.js';

let home: string;
let root: string;
let outside: string;
let configFile: string;
const sha = (data: string) => createHash('sha256').update(data).digest('hex');

beforeAll(() => {
  ({ home, root, outside } = makeRootAndOutside());
  configFile = writeJson(path.join(home, 'config.json'), {
    filesystem: { write: true, roots: [root] },
    chatgpt: { searchFetch: true },
  });
});
afterAll(() => removeDir(home));

describe.each([
  ['modern', connectModernStdio],
  ['legacy', connectLegacyStdio],
] as const)('the CLI over stdio, %s client', (kind, connect) => {
  let client: TestClient;
  const dir = () => path.join(root, kind);
  beforeAll(async () => {
    fs.mkdirSync(path.join(root, kind, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, kind, 'src', 'main.ts'), 'export function main() {\n  return 1;\n}\n');
    fs.writeFileSync(path.join(root, kind, '.env'), 'TOKEN=stdio-secret-value\n');
    fs.writeFileSync(path.join(outside, 'o.ts'), 'export function main() {}\n');
    client = await connect(['--config', configFile], childEnv(home) as Record<string, string>);
  });
  afterAll(() => client.close());

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
    return result.structuredContent as Record<string, unknown>;
  };

  it('lists every coding tool', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['fs.edit', 'fs.patch', 'fs.search', 'fs.find', 'fs.stat', 'fs.read', 'search', 'fetch']));
  });

  it('edits, patches, and finds the result with search, find, stat and a line range', async () => {
    const main = path.join(dir(), 'src', 'main.ts');
    expect(await call('fs.edit', { path: main, edits: [{ oldText: 'return 1;', newText: 'return 2;' }] })).toMatchObject({ replacements: 1 });
    const patched = await call('fs.patch', {
      patch: [
        '*** Begin Patch',
        `*** Update File: ${kind}/src/main.ts`,
        '@@ export function main() {',
        '-  return 2;',
        '+  return helper();',
        `*** Add File: ${kind}/src/helper.ts`,
        '+export function helper() {',
        '+  return 3;',
        '+}',
        '*** End Patch',
      ].join('\n'),
    });
    expect((patched.files as Array<{ action: string }>).map((f) => f.action)).toEqual(['updated', 'added']);
    const found = await call('fs.search', { path: dir(), pattern: 'function \\w+\\(', regex: true, hidden: true });
    expect(found.matches).toEqual([
      { path: 'src/helper.ts', line: 1, column: 8, text: 'export function helper() {' },
      { path: 'src/main.ts', line: 1, column: 8, text: 'export function main() {' },
    ]);
    expect(JSON.stringify(found)).not.toContain('stdio-secret-value');
    expect(((await call('fs.find', { path: dir(), pattern: '*.ts' })).entries as Array<{ path: string }>).map((e) => e.path)).toEqual([
      'src/helper.ts',
      'src/main.ts',
    ]);
    const content = fs.readFileSync(main, 'utf8');
    expect(await call('fs.stat', { path: main, sha256: true })).toMatchObject({ type: 'file', size: content.length, sha256: sha(content) });
    expect(await call('fs.read', { path: main, startLine: 2, endLine: 2 })).toMatchObject({ content: '  return helper();\n', totalLines: 3 });
  });

  it('search and fetch answer with their exact shapes', async () => {
    const { results } = (await call('search', { query: 'helper' })) as { results: Array<{ id: string; title: string; url: string }> };
    const helper = path.join(dir(), 'src', 'helper.ts');
    expect(results).toContainEqual({ id: helper, title: `${kind}/src/helper.ts`, url: `file://${helper}` });
    expect(await call('fetch', { id: helper })).toMatchObject({
      id: helper,
      text: 'export function helper() {\n  return 3;\n}\n',
      metadata: { truncated: false },
    });
    const refused = await client.callTool({ name: 'fetch', arguments: { id: path.join(outside, 'o.ts') } });
    expect(textOf(refused)).toMatch(/^PATH_NOT_ALLOWED: /);
  });
});
