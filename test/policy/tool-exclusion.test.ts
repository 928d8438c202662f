/** Why the owner's settings leave a tool out: include, exclude, excludeMatching (look-alikes too), or not at all. */
import { describe, expect, it } from 'vitest';
import { excludedBy, leftOutBy } from '../../main/policy/tool-exclusion.js';

describe('leftOutBy', () => {
  it('names the rule that leaves each tool out, include first', () => {
    const why = leftOutBy({ include: ['read', 'drop_all', 'wipe'], exclude: ['wipe'], excludeMatching: ['DROP'] });
    expect(['read', 'write', 'drop_all', 'wipe', 'd\u0433op_x'].map(why)).toEqual([
      null,
      { by: 'include' },
      { by: 'excludeMatching', part: 'DROP' },
      { by: 'exclude' },
      { by: 'include' },
    ]);
  });

  it('without include every tool not excluded is exposed; an empty include exposes none', () => {
    expect(excludedBy({ tools: { exclude: [], excludeMatching: ['delete'] } })('d\u0435lete_all')).toBe(true);
    expect(excludedBy({ tools: {} })('anything')).toBe(false);
    expect(excludedBy({ tools: { include: [] } })('anything')).toBe(true);
  });
});
