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
});
