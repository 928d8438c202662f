/**
 * The pin store: first sight pins everything; a changed or new tool is held with what it is now;
 * key order is not a change; accept exposes it; another process's write is read again; a file
 * others can read is refused.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../main/canonical-json.js';
import { PinStore, toolHash, type ToolDefinition } from '../../main/gateway/pin-store.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let dir: string;
beforeAll(() => {
  dir = makeTempDir();
});
afterAll(() => removeDir(dir));

const tool = (name: string, description = 'd', extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
  ...extra,
});

describe('PinStore', () => {
  it('pins everything on first sight, holds what changes or is new, and forgets what is gone', async () => {
    const file = path.join(dir, 'pins-1.json');
    const store = new PinStore(file);
    expect(await store.review('up', [tool('a'), tool('b')])).toEqual({ exposed: [tool('a'), tool('b')], held: [] });
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');

    const second = await store.review('up', [tool('a', 'now different'), tool('c')]);
    expect(second.exposed).toEqual([]);
    expect(second.held.map((h) => [h.name, h.reason])).toEqual([
      ['a', 'changed'],
      ['c', 'new'],
    ]);
    expect(Object.keys(store.pins('up')!.tools)).toEqual(['a']);

    const accepted = await store.accept('up', 'a');
    expect(accepted.map((h) => h.name)).toEqual(['a']);
    expect((await store.review('up', [tool('a', 'now different'), tool('c')])).exposed.map((t) => t.name)).toEqual(['a']);
  });

  it('key order and missing optional fields do not count as a change; schemas and annotations do', () => {
    const one = tool('x', 'd', { inputSchema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } } });
    const reordered = tool('x', 'd', { inputSchema: { properties: { b: { type: 'number' }, a: { type: 'string' } }, type: 'object' } });
    expect(toolHash(one)).toBe(toolHash(reordered));
    expect(toolHash(one)).not.toBe(toolHash({ ...one, inputSchema: { type: 'object', properties: { a: { type: 'string', format: 'uri' } } } }));
    expect(toolHash(one)).not.toBe(toolHash({ ...one, annotations: { readOnlyHint: true } }));
  });

  it('counts _meta as a change, and keeps what a file of first hashes (without _meta) accepted', async () => {
    const withView = tool('v', 'd', { _meta: { ui: { resourceUri: 'ui://up/one' } } });
    const moved = tool('v', 'd', { _meta: { ui: { resourceUri: 'ui://up/other' } } });
    expect(toolHash(withView)).not.toBe(toolHash(moved));

    // A pins file as the first version wrote it: hashes without _meta; one of them edited by hand.
    const first = ({ name, title, description, inputSchema, outputSchema, annotations }: ToolDefinition) =>
      createHash('sha256').update(canonicalJson({ name, title, description, inputSchema, outputSchema, annotations })).digest('hex');
    const file = path.join(dir, 'pins-first.json');
    const pinned = (definition: ToolDefinition, hash = first(definition)) => ({ hash, definition, acceptedAt: '2026-01-01T00:00:00.000Z' });
    const edited = tool('e');
    fs.writeFileSync(file, JSON.stringify({ version: 1, servers: { up: { tools: { v: pinned(withView), e: pinned(edited, '0'.repeat(64)) }, held: {} } } }), {
      mode: 0o600,
    });
    const store = new PinStore(file);
    const same = await store.review('up', [withView, edited]);
    expect(same.exposed).toEqual([withView]);
    expect(same.held.map((h) => [h.name, h.reason])).toEqual([['e', 'changed']]);
    // Its view pointed elsewhere since: held.
    expect((await store.review('up', [moved])).held.map((h) => [h.name, h.reason])).toEqual([['v', 'changed']]);
  });

  it("reads another process's accept, and refuses a file others can read", async () => {
    const file = path.join(dir, 'pins-2.json');
    const server = new PinStore(file);
    await server.review('up', [tool('a')]);
    await server.review('up', [tool('a', 'changed')]);
    await new PinStore(file).accept('up');
    // Read again within the store's refresh interval (200 ms), not on every call.
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(server.pins('up')!.held).toEqual({});
    fs.chmodSync(file, 0o644);
    expect(() => new PinStore(file).pins('up')).toThrow(/can be read or written by other users; run "chmod 600/);
  });

  it('two accepts at once, through two stores of the same file, are both kept (the last write used to win)', async () => {
    const file = path.join(dir, 'pins-3.json');
    await new PinStore(file).review('up', [tool('a'), tool('b')]);
    await new PinStore(file).review('up', [tool('a', 'a2'), tool('b', 'b2')]);
    const [one, two] = [new PinStore(file), new PinStore(file)];
    const accepted = await Promise.all([one.accept('up', 'a'), two.accept('up', 'b')]);
    expect(accepted.map((list) => list.map((h) => h.name))).toEqual([['a'], ['b']]);
    const after = new PinStore(file).pins('up')!;
    expect(after.held).toEqual({});
    expect(Object.values(after.tools).map((t) => t.definition.description)).toEqual(['a2', 'b2']);
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.lock'))).toEqual([]);
  });
});
