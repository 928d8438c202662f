/**
 * An upstream's views (`ui://` resources) are pinned as its listing entry plus a hash of what a
 * read answers: the first seen is accepted; a read that differs is refused and held, with the
 * resource left out of what is exposed, until accepted; an unlisted view is never served; a pins
 * file from before views accepts them as next listed, and its malformed views are dropped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedOnly, type Catalog } from '../../main/gateway/catalog-pins.js';
import { PinStore } from '../../main/gateway/pin-store.js';
import { isViewUri, viewContent, viewItems } from '../../main/gateway/view-pins.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let dir: string;
beforeAll(() => {
  dir = makeTempDir();
});
afterAll(() => removeDir(dir));

const VIEW = 'ui://up/board.html';
const listing = { uri: VIEW, name: 'board', mimeType: 'text/html;profile=mcp-app' };
const read = (text: string) => ({ contents: [{ uri: VIEW, mimeType: listing.mimeType, text }] });
const data = { uri: 'note://1', name: 'one' };

function catalogWith(text: string | null): Catalog {
  const resources = [listing, data];
  return { resources, resourceTemplates: [], prompts: [], views: viewItems(resources, new Map([[VIEW, text === null ? null : viewContent(read(text))]])) };
}

const exposedUris = (store: PinStore) => {
  const pins = store.pins('up')!;
  return acceptedOnly(pins.catalog!, pins.acceptedCatalog).resources.map((r) => r.uri);
};

describe('view pins', () => {
  it('hashes what a read answers (key order is no change), and picks the views among the resources', () => {
    expect(viewContent(read('<p>a</p>'))).toEqual(viewContent({ contents: [{ text: '<p>a</p>', mimeType: listing.mimeType, uri: VIEW }] }));
    expect(viewContent(read('<p>a</p>'))!.sha256).not.toBe(viewContent(read('<p>b</p>'))!.sha256);
    expect(viewContent({ nothing: true })).toBeNull();
    expect([isViewUri('UI://x/y'), isViewUri('note://1'), isViewUri('ui:x')]).toEqual([true, false, false]);
    expect(viewItems([listing, data], new Map()).map((v) => [v.uri, v.content])).toEqual([[VIEW, null]]);
  });

  it('keeps the page for the owner in short lines (a minified script wrapped), and says where it stops (red team)', () => {
    const script = `<script>${'a'.repeat(880)}fetch("https://evil.example")${'b'.repeat(300)}</script>`;
    const page = viewContent(read(script))!.page;
    expect(page.every((line) => line.length <= 160)).toBe(true);
    expect(page.join('')).toBe(script);
    expect(page.some((line) => line.includes('evil.example'))).toBe(true);
    const long = viewContent(read('x'.repeat(100_000)))!.page;
    expect(long.at(-1)).toBe('… 34560 more characters not shown: a change in them shows only in sha256 and bytes');
    expect(long.slice(0, -1).join('')).toHaveLength(65_536 - (65_536 % 160));
  });

  it('accepts the first read, refuses and holds one that differs (its resource no longer exposed) until accepted', async () => {
    const store = new PinStore(path.join(dir, 'pins-1.json'));
    await store.review('up', []);
    await store.setCatalog('up', catalogWith('<p>a</p>'));
    expect(await store.viewRead('up', VIEW, viewContent(read('<p>a</p>')))).toBeNull();
    expect(exposedUris(store)).toEqual([VIEW, 'note://1']);

    const swapped = viewContent(read('<script>steal()</script>'));
    expect(await store.viewRead('up', VIEW, swapped)).toBe(
      'differs from what the owner accepted, so it is held until the owner accepts it (the tray, or "chatgpt-mcp gateway show up", then "gateway accept")',
    );
    expect(store.held('up')).toEqual([
      {
        name: `view "${VIEW}"`,
        reason: 'changed',
        before: expect.objectContaining({ content: viewContent(read('<p>a</p>')) }),
        now: expect.objectContaining({ content: swapped }),
      },
    ]);
    expect(exposedUris(store)).toEqual(['note://1']);
    // The next start reads it as it reads now: still held.
    await store.setCatalog('up', catalogWith('<script>steal()</script>'));
    expect(store.held('up').map((h) => h.name)).toEqual([`view "${VIEW}"`]);

    expect((await store.accept('up', `view "${VIEW}"`)).map((h) => h.name)).toEqual([`view "${VIEW}"`]);
    expect(await store.viewRead('up', VIEW, swapped)).toBeNull();
    expect(exposedUris(store)).toEqual([VIEW, 'note://1']);
  });

  it("exposes a view listed twice only as accepted, keeps what an unread view read as before, and hashes the answer's _meta", async () => {
    const store = new PinStore(path.join(dir, 'pins-5.json'));
    await store.review('up', []);
    await store.setCatalog('up', catalogWith('<p>a</p>'));
    // The same URI listed again with a wider CSP (red team).
    const wide = { ...listing, _meta: { ui: { csp: { connectDomains: ['https://evil.example'] } } } };
    const twice = { ...catalogWith('<p>a</p>'), resources: [wide, listing, data] };
    await store.setCatalog('up', { ...twice, views: viewItems(twice.resources, new Map([[VIEW, viewContent(read('<p>a</p>'))]])) });
    // Pinned as first listed (the wide one): held, neither entry goes out; accepted, the wide one alone does.
    const pins = store.pins('up')!;
    expect(acceptedOnly(pins.catalog!, pins.acceptedCatalog).resources).toEqual([data]);
    expect(store.held('up').map((h) => h.name)).toEqual([`view "${VIEW}"`]);
    await store.accept('up');
    expect(store.held('up')).toEqual([]);
    const after = store.pins('up')!;
    expect(acceptedOnly(after.catalog!, after.acceptedCatalog).resources).toEqual([wide, data]);
    // Listed the other way round, the accepted (first) entry alone goes out.
    const other = new PinStore(path.join(dir, 'pins-7.json'));
    await other.review('up', []);
    const reads = new Map([[VIEW, viewContent(read('<p>a</p>'))]]);
    const narrowFirst = [listing, wide, data];
    await other.setCatalog('up', { resources: narrowFirst, resourceTemplates: [], prompts: [], views: viewItems(narrowFirst, reads) });
    const first = other.pins('up')!;
    expect(acceptedOnly(first.catalog!, first.acceptedCatalog).resources).toEqual([listing, data]);

    const before = [{ uri: VIEW, listed: listing, content: viewContent(read('<p>a</p>')) }];
    expect(viewItems([listing], new Map(), before)[0]!.content).toEqual(viewContent(read('<p>a</p>')));
    expect(viewItems([listing], new Map([[VIEW, null]]), before)[0]!.content).toBeNull();
    expect(viewContent({ ...read('<p>a</p>'), _meta: { ui: { csp: { connectDomains: ['https://evil.example'] } } } })).not.toEqual(
      viewContent(read('<p>a</p>')),
    );
  });

  it("writes a view's new read onto the file as it is now: another process's accept just before stays (red team)", async () => {
    const file = path.join(dir, 'pins-6.json');
    const server = new PinStore(file);
    const tool = (description: string) => ({ name: 'go', description, inputSchema: { type: 'object' } });
    await server.review('up', [tool('v1')]);
    await server.review('up', [tool('v2')]);
    await server.setCatalog('up', catalogWith('<p>a</p>'));
    expect(server.held('up').map((h) => h.name)).toEqual(['go']);
    await new PinStore(file).accept('up', 'go');
    // At once, well within the 200 ms a reader waits before looking at the file again.
    expect(await server.viewRead('up', VIEW, viewContent(read('<p>b</p>')))).toMatch(/^differs/);
    expect(new PinStore(file).pins('up')!.held).toEqual({});
  });

  it('never serves a view it does not list', async () => {
    const store = new PinStore(path.join(dir, 'pins-2.json'));
    await store.review('up', []);
    await store.setCatalog('up', catalogWith('<p>a</p>'));
    expect(await store.viewRead('up', 'ui://up/other.html', viewContent(read('x')))).toMatch(/^is not one it lists, so the owner could not accept it/);
  });

  it('a pins file from before views accepts them as next listed, and drops views it cannot use', async () => {
    const file = path.join(dir, 'pins-3.json');
    const kept = { resources: [listing], resourceTemplates: [], prompts: [] };
    const broken = [
      { uri: VIEW, listed: { name: 'no uri' }, content: null },
      { uri: VIEW, listed: listing, content: { sha256: '../x', bytes: 1 } },
    ];
    const servers = {
      up: { tools: {}, held: {}, catalog: { ...kept, views: broken }, acceptedCatalog: { prompts: [], resourceTemplates: [], views: broken } },
    };
    fs.writeFileSync(file, JSON.stringify({ version: 1, servers }), { mode: 0o600 });
    const store = new PinStore(file);
    expect(store.pins('up')!.catalog!.views).toEqual([]);
    expect(store.pins('up')!.acceptedCatalog!.views).toEqual([]);

    const older = path.join(dir, 'pins-4.json');
    fs.writeFileSync(
      older,
      JSON.stringify({ version: 1, servers: { up: { tools: {}, held: {}, catalog: kept, acceptedCatalog: { prompts: [], resourceTemplates: [] } } } }),
      {
        mode: 0o600,
      },
    );
    const upgraded = new PinStore(older);
    // Before the upstream runs again, its view is listed as it was.
    expect(exposedUris(upgraded)).toEqual([VIEW]);
    await upgraded.setCatalog('up', catalogWith('<p>a</p>'));
    expect(upgraded.held('up')).toEqual([]);
    expect(await upgraded.viewRead('up', VIEW, viewContent(read('<p>a</p>')))).toBeNull();
  });
});
