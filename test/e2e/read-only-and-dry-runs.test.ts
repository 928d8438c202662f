/**
 * The owner's brakes, through real clients: server.readOnly hides and refuses every tool that
 * changes something, and fs.edit, fs.patch, fs.move and fs.delete with dryRun say what they would
 * change and change nothing (every file's hash the same before and after).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLegacyHttp, connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let root: string;
beforeAll(() => {
  root = makeTempDir('brakes-');
  fs.mkdirSync(path.join(root, 'dir', 'sub'), { recursive: true });
  fs.writeFileSync(path.join(root, 'a.txt'), 'alpha\nbeta\n');
  fs.writeFileSync(path.join(root, 'dir', 'sub', 'b.txt'), 'b\n');
});
afterAll(() => removeDir(root));

/** Every file under the root with its sha256: the whole tree's state. */
function treeState(dir = root): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(root, full)] = entry.isFile() ? createHash('sha256').update(fs.readFileSync(full)).digest('hex') : 'dir';
  }
  return out;
}

const WRITABLE = { filesystem: { write: true, roots: [] as string[] }, shell: { enabled: true, allowedCommands: ['ls'] }, process: { list: true, kill: true } };

describe.each([
  ['modern', connectModernHttp],
  ['legacy', connectLegacyHttp],
] as const)('server.readOnly (%s client)', (_kind, connect) => {
  let server: TestHttpServer;
  let client: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ ...WRITABLE, filesystem: { write: true, roots: [root] }, server: { readOnly: true } });
    client = await connect(server.url);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('lists only the tools that promise to change nothing', async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(3);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['system.info', 'fs.read', 'fs.list', 'process.list']));
    expect(tools.map((t) => t.name)).not.toContain('fs.write');
  });

  it('refuses a hidden tool, saying why and what turns it off; nothing changes', async () => {
    const before = treeState();
    for (const [name, args] of [
      ['fs.write', { path: 'new.txt', content: 'x' }],
      ['fs.delete', { path: 'a.txt' }],
      ['shell.exec', { command: 'ls' }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^CAPABILITY_DISABLED: .* changes things, and the server is read-only \(server\.readOnly; the tray's "Pause writes"\)/);
    }
    expect(treeState()).toEqual(before);
  });
});

describe('dry runs', () => {
  let server: TestHttpServer;
  let client: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ filesystem: { write: true, roots: [root] } });
    client = await connectModernHttp(server.url);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('fs.edit, fs.patch, fs.move and fs.delete answer what they would do and change nothing', async () => {
    const before = treeState();
    const edit = await client.callTool({ name: 'fs.edit', arguments: { path: 'a.txt', edits: [{ oldText: 'beta', newText: 'gamma' }], dryRun: true } });
    expect(edit.structuredContent).toMatchObject({ dryRun: true, replacements: 1, bytesWritten: 0 });
    expect(edit.structuredContent!.sha256).toBe(createHash('sha256').update('alpha\ngamma\n').digest('hex'));
    expect(String(edit.structuredContent!.diff)).toContain('+gamma');
    const patch = await client.callTool({
      name: 'fs.patch',
      arguments: { patch: '*** Begin Patch\n*** Update File: a.txt\n@@\n-alpha\n+ALPHA\n*** Add File: dir/new.txt\n+hello\n*** End Patch', dryRun: true },
    });
    expect(patch.structuredContent).toMatchObject({ dryRun: true, files: [{ action: 'updated' }, { action: 'added' }] });
    expect(textOf(patch)).toContain('Dry run, nothing changed');
    const move = await client.callTool({ name: 'fs.move', arguments: { source: 'a.txt', destination: 'dir/a.txt', dryRun: true } });
    expect(move.structuredContent).toMatchObject({ dryRun: true, type: 'file', replaces: false });
    const del = await client.callTool({ name: 'fs.delete', arguments: { path: 'dir', recursive: true, dryRun: true } });
    expect(del.structuredContent).toMatchObject({ dryRun: true, type: 'directory', entries: 1 });
    expect(treeState()).toEqual(before);
  });

  it('a dry run refuses what the real call would refuse', async () => {
    const notEmpty = await client.callTool({ name: 'fs.delete', arguments: { path: 'dir', dryRun: true } });
    expect(textOf(notEmpty)).toMatch(/^INVALID_INPUT: .*directory is not empty/);
    const taken = await client.callTool({ name: 'fs.move', arguments: { source: 'a.txt', destination: 'dir/sub/b.txt', dryRun: true } });
    expect(textOf(taken)).toMatch(/^ALREADY_EXISTS/);
    const noMatch = await client.callTool({ name: 'fs.edit', arguments: { path: 'a.txt', edits: [{ oldText: 'nowhere', newText: 'x' }], dryRun: true } });
    expect(textOf(noMatch)).toMatch(/^NO_MATCH/);
  });
});
