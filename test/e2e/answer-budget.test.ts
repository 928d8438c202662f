/**
 * The answer budget through real clients (v1 and v2, HTTP and stdio): oversized answers (a
 * 10,000-line command output, a 50 MB log, a folder of 100,000 entries, a page of 5,000
 * accessibility nodes) stay within the budget in what each kind of host reads, following the
 * continuation instructions gets every byte back, a caller's budget is honoured and one above the
 * cap refused, binary output stays a size and a preview, and ChatGPT sees the payload once.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectLegacyHttp, connectLegacyStdio, connectModernHttp, connectModernStdio, textOf, type CallResult, type TestClient } from '../helpers/clients.js';
import { adapterWith } from '../helpers/adapter.js';
import { CLI, childEnv, startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';
import type { UiElement, UiSnapshot } from '../../adapter/contract/ui.js';

const BUDGET = 8000;
const SEQ = Array.from({ length: 10_000 }, (_, i) => `${i + 1}\n`).join('');
const LOG_LINE = (i: number) => `2026-01-01T00:00:00Z worker-${i % 7} handled request ${i} in ${i % 97} ms\n`;

let home: string;
let root: string;
let configFile: string;
let server: TestHttpServer;
let logHead: string;

beforeAll(async () => {
  home = makeTempDir();
  root = path.join(home, 'root');
  fs.mkdirSync(path.join(root, 'many'), { recursive: true });
  // A 50 MB log, written in blocks.
  const out = fs.openSync(path.join(root, 'big.log'), 'w');
  let written = 0;
  for (let block = 0; written < 50 * 1024 * 1024; block++) {
    const text = Array.from({ length: 1000 }, (_, i) => LOG_LINE(block * 1000 + i)).join('');
    if (block === 0) logHead = text;
    written += fs.writeSync(out, text);
  }
  fs.closeSync(out);
  for (let i = 0; i < 100_000; i++) fs.writeFileSync(path.join(root, 'many', `entry-${String(i).padStart(6, '0')}.txt`), '');
  const config = {
    filesystem: { read: true, roots: [root] },
    shell: { enabled: true, allowedCommands: ['seq', 'head'], sandbox: 'off' as const },
    desktop: { hostDisplayAccess: true, screen: true },
    process: { list: true },
  };
  configFile = writeJson(path.join(home, 'config.json'), { ...config, server: { toolNames: 'dotted' } });
  server = await startTestServer(config, { adapter: adapterWith({ desktop: standInDesktop() }) });
}, 180_000);

afterAll(async () => {
  await server.close();
  removeDir(home);
});

/** The accessibility tree of a big page (5,000 nodes), for the one family that needs a display; the rest is real. */
function standInDesktop() {
  const node = (i: number, children?: UiElement[]): UiElement => ({
    id: `e${i}`,
    role: i % 3 ? 'link' : 'paragraph',
    name: `Item ${i} of the long list of links on this page`,
    states: ['enabled', 'focusable'],
    bounds: { x: 10, y: 10 + i * 20, width: 400, height: 18 },
    ...(children ? { children } : {}),
  });
  const sections = Array.from({ length: 50 }, (_, s) =>
    node(
      100_000 + s,
      Array.from({ length: 99 }, (_, i) => node(s * 100 + i)),
    ),
  );
  const snapshot: UiSnapshot = {
    snapshotHandle: 'snap_0123456789abcdefghijklmn',
    scope: 'window',
    windows: [{ app: 'browser', name: 'A big page', bounds: { x: 0, y: 0, width: 1280, height: 800 }, chosenBy: 'active' }],
    elements: [node(200_000, sections)],
    nodeCount: 5001,
    truncated: { byDepth: 0, byCount: 0 },
    filteredOut: 0,
  };
  return { uiSnapshot: async () => snapshot } as never;
}

const tokens = (text: string) => countTokens(text, { disallowedSpecial: new Set() });
const structuredTokens = (result: CallResult) => (result.structuredContent ? tokens(JSON.stringify(result.structuredContent)) : 0);
const idIn = (text: string) => /"id":"(ans_[\w-]{24})"/.exec(text)?.[1];

/** Within the budget for a host that reads the text, and for one that reads structuredContent. */
function expectWithin(result: CallResult, budget = BUDGET): void {
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(tokens(textOf(result))).toBeLessThanOrEqual(budget);
  expect(structuredTokens(result)).toBeLessThanOrEqual(budget);
}

/** Follows a cut text's marker to the end with answer.more: the text whole again. */
async function readBack(client: TestClient, cut: string, maxTokens?: number): Promise<string> {
  const id = idIn(cut);
  expect(id, cut.slice(0, 400)).toBeDefined();
  let middle = '';
  let offset: number | undefined;
  let page: { offset: number; nextOffset: number; end: number; length: number; done: boolean };
  let start: number | undefined;
  do {
    const args = { id, ...(offset === undefined ? {} : { offset }), ...(maxTokens ? { maxTokens } : {}) };
    const result = await client.callTool({ name: 'answer.more', arguments: args });
    expectWithin(result, maxTokens ?? BUDGET);
    page = result.structuredContent as typeof page;
    start ??= page.offset;
    const text = (result.structuredContent as { text?: string }).text ?? textOf(result).slice(0, page.nextOffset - page.offset);
    expect(text).toHaveLength(page.nextOffset - page.offset);
    middle += text;
    offset = page.nextOffset;
  } while (!page.done);
  return cut.slice(0, start) + middle + cut.slice(cut.length - (page.length - page.end));
}

const transports: Array<[string, () => Promise<TestClient>]> = [
  ['modern HTTP', () => connectModernHttp(server.url)],
  ['legacy HTTP', () => connectLegacyHttp(server.url)],
  ['modern stdio', () => connectModernStdio(['--config', configFile], childEnv(home) as Record<string, string>)],
  ['legacy stdio', () => connectLegacyStdio(['--config', configFile], childEnv(home) as Record<string, string>)],
];

describe.each(transports)('%s', (_name, connect) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client.close());

  it('a 10,000-line command output fits, and answer.more gives back every byte of both parts', async () => {
    const result = await client.callTool({ name: 'shell.exec', arguments: { command: 'seq', args: ['1', '10000'] } });
    expectWithin(result);
    const text = textOf(result);
    expect(text).toMatch(
      /\[… [\d,]+ lines \/ \d+ KB elided \(lines [\d,]+-[\d,]+\) to fit the answer budget: answer.more \{"id":"ans_[\w-]{24}"\} reads them …\]/,
    );
    expect((await readBack(client, text)).replace(/^seq: exit code 0 \(\d+ ms\)\n/, '')).toBe(`stdout:\n${SEQ}`);
    const stdout = (result.structuredContent as { stdout: string }).stdout;
    expect(await readBack(client, stdout)).toBe(SEQ);
  });

  it('a 50 MB log: the read fits, and its continuation gives back every byte read', async () => {
    const result = await client.callTool({ name: 'fs.read', arguments: { path: 'big.log' } });
    expectWithin(result);
    const read = result.structuredContent as { content: string; bytes: number; truncated: boolean };
    expect(read.truncated).toBe(true);
    expect(read.content.startsWith(logHead.slice(0, 1000))).toBe(true);
    if (_name !== 'legacy stdio') return; // every byte once is enough: a page is the same on every transport
    const content = await readBack(client, read.content, 32_000);
    expect(content).toHaveLength(read.bytes);
    const file = fs.readFileSync(path.join(root, 'big.log'), 'utf8');
    expect(content).toBe(file.slice(0, read.bytes));
  });

  it('a folder of 100,000 entries: a page fits, with the offset of the next', async () => {
    const result = await client.callTool({ name: 'fs.list', arguments: { path: 'many' } });
    expectWithin(result);
    const list = result.structuredContent as { total: number; nextOffset: number; entries: Array<{ name: string }> };
    expect(list.total).toBe(100_000);
    expect(list.nextOffset).toBe(1000);
    expect(list.entries[0]!.name).toBe('entry-000000.txt');
    expect(textOf(result)).toContain('entry-000000.txt');
    const next = await client.callTool({ name: 'fs.list', arguments: { path: 'many', offset: 99_990 } });
    expect((next.structuredContent as typeof list).entries.map((e) => e.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `entry-${String(99_990 + i).padStart(6, '0')}.txt`),
    );
  });

  it('a smaller budget is honoured; one above the cap is refused, naming the cap', async () => {
    const small = await client.callTool({ name: 'fs.read', arguments: { path: 'big.log', maxTokens: 1000 } });
    expectWithin(small, 1000);
    const refused = await client.callTool({ name: 'fs.read', arguments: { path: 'big.log', maxTokens: 40_000 } }).catch((error: Error) => ({
      isError: true,
      content: [{ type: 'text', text: error.message }],
    }));
    expect(refused.isError).toBe(true);
    expect(textOf(refused as CallResult)).toMatch(/maxTokens is at most 32000 on this server \(4 x server.answerBudgetTokens\)/);
  });

  it('binary output stays its size and a preview', async () => {
    const result = await client.callTool({ name: 'shell.exec', arguments: { command: 'head', args: ['-c', '200000', '/dev/urandom'] } });
    expectWithin(result, 1000);
    expect(result.structuredContent).toMatchObject({ stdout: '', stdoutBinary: { bytes: 200_000 } });
    expect(textOf(result)).not.toContain('elided');
  });
});

describe('process.list on a busy machine', () => {
  // A neighbour with a 100 KB command line (a long classpath, a script passed inline) must not crowd the others out.
  const classpath = Array.from({ length: 5_000 }, (_, i) => `/opt/lib/dep-${i}.jar`).join(':');
  let long: ChildProcess;
  beforeAll(async () => {
    long = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)', 'long-argv-marker', classpath], { stdio: 'ignore' });
    await new Promise((resolve) => long.once('spawn', resolve));
  });
  afterAll(() => long.kill('SIGKILL'));

  it('a long command line is cut to one short line, and shown whole when asked', async () => {
    const client = await connectModernHttp(server.url);
    try {
      const all = await client.callTool({ name: 'process.list', arguments: { limit: 10_000 } });
      expectWithin(all);
      const rows = (all.structuredContent as { processes: Array<{ pid: number; args: string[] }> }).processes;
      expect(rows.map((p) => p.pid)).toContain(process.pid);
      const mine = rows.find((p) => p.pid === long.pid)!;
      expect(mine.args.join(' ').length).toBeLessThan(400);
      expect(mine.args.at(-1)).toMatch(/…\[\d{2,3},\d{3} more characters; fullArgs: true shows them\]$/);
      // Whole, then fitted to the budget like any answer (head and tail kept, the rest readable back).
      const whole = await client.callTool({ name: 'process.list', arguments: { match: 'long-argv-marker', fullArgs: true, maxTokens: 32_000 } });
      expectWithin(whole, 32_000);
      expect(textOf(whole)).toContain(classpath.slice(0, 5_000));
      expect(textOf(whole)).not.toContain('fullArgs: true shows them');
    } finally {
      await client.close();
    }
  });

  it('is one line a process, in pages', async () => {
    const client = await connectModernHttp(server.url);
    try {
      const first = await client.callTool({ name: 'process.list', arguments: { limit: 5 } });
      expectWithin(first);
      const page = first.structuredContent as { processes: Array<{ pid: number }>; total: number; nextOffset: number };
      expect(page.processes).toHaveLength(5);
      expect(page.nextOffset).toBe(5);
      const lines = textOf(first).split('\n');
      expect(lines[0]).toMatch(new RegExp(`^${page.total} processes \\(1-5 shown\\): pid ppid user command args$`));
      expect(lines.slice(1, 6).map((line) => Number(line.split(' ')[0]))).toEqual(page.processes.map((p) => p.pid));
      const next = (await client.callTool({ name: 'process.list', arguments: { limit: 5, offset: 5 } })).structuredContent as typeof page;
      expect(next.processes.map((p) => p.pid)).not.toContain(page.processes[0]!.pid);
      // A neighbour whose command line holds a newline (a `bash -c` script) is still one line.
      const script = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)', 'newline-marker\nsecond line'], { stdio: 'ignore' });
      try {
        await new Promise((resolve) => script.once('spawn', resolve));
        const text = textOf(await client.callTool({ name: 'process.list', arguments: { match: 'newline-marker' } }));
        expect(text.split('\n').slice(0, 2)).toEqual([
          expect.stringMatching(/^1 process: /),
          expect.stringMatching(new RegExp(`^${script.pid} .*newline-marker\\\\nsecond line$`)),
        ]);
      } finally {
        script.kill('SIGKILL');
      }
    } finally {
      await client.close();
    }
  });
});

describe('a page of 5,000 accessibility nodes', () => {
  it('fits, in both parts, through both clients', async () => {
    for (const client of [await connectModernHttp(server.url), await connectLegacyHttp(server.url)]) {
      const result = await client.callTool({ name: 'ui.snapshot', arguments: { maxNodes: 2000 } });
      expectWithin(result);
      expect(textOf(result)).toContain('e0 paragraph "Item 0 of the long list');
      expect(textOf(result)).toContain('answer.more');
      expect((result.structuredContent as { elided: string }).elided).toMatch(/^elements\[0\]\.children: the first \d+ of 50 items/);
      await client.close();
    }
  });
});

describe('ChatGPT (a host that reads the text and structuredContent both)', () => {
  const seqOnce = (result: CallResult) => {
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).not.toHaveProperty('stdout');
    expect(result.structuredContent).toMatchObject({ exitCode: 0, stdoutTruncated: false });
    expect(tokens(textOf(result)) + structuredTokens(result)).toBeLessThanOrEqual(BUDGET);
    expect(textOf(result)).toMatch(/^seq: exit code 0 .*\nstdout:\n1\n2\n3\n/);
  };

  it('over stdio (clientInfo "openai-mcp"): the payload is in the text only, and the two fit together', async () => {
    const client = new V1Client({ name: 'openai-mcp', version: '1.0.0' });
    await client.connect(
      new V1StdioTransport({
        command: process.execPath,
        args: [CLI, 'serve', '--stdio', '--config', configFile],
        env: childEnv(home) as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    try {
      seqOnce((await client.callTool({ name: 'shell.exec', arguments: { command: 'seq', args: ['1', '10000'] } })) as CallResult);
    } finally {
      await client.close();
    }
  });

  it('over 2026-07-28 HTTP, named only by the clientInfo each request carries', async () => {
    const client = new Client({ name: 'openai-mcp', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      seqOnce((await client.callTool({ name: 'shell.exec', arguments: { command: 'seq', args: ['1', '10000'] } })) as CallResult);
    } finally {
      await client.close();
    }
  });

  it('over stateless HTTP (User-Agent "openai-mcp/1.0.0")', async () => {
    const client = new V1Client({ name: 'some-client', version: '1.0.0' });
    await client.connect(new V1HttpTransport(new URL(server.url), { requestInit: { headers: { 'user-agent': 'openai-mcp/1.0.0' } } }));
    try {
      const result = (await client.callTool({ name: 'shell.exec', arguments: { command: 'seq', args: ['1', '10000'] } })) as CallResult;
      seqOnce(result);
      const more = (await client.callTool({ name: 'answer.more', arguments: { id: idIn(textOf(result))! } })) as CallResult;
      expect(more.structuredContent).not.toHaveProperty('text');
      expect(textOf(more)).toMatch(/^\d+\n/);
    } finally {
      await client.close();
    }
  });
});

describe('ChatGPT: a diff is read once, in fs.patch, git.diff and git.show', () => {
  let repo: string;
  let gitServer: TestHttpServer;
  beforeAll(async () => {
    repo = path.join(makeTempDir('budget-git-'), 'repo');
    fs.mkdirSync(repo);
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, env: { ...process.env, HOME: repo } });
    fs.writeFileSync(path.join(repo, 'a.txt'), 'one\n');
    fs.writeFileSync(path.join(repo, 'b.txt'), 'two\n');
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'first');
    gitServer = await startTestServer({ filesystem: { read: true, write: true, roots: [repo] }, git: { read: true } });
  });
  afterAll(async () => {
    await gitServer.close();
    removeDir(path.dirname(repo));
  });

  const occurrences = (result: CallResult, marker: string) => JSON.stringify([result.content, result.structuredContent]).split(marker).length - 1;

  it('the per-file diffs are in the text only; other hosts get them in structuredContent too', async () => {
    const chatgpt = new Client({ name: 'openai-mcp', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await chatgpt.connect(new StreamableHTTPClientTransport(new URL(gitServer.url)));
    const other = await connectModernHttp(gitServer.url);
    try {
      const patch = [
        '*** Begin Patch',
        '*** Update File: a.txt',
        '-one',
        '+one-marker-7f3',
        '*** Update File: b.txt',
        '-two',
        '+two-marker-9c1',
        '*** End Patch',
      ].join('\n');
      const patched = (await chatgpt.callTool({ name: 'fs.patch', arguments: { patch, dryRun: true } })) as CallResult;
      expect(patched.isError, textOf(patched)).toBeFalsy();
      expect([occurrences(patched, 'one-marker-7f3'), occurrences(patched, 'two-marker-9c1')]).toEqual([1, 1]);
      expect((patched.structuredContent as { files: object[] }).files).toEqual([
        expect.not.objectContaining({ diff: expect.anything() }),
        expect.not.objectContaining({ diff: expect.anything() }),
      ]);
      const applied = (await other.callTool({ name: 'fs.patch', arguments: { patch } })) as CallResult;
      expect(occurrences(applied, 'one-marker-7f3')).toBe(2);

      const diff = (await chatgpt.callTool({ name: 'git.diff', arguments: { path: repo } })) as CallResult;
      expect([occurrences(diff, 'one-marker-7f3'), occurrences(diff, 'two-marker-9c1')]).toEqual([1, 1]);
      expect((diff.structuredContent as { files: Array<{ path: string; added: number }> }).files.map((f) => [f.path, f.added])).toEqual([
        ['a.txt', 1],
        ['b.txt', 1],
      ]);
      expect(occurrences((await other.callTool({ name: 'git.diff', arguments: { path: repo } })) as CallResult, 'one-marker-7f3')).toBe(2);

      const shown = (await chatgpt.callTool({ name: 'git.show', arguments: { path: repo, revision: 'HEAD', file: 'a.txt' } })) as CallResult;
      expect(occurrences(shown, 'one')).toBe(1);
    } finally {
      await chatgpt.close();
      await other.close();
    }
  });
});
