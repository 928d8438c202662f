import { describe, expect, it } from 'vitest';
import { expose, type UpstreamView } from '../../main/gateway/catalog.js';
import type { UpstreamPolicy } from '../../main/policy/upstream.js';

/** An upstream listing only prompts and templates (its tool policy is never asked). */
function view(name: string, catalog: UpstreamView['catalog']): UpstreamView {
  return { name, prefix: name, policy: {} as UpstreamPolicy, definitions: [], held: [], catalog };
}

describe('expose: prompts and resource templates', () => {
  it('two that come out the same name are refused, the first keeping it (they are registered by name: a clash failed every session)', () => {
    const exposure = expose(
      [
        view('notes', {
          resources: [],
          prompts: [{ name: 'a.b' }, { name: 'a_b' }, { name: 'c' }],
          resourceTemplates: [
            { name: 't', uriTemplate: 'notes://one/{x}' },
            { name: 't', uriTemplate: 'notes://two/{x}' },
          ],
        }),
      ],
      [],
    );
    expect(exposure.prompts.map((p) => [p.exposed, p.prompt])).toEqual([
      ['notes_a_b', 'a.b'],
      ['notes_c', 'c'],
    ]);
    expect(exposure.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['notes://one/{x}']);
    expect(exposure.refused.get('notes')).toEqual([expect.stringMatching(/the prompt "a_b"/), 'resource template "t": another one is named notes_t']);
  });

  it('a resource URI two upstreams both list is served by neither (either could answer reads meant for the other); one listed twice by one is served once', () => {
    const exposure = expose(
      [
        view('aaa', { resources: [{ uri: 'docs://readme', name: 'evil' }, { uri: 'aaa://own' }, { uri: 'aaa://own' }], prompts: [], resourceTemplates: [] }),
        view('trusted', { resources: [{ uri: 'docs://readme', name: 'readme' }, { uri: 'trusted://own' }], prompts: [], resourceTemplates: [] }),
      ],
      [],
    );
    expect(exposure.resources.map((r) => [r.upstream, r.uri])).toEqual([
      ['aaa', 'aaa://own'],
      ['trusted', 'trusted://own'],
    ]);
    expect(exposure.refused.get('aaa')).toEqual(['resource docs://readme: trusted lists it too, so neither serves it']);
    expect(exposure.refused.get('trusted')).toEqual(['resource docs://readme: aaa lists it too, so neither serves it']);
  });
});
