import { describe, expect, it } from 'vitest';
import { checkedCatalog } from '../../main/gateway/catalog-check.js';

describe('checkedCatalog', () => {
  it('leaves out only what the SDK could not register, saying which and why', () => {
    const reasons: string[] = [];
    const out = checkedCatalog(
      {
        resourceTemplates: [{ uriTemplate: 'x://{a', name: 't' }, { uriTemplate: 'x://{a}', name: 'ok' }, 'junk'],
        resources: [{ name: 'r' }, { uri: 'not a uri', name: 'r2' }, { uri: 'x://a', name: 'r3', title: 4 }, { uri: 'x://b' }],
        prompts: [
          { name: 'p', arguments: [null] },
          { name: 'q', arguments: 'x' },
          { name: { a: 1 } },
          { name: 'ok', arguments: [{ name: 'a', required: true }] },
        ],
      },
      (reason) => reasons.push(reason),
    );
    expect(out).toEqual({
      resourceTemplates: [{ uriTemplate: 'x://{a}', name: 'ok' }],
      resources: [{ uri: 'x://b' }],
      prompts: [{ name: 'ok', arguments: [{ name: 'a', required: true }] }],
    });
    expect(reasons).toHaveLength(8);
    expect(reasons[0]).toBe('resource "r" left out: it has no URI');
    expect(reasons[3]).toMatch(/^resource template "t" left out: its uriTemplate is not a URI template \(Unclosed/);
  });

  it('takes anything that is not a catalog as an empty one', () => {
    expect(checkedCatalog(null, () => undefined)).toEqual({ resources: [], resourceTemplates: [], prompts: [] });
    expect(checkedCatalog({ resources: 'x' }, () => undefined).resources).toEqual([]);
  });

  it('leaves out an item nested too deep or too large, and takes at most 512 of a kind', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 3000; i++) deep = [deep];
    const reasons: string[] = [];
    const out = checkedCatalog(
      {
        resources: [
          { uri: 'x://deep', name: 'deep', _meta: { x: deep } },
          { uri: 'x://big', name: 'big', description: 'd'.repeat(70 * 1024) },
          ...Array.from({ length: 600 }, (_, i) => ({ uri: `x://r${i}`, name: `r${i}` })),
        ],
        prompts: [{ name: 'p', _meta: { x: deep } }],
      },
      (reason) => reasons.push(reason),
    );
    expect(out.resources).toHaveLength(512);
    expect(out.resources[0]).toEqual({ uri: 'x://r0', name: 'r0' });
    expect(out.prompts).toEqual([]);
    expect(reasons).toEqual([
      'resource "deep" left out: it nests deeper than 64 levels',
      'resource "big" left out: it is over 64 KiB as JSON',
      'resources past the first 512 left out: at most 512 are taken from one server',
      'prompt "p" left out: it nests deeper than 64 levels',
    ]);
  });
});
