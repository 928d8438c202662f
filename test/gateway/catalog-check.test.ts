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
});
