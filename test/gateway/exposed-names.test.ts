import { describe, expect, it } from 'vitest';
import { exposedToolName } from '../../main/gateway/exposed-names.js';

describe('exposedToolName', () => {
  const taken = new Map([['fs_read', 'a built-in tool']]);
  it('prefixes, and turns characters outside the portable set into _', () => {
    expect(exposedToolName('gh', 'github', 'search.issues/v2', taken)).toEqual({ exposed: 'gh_search_issues_v2' });
  });
  it('refuses a name over 64 characters, and one that is taken, naming the entry', () => {
    expect(exposedToolName('p', 'long', 'x'.repeat(63), taken)).toEqual({
      refused: expect.stringMatching(/^long: the tool "x+" would be exposed as "p_x+", longer than 64/),
    });
    expect(exposedToolName('fs', 'files', 'read', taken)).toEqual({
      refused: 'files: the tool "read" would be exposed as "fs_read", which is already a built-in tool; exclude it or choose another prefix',
    });
  });
});
