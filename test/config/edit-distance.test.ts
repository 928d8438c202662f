import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../main/config/edit-distance.js';

describe('edit distance', () => {
  it('counts inserts, deletes, changes, and a swap of neighbours as one edit', () => {
    expect(editDistance('port', 'port')).toBe(0);
    expect(editDistance('prot', 'port')).toBe(1);
    expect(editDistance('prt', 'port')).toBe(1);
    expect(editDistance('root', 'port')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests the nearest name for a typo, and nothing for another word', () => {
    expect(closestName('prot', ['root', 'port', 'host'])).toBe('port');
    expect(closestName('tunel-id', ['tunnel-id', 'client'])).toBe('tunnel-id');
    expect(closestName('verbose', ['port', 'host', 'config'])).toBeNull();
  });
});
