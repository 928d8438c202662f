/**
 * fs.search, fs.find, fs.stat and fs.read line ranges end to end: two real servers on one real
 * tree, one using ripgrep and one only its built-in engine, driven by the v2 and v1 clients.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolCallEvent } from '../../main/mcp/server.js';
import { connectLegacyHttp, connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { REPO_ROOT, startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeRootAndOutside, removeDir } from '../helpers/temp.js';

const RG = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
})();
if (!RG && process.env.REQUIRE_DESKTOP_TESTS === '1') throw new Error('ripgrep is missing (apt-get install ripgrep): fs.search cannot be compared with it');
if (!RG) console.warn('\n*** search-tools.test.ts: rg is not on the PATH, so both servers use the built-in engine (apt-get install ripgrep) ***\n');

const NODE_MODULES = path.join(REPO_ROOT, 'node_modules');

let home: string;
let root: string;
let ro: string;
let outside: string;
let configFile: string;
const events: ToolCallEvent[] = [];
let withRipgrep: TestHttpServer;
let builtin: TestHttpServer;
const clients: TestClient[] = [];
let rgClient: TestClient;
let builtinClient: TestClient;
let legacyClient: TestClient;

const at = (...parts: string[]) => path.join(root, ...parts);
const sha = (data: string) => createHash('sha256').update(data).digest('hex');
const write = (rel: string, content: string | Buffer) => {
  fs.mkdirSync(path.dirname(at(rel)), { recursive: true });
  fs.writeFileSync(at(rel), content);
};

beforeAll(async () => {
  ({ home, root, outside } = makeRootAndOutside());
  ro = path.join(home, 'ro');
  fs.mkdirSync(ro);
  fs.writeFileSync(path.join(ro, 'law.txt'), 'needle in the read-only root\n');
  fs.writeFileSync(path.join(outside, 'o.txt'), 'needle outside\n');
  configFile = at('app-config.json');
  write('app-config.json', '{"needle":"config"}\n');
  write('.gitignore', 'dist/\n*.gen.ts\n!.github/\n');
  write('src/app.ts', 'import x from "y";\nconst needle = 1;\nexport default needle;\n');
  write('src/util/strings.ts', 'export const Needle = "needle";\n');
  write('src/gen/types.gen.ts', 'needle generated\n');
  write('dist/app.js', 'needle built\n');
  write('.github/ci.yml', 'needle whitelisted\n');
  write('.hidden/h.txt', 'needle hidden\n');
  write('.env', 'NEEDLE_KEY=needle-secret-value\n');
  write('server.key', 'needle key secret\n');
  write('private/p.txt', 'needle denied\n');
  write('bin/blob.bin', Buffer.concat([Buffer.from('needle binary\n'), Buffer.from([0, 0, 1])]));
  write('docs/lines.txt', 'line 1\nline 2 needle\nline 3\nline 4\n');
  write('docs/crlf.txt', 'ends needle\r\nnext\r\n');
  fs.symlinkSync(outside, at('out-link'));
  fs.symlinkSync(path.join(outside, 'o.txt'), at('out-file.txt'));
  const config = {
    filesystem: {
      write: true,
      roots: [root, { path: ro, readOnly: true }, { path: NODE_MODULES, readOnly: true }],
      deny: ['**/private/**'],
    },
  };
  withRipgrep = await startTestServer(config, { protectedFiles: [configFile], observer: (event) => void events.push(event) });
  builtin = await startTestServer(config, { protectedFiles: [configFile], useRipgrep: false, observer: (event) => void events.push(event) });
  rgClient = await connectModernHttp(withRipgrep.url);
  builtinClient = await connectModernHttp(builtin.url);
  legacyClient = await connectLegacyHttp(withRipgrep.url);
  clients.push(rgClient, builtinClient, legacyClient);
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await withRipgrep.close();
  await builtin.close();
  removeDir(home);
});

async function call(client: TestClient, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { error: result.isError ? textOf(result) : null, text: textOf(result), data: result.structuredContent as Record<string, unknown> };
}

type Match = { path: string; line: number; column: number; text: string };

/** The same search on both servers: the same answer, which engine aside, returned. */
async function searchBoth(args: Record<string, unknown>) {
  const [a, b] = await Promise.all([call(rgClient, 'fs.search', args), call(builtinClient, 'fs.search', args)]);
  expect(a.error, JSON.stringify(args)).toBeNull();
  expect(b.error).toBeNull();
  expect(b.data.engine).toBe('builtin');
  expect({ ...a.data, engine: '-' }, JSON.stringify(args)).toEqual({ ...b.data, engine: '-' });
  return { ...a, places: (a.data.matches as Match[]).map((m) => `${m.path}:${m.line}`) };
}

describe('fs.search: ripgrep and the built-in engine answer the same', () => {
  it('by default: .gitignore honoured (a whitelisted dot folder included), hidden, binary, secret, denied and linked files left out', async () => {
    const { data, places, text } = await searchBoth({ pattern: 'needle' });
    if (RG) expect(data.engine).toBe('ripgrep');
    expect(places).toEqual(['.github/ci.yml:1', 'docs/crlf.txt:1', 'docs/lines.txt:2', 'src/app.ts:2', 'src/app.ts:3', 'src/util/strings.ts:1']);
    expect(data).toMatchObject({ path: root, truncated: false, filesWithMatches: 5 });
    expect((data.matches as Match[])[3]).toEqual({ path: 'src/app.ts', line: 2, column: 7, text: 'const needle = 1;' });
    expect(text.split('\n')[0]).toBe(`6 matches in 5 files under ${root}`);
    expect(text).toContain('src/app.ts:2:7: const needle = 1;');
  });

  it.skipIf(!RG)('secret, denied, protected and binary files never appear, though ripgrep itself lists them', async () => {
    const listed = execFileSync(RG!, ['-l', '--hidden', '--no-ignore', '--no-config', '-a', 'needle', '.'], { cwd: root, encoding: 'utf8', env: {} });
    for (const file of ['.env', 'server.key', 'private/p.txt', 'app-config.json', 'bin/blob.bin']) expect(listed).toContain(file);
    const { data } = await searchBoth({ pattern: 'needle', hidden: true, gitignore: false });
    const json = JSON.stringify(data);
    for (const absent of ['.env', 'server.key', 'private/', 'app-config', 'blob.bin', 'needle-secret-value', 'out-link', 'out-file', 'outside'])
      expect(json).not.toContain(absent);
    expect((data.matches as Match[]).map((m) => m.path)).toEqual(expect.arrayContaining(['.hidden/h.txt', 'dist/app.js', 'src/gen/types.gen.ts']));
  });

  it('include and exclude globs, case, regex (a CRLF $ too), context lines', async () => {
    expect((await searchBoth({ pattern: 'needle', include: ['*.ts'] })).places).toEqual(['src/app.ts:2', 'src/app.ts:3', 'src/util/strings.ts:1']);
    expect((await searchBoth({ pattern: 'needle', exclude: ['src', 'docs/*.txt'] })).places).toEqual(['.github/ci.yml:1']);
    expect((await searchBoth({ pattern: 'NEEDLE =', caseSensitive: false, include: ['src/**'] })).places).toEqual(['src/app.ts:2', 'src/util/strings.ts:1']);
    expect((await searchBoth({ pattern: 'NEEDLE =', include: ['src/**'] })).places).toEqual([]);
    expect((await searchBoth({ pattern: 'needle$', regex: true })).places).toEqual(['docs/crlf.txt:1', 'docs/lines.txt:2']);
    expect((await searchBoth({ pattern: '\\bNeedle\\b', regex: true })).places).toEqual(['src/util/strings.ts:1']);
    const context = await searchBoth({ pattern: 'line 2', contextLines: 1 });
    expect(context.data.matches).toEqual([{ path: 'docs/lines.txt', line: 2, column: 1, text: 'line 2 needle', before: ['line 1'], after: ['line 3'] }]);
  });

  it('a look-behind (which ripgrep rejects) still works, through the built-in engine', async () => {
    const { data, places } = await searchBoth({ pattern: '(?<=const )needle', regex: true });
    expect(places).toEqual(['src/app.ts:2']);
    expect(data.engine).toBe('builtin');
  });

  it('maxMatches and maxBytes truncate in path order; a search under a subfolder and in a read-only root', async () => {
    const cut = await searchBoth({ pattern: 'needle', maxMatches: 2 });
    expect(cut.places).toEqual(['.github/ci.yml:1', 'docs/crlf.txt:1']);
    expect(cut.data.truncated).toBe(true);
    expect(cut.text).toContain('(more not shown: narrow the search or raise maxMatches)');
    expect((await searchBoth({ pattern: 'needle', maxMatches: 6 })).data.truncated).toBe(false);
    const bytes = await searchBoth({ pattern: 'needle', maxBytes: 30 });
    expect(bytes.data).toMatchObject({ truncated: true });
    expect((await searchBoth({ path: 'src/util', pattern: 'needle' })).data).toMatchObject({
      path: at('src/util'),
      matches: [{ path: 'strings.ts', line: 1 }],
    });
    expect((await searchBoth({ path: ro, pattern: 'needle' })).places).toEqual(['law.txt:1']);
  });

  it('refuses bad input and unusable places clearly', async () => {
    for (const client of [rgClient, builtinClient]) {
      expect((await call(client, 'fs.search', { pattern: '(unclosed', regex: true })).error).toMatch(
        /^INVALID_INPUT: pattern is not a valid regular expression/,
      );
      expect((await call(client, 'fs.search', { path: 'src/app.ts', pattern: 'x' })).error).toBe(
        `INVALID_INPUT: ${at('src/app.ts')} is not a directory; fs.search looks under a directory (read a file with fs.read)`,
      );
      expect((await call(client, 'fs.find', { path: 'src/app.ts', pattern: 'x' })).error).toMatch(/^INVALID_INPUT: .*is not a directory; fs\.find looks under/);
      expect((await call(client, 'fs.search', { path: 'missing', pattern: 'x' })).error).toMatch(/^NOT_FOUND: /);
    }
  });

  it('the legacy client gets the same answer', async () => {
    const modern = await call(rgClient, 'fs.search', { pattern: 'needle', contextLines: 1 });
    const legacy = await call(legacyClient, 'fs.search', { pattern: 'needle', contextLines: 1 });
    expect(legacy.data).toEqual(modern.data);
    expect(legacy.text).toBe(modern.text);
  });
});

describe('cancelling a search', () => {
  it.each([
    ['the built-in engine', () => builtinClient, { pattern: 'zz-not-there-zz' }],
    ['ripgrep', () => rgClient, { pattern: '\\bzz-not-there-zz', regex: true, gitignore: false }],
  ])(
    'stops %s soon, and the server goes on answering',
    async (_name, client, args) => {
      const controller = new AbortController();
      const started = performance.now();
      const pending = client().callTool({ name: 'fs.search', arguments: { path: NODE_MODULES, maxBytes: 1024, ...args } }, { signal: controller.signal });
      const first = events.length;
      setTimeout(() => controller.abort(), 300);
      await expect(pending).rejects.toThrow();
      // The server's own record of the call: it ended as cancelled, well before a full walk of node_modules.
      const ended = await waitFor(() => events.slice(first).find((e) => e.phase === 'end' && e.tool === 'fs.search'));
      expect(ended).toMatchObject({ outcome: 'PRECONDITION_FAILED' });
      expect(performance.now() - started).toBeLessThan(5000);
      expect((await call(client(), 'fs.search', { pattern: 'needle', include: ['src/app.ts'] })).data).toMatchObject({ filesWithMatches: 1 });
      if (RG) expect(ripgrepRunningIn(NODE_MODULES)).toEqual([]);
    },
    20_000,
  );
});

async function waitFor<T>(probe: () => T | undefined, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** ripgrep processes whose working directory is `dir` (none may outlive a cancelled search). */
function ripgrepRunningIn(dir: string): number[] {
  const found: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (fs.readlinkSync(`/proc/${pid}/cwd`) === dir && fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'rg') found.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe('fs.find', () => {
  it.each([
    ['modern', () => rgClient],
    ['legacy', () => legacyClient],
  ])('finds by glob, sorted and filtered like fs.search (%s client)', async (_kind, client) => {
    const { data, text } = await call(client(), 'fs.find', { pattern: '*.ts' });
    expect((data.entries as Array<{ path: string }>).map((e) => e.path)).toEqual(['src/app.ts', 'src/util/strings.ts']);
    expect(data.entries).toContainEqual({ path: 'src/app.ts', type: 'file', size: fs.statSync(at('src/app.ts')).size, mtime: expect.any(String) });
    expect(text).toBe(`2 entries matching *.ts under ${root}\nsrc/app.ts\nsrc/util/strings.ts`);
    const dirs = await call(client(), 'fs.find', { pattern: '*', type: 'directory' });
    expect((dirs.data.entries as Array<{ path: string }>).map((e) => e.path)).toEqual(['.github', 'bin', 'docs', 'src', 'src/gen', 'src/util']);
    const everything = await call(client(), 'fs.find', { pattern: '*', hidden: true, gitignore: false, maxResults: 10_000 });
    const json = JSON.stringify(everything.data);
    for (const absent of ['.env', 'server.key', 'private', 'app-config', 'out-link', 'out-file']) expect(json).not.toContain(absent);
    expect(await call(client(), 'fs.find', { pattern: '*.ts', maxResults: 1 })).toMatchObject({ data: { truncated: true, entries: [{ path: 'src/app.ts' }] } });
    expect((await call(client(), 'fs.find', { path: 'src', pattern: 'util/*.ts' })).data.entries).toEqual([
      expect.objectContaining({ path: 'util/strings.ts' }),
    ]);
  });
});

describe('fs.stat', () => {
  it.each([
    ['modern', () => rgClient],
    ['legacy', () => legacyClient],
  ])('reports one entry, the sha256 only on request, a symlink as a symlink (%s client)', async (_kind, client) => {
    fs.chmodSync(at('src/app.ts'), 0o640);
    const content = fs.readFileSync(at('src/app.ts'), 'utf8');
    const plain = await call(client(), 'fs.stat', { path: 'src/app.ts' });
    expect(plain.data).toEqual({
      path: at('src/app.ts'),
      type: 'file',
      size: content.length,
      mode: '0640',
      mtime: fs.statSync(at('src/app.ts')).mtime.toISOString(),
      links: 1,
    });
    expect((await call(client(), 'fs.stat', { path: 'src/app.ts', sha256: true })).data).toMatchObject({ sha256: sha(content) });
    const link = await call(client(), 'fs.stat', { path: 'out-file.txt', sha256: true });
    expect(link.data).toMatchObject({ path: at('out-file.txt'), type: 'symlink' });
    expect(link.data).not.toHaveProperty('sha256');
    expect((await call(client(), 'fs.stat', { path: 'src' })).data).toMatchObject({ type: 'directory' });
    expect((await call(client(), 'fs.stat', { path: 'nope' })).error).toMatch(/^NOT_FOUND: /);
  });
});

describe('fs.read with a line range', () => {
  it.each([
    ['modern', () => rgClient],
    ['legacy', () => legacyClient],
  ])('pages through a file with totalLines (%s client)', async (_kind, client) => {
    const whole = 'line 1\nline 2 needle\nline 3\nline 4\n';
    const first = await call(client(), 'fs.read', { path: 'docs/lines.txt', startLine: 1, endLine: 1 });
    expect(first.data).toEqual({
      path: at('docs/lines.txt'),
      content: 'line 1\n',
      bytes: 7,
      totalBytes: whole.length,
      truncated: false,
      sha256: sha(whole),
      totalLines: 4,
      startLine: 1,
      endLine: 1,
    });
    expect(first.text).toBe('line 1\n\n\n[lines 1-1 of 4 lines]');
    expect((await call(client(), 'fs.read', { path: 'docs/lines.txt', startLine: 2, endLine: 3 })).data).toMatchObject({
      content: 'line 2 needle\nline 3\n',
      endLine: 3,
    });
    expect((await call(client(), 'fs.read', { path: 'docs/lines.txt', startLine: 4 })).data).toMatchObject({ content: 'line 4\n', startLine: 4, endLine: 4 });
    expect((await call(client(), 'fs.read', { path: 'docs/lines.txt', startLine: 3, endLine: 99 })).data).toMatchObject({
      content: 'line 3\nline 4\n',
      endLine: 4,
    });
    expect((await call(client(), 'fs.read', { path: 'docs/lines.txt', startLine: 9 })).error).toBe(
      `INVALID_INPUT: ${at('docs/lines.txt')} has 4 lines; startLine 9 is past the end`,
    );
    expect((await call(client(), 'fs.read', { path: 'docs/lines.txt', startLine: 3, endLine: 2 })).error).toBe(
      'INVALID_INPUT: endLine (2) is before startLine (3)',
    );
    const cut = await call(client(), 'fs.read', { path: 'docs/lines.txt', startLine: 2, maxBytes: 10 });
    expect(cut.data).toMatchObject({ content: 'line 2 nee', truncated: true, endLine: 1, totalLines: 4 });
    expect(cut.text).toContain('; cut at maxBytes]');
    expect((await call(client(), 'fs.read', { path: 'docs/lines.txt' })).data).toMatchObject({ content: whole, totalLines: 4, sha256: sha(whole) });
  });
});

describe('refusals of the read tools', () => {
  const targets: Array<[string, string, RegExp]> = [
    ['outside the roots', '__OUTSIDE__', /outside the allowed roots/],
    ['a relative path climbing out', '../outside', /outside the allowed roots/],
    ['a symlinked folder leading outside', 'out-link', /symlink/],
    ['a secret', '.env', /secret pattern/],
    ['a denied folder', 'private', /deny pattern/],
    ["the server's config file", 'app-config.json', /configuration or token file/],
  ];
  const place = (p: string) => p.replace('__OUTSIDE__', outside);

  it.each(targets)('fs.search, fs.find, fs.stat and fs.read refuse %s', async (_what, target, reason) => {
    for (const client of [rgClient, builtinClient, legacyClient]) {
      for (const [name, args] of [
        ['fs.search', { path: place(target), pattern: 'needle' }],
        ['fs.find', { path: place(target), pattern: '*' }],
        // fs.stat describes a link itself (see below); what is behind it is refused.
        ['fs.stat', { path: target === 'out-link' ? 'out-link/o.txt' : place(target), sha256: true }],
        ['fs.read', { path: place(target), startLine: 1 }],
      ] as const) {
        const { error } = await call(client, name, args);
        // Searching or finding in a file is refused as a file, reading a folder as a folder: only policy denials count here.
        if (error?.startsWith('INVALID_INPUT')) continue;
        expect(error, `${name} ${target}`).toMatch(/^PATH_NOT_ALLOWED: /);
        expect(error).toMatch(reason);
        expect(error).not.toContain('needle-secret-value');
      }
    }
  });

  it('fs.stat of a symlink pointing outside reports the link itself, never its target', async () => {
    const { data } = await call(rgClient, 'fs.stat', { path: 'out-link' });
    expect(data).toMatchObject({ type: 'symlink', path: at('out-link') });
    expect((await call(rgClient, 'fs.stat', { path: 'out-link/o.txt' })).error).toMatch(/^PATH_NOT_ALLOWED: .*symlink/);
  });
});
