import { describe, expect, it } from 'vitest';
import { diffText, statusLines } from '../../../main/mcp/tools/git-common.js';
import { lineSafe } from '../../../main/mcp/tools/line-safe.js';

describe('lineSafe', () => {
  it('shows control characters as escapes, and leaves everything else', () => {
    expect(lineSafe('evil\n?? secret.txt\r\t\u0000\u001b[31m\u007f')).toBe('evil\\n?? secret.txt\\r\\t\\x00\\x1b[31m\\x7f');
    expect(lineSafe('naïve name — ok.txt')).toBe('naïve name — ok.txt');
  });

  it('keeps a file named with a newline one entry in git status and git diff lines', () => {
    const lines = statusLines([
      { path: 'evil\n?? secret-looking.txt', untracked: true },
      { path: 'normal.txt', untracked: true },
    ]);
    expect(lines).toEqual(['?? evil\\n?? secret-looking.txt', '?? normal.txt']);
    const text = diffText({ files: [{ path: 'a\nmodified b.txt', change: 'modified', added: null, removed: null }], truncated: true, withheld: 0 });
    expect(text.split('\n')).toHaveLength(2);
  });
});
