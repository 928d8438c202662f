/**
 * The coding tools while another local process swaps a folder inside the root for a symlink to
 * a folder outside, as fast as it can: nothing outside is read, listed, found or changed.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModernHttp, textOf, type CallResult, type TestClient } from '../helpers/clients.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeRootAndOutside, removeDir } from '../helpers/temp.js';

const run = promisify(execFile);
const SWAPPER = path.join(import.meta.dirname, 'fixtures', 'swapper.mjs');

let home: string;
let root: string;
let outside: string;
const servers: TestHttpServer[] = [];
const clients: TestClient[] = [];
beforeAll(async () => {
  ({ home, root, outside } = makeRootAndOutside());
  for (const useRipgrep of [true, false]) {
    const server = await startTestServer({ filesystem: { write: true, roots: [root] }, chatgpt: { searchFetch: true } }, { useRipgrep });
    servers.push(server);
    clients.push(await connectModernHttp(server.url));
  }
});
afterAll(async () => {
  for (const client of clients) await client.close();
  for (const server of servers) await server.close();
  removeDir(home);
});

const outcome = (result: CallResult) => (result.isError ? textOf(result).split(':')[0]! : 'ok');

describe('another process swaps a folder for a symlink while the coding tools work in it', () => {
  it('never reads, finds, edits or patches outside the roots', async () => {
    const race = path.join(root, 'race');
    const d = path.join(race, 'd');
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, 'inside.txt'), 'needle inside\n');
    const target = path.join(outside, 'target');
    fs.mkdirSync(target);
    const outsideFiles = { 'inside.txt': 'needle OUTSIDE-SECRET\n', 'outside-only.txt': 'needle OUTSIDE-SECRET\n', 'victim.txt': 'must survive\n' };
    for (const [name, content] of Object.entries(outsideFiles)) fs.writeFileSync(path.join(target, name), content);

    const swapper = run(process.execPath, [SWAPPER, d, target, '3000']);
    let done = false;
    void swapper.finally(() => (done = true));
    const escapes: string[] = [];
    const tally: Record<string, Record<string, number>> = {};
    const count = (op: string, result: CallResult) => {
      tally[op] ??= {};
      tally[op]![outcome(result)] = (tally[op]![outcome(result)] ?? 0) + 1;
      const json = JSON.stringify(result);
      // fetch's refusal names the id it was given; anything else naming an outside-only file listed it.
      if (json.includes('OUTSIDE-SECRET') || (op !== 'fetch' && json.includes('outside-only'))) escapes.push(`${op}: ${textOf(result).slice(0, 200)}`);
    };
    const worker = async (client: TestClient, w: number) => {
      for (let i = 0; !done; i++) {
        const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
        count('search', await call('fs.search', { path: 'race', pattern: 'needle' }));
        count('search-d', await call('fs.search', { path: 'race/d', pattern: 'needle' }));
        count('find', await call('fs.find', { path: 'race', pattern: '*.txt' }));
        count('stat', await call('fs.stat', { path: 'race/d/victim.txt', sha256: true }));
        count('read-range', await call('fs.read', { path: 'race/d/inside.txt', startLine: 1 }));
        count('edit', await call('fs.edit', { path: 'race/d/victim.txt', edits: [{ oldText: 'must survive', newText: `edited ${w}-${i}` }] }));
        count(
          'patch',
          await call('fs.patch', {
            patch: `*** Begin Patch\n*** Update File: race/d/victim.txt\n@@\n-must survive\n+patched\n*** Add File: race/d/new-${w}-${i}.txt\n+x\n*** End Patch`,
          }),
        );
        count('fetch', await call('fetch', { id: path.join(d, 'outside-only.txt') }));
      }
    };
    await Promise.all([worker(clients[0]!, 1), worker(clients[1]!, 2)]);
    const flips = Number((await swapper).stdout);

    expect(escapes).toEqual([]);
    expect(fs.readdirSync(target).sort()).toEqual(Object.keys(outsideFiles).sort());
    for (const [name, content] of Object.entries(outsideFiles)) expect(fs.readFileSync(path.join(target, name), 'utf8')).toBe(content);
    // The race really ran: many flips, and calls both worked (inside) and were refused (through the link).
    expect(flips).toBeGreaterThan(100);
    expect(tally.search!.ok).toBeGreaterThan(0);
    for (const results of Object.values(tally))
      for (const result of Object.keys(results))
        expect(['ok', 'PATH_NOT_ALLOWED', 'NOT_FOUND', 'NO_MATCH', 'PRECONDITION_FAILED', 'INVALID_INPUT']).toContain(result);
  }, 30_000);
});

describe('edits that multiply the text', () => {
  it('100 edits each doubling an 18-byte file stop at the write cap between edits, with the server barely growing', async () => {
    fs.writeFileSync(path.join(root, 'grow.txt'), 'seed seed seed 18\n');
    const edits = Array.from({ length: 100 }, () => ({ oldText: 'e', newText: 'ee', replaceAll: true }));
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const result = await clients[0]!.callTool({ name: 'fs.edit', arguments: { path: 'grow.txt', edits } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^INVALID_INPUT: .*grow\.txt would be \d+ bytes after edit \d+; the limit is 4194304 \(filesystem\.maxWriteBytes\)/);
    // Without the bound the 100 edits build ~2^100 bytes; the server here is this process.
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(fs.readFileSync(path.join(root, 'grow.txt'), 'utf8')).toBe('seed seed seed 18\n');
  });
});
