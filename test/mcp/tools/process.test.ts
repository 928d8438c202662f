/** process.list through MCP on this machine's real /proc: kernel threads left out unless asked for. */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../main/mcp/tool.js';
import { ARGS_CHARS, processRow, processTools, shortArgs } from '../../../main/mcp/tools/process.js';
import { localAdapter } from '../../helpers/adapter.js';
import { startTestServer, type TestServer } from '../../helpers/tool-server.js';

/** Kernel threads are visible here when kthreadd is (the host's pid namespace, or a VM). */
const kernelVisible = process.platform === 'linux' && fs.existsSync('/proc/2/stat') && fs.readFileSync('/proc/2/stat', 'utf8').includes('(kthreadd)');
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ process: { list: true } }, localAdapter(), processTools as unknown as ToolDefinition[]);
});
afterAll(() => server?.close());

type Listed = { processes: { pid: number; ppid: number; command: string; args: string[] }[] };

describe.skipIf(!kernelVisible)('process.list and kernel threads', () => {
  it('leaves kernel threads out by default and says how many, and lists them when asked', async () => {
    const plain = await server.call('process.list', { limit: 10_000 });
    const listed = (plain.structured as Listed).processes;
    expect(listed.some((p) => p.pid === process.pid)).toBe(true);
    expect(listed.some((p) => p.pid === 2 || p.ppid === 2)).toBe(false);
    expect(plain.text).toMatch(/\[\d+ kernel threads left out; kernelThreads: true lists them\]$/);

    const all = await server.call('process.list', { limit: 10_000, kernelThreads: true });
    const kernel = (all.structured as Listed).processes.filter((p) => p.pid === 2 || p.ppid === 2);
    expect(kernel.length).toBeGreaterThan(0);
    expect(kernel.every((p) => p.args.length === 0)).toBe(true);
    expect(all.text).not.toContain('kernel threads left out');
  });
});

describe('processRow', () => {
  it('keeps a process on one line when its command line holds a newline, a tab or an escape', () => {
    const row = processRow({ pid: 7, ppid: 1, user: 'me', command: 'bash', args: ['bash', '-c', 'set -e\nnpm ci\r\tdone\u001b[0m'] });
    expect(row).toBe('7 1 me bash -c set -e\\nnpm ci\\r\\tdone\\x1b[0m');
    expect(row.split('\n')).toHaveLength(1);
  });
});

describe('shortArgs', () => {
  it('keeps a short command line as it is', () => {
    expect(shortArgs(['/usr/bin/node', 'server.js', '--port', '80'])).toEqual(['/usr/bin/node', 'server.js', '--port', '80']);
  });

  it('cuts at the limit, counting the spaces, and says how much is left out', () => {
    const cut = shortArgs(['java', '-cp', 'a'.repeat(1000), 'Main'], 20);
    expect(cut).toEqual(['java', '-cp', `${'a'.repeat(11)}…[994 more characters; fullArgs: true shows them]`]);
    expect(shortArgs(['x'.repeat(ARGS_CHARS + 5_000)])[0]).toMatch(/^x{300}…\[5,000 more characters; fullArgs: true shows them\]$/);
  });

  it('never splits a character made of two UTF-16 units', () => {
    const [cut] = shortArgs(['ab😀cd'], 3);
    expect(cut).toBe('ab…[4 more characters; fullArgs: true shows them]');
  });
});
