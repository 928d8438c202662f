/** What `undo show` and `undo apply` print: names, diff lines and client names never reach the terminal with control or bidirectional formatting characters in them. */
import { describe, expect, it } from 'vitest';
import type { GroupDetail, UndoOutcome } from '../../adapter/contract/journal.js';
import { visible } from '../../main/cli/io.js';
import { formatDetail, formatList } from '../../main/cli/undo-command.js';
import { describeOutcome } from '../../main/undo/undo-service.js';

const ESC = '\u001b';
const evilName = `/w/a${ESC}]0;pwned\u0007${ESC}[2J\u009b31m\u007f\nrestored /etc/passwd`;
/** No C0 (but tab and newline), DEL or C1 character. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const summary = {
  id: '20261205-120000000-abcd',
  client: `evil${ESC}[31mclient`,
  startedAt: '2026-12-05T12:00:00.000Z',
  lastAt: '2026-12-05T12:00:01.000Z',
  tools: ['fs.write'],
  files: 1,
  repositories: 0,
  notKept: 0,
  state: 'open' as const,
  bytes: 10,
};

describe('undo output on a terminal', () => {
  it('escapes control characters in paths, diff lines and client names, and keeps the lines of a diff', () => {
    const detail: GroupDetail = {
      ...summary,
      changes: [{ path: evilName, change: 'modified', was: 'file', kept: true, diff: `--- a\n+++ b\n-old${ESC}[8m\n+new\ttabbed\r` }],
      repositoryChanges: [],
    };
    const text = formatDetail(detail);
    expect(text).not.toMatch(CONTROL);
    expect(text).toContain('/w/a\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\x7f\\x0arestored /etc/passwd');
    expect(text).toContain('by evil\\x1b[31mclient');
    expect(text.split('\n').slice(2)).toEqual(['    --- a', '    +++ b', '    -old\\x1b[8m', '    +new\ttabbed\\x0d']);
    expect(formatList({ groups: [summary], dropped: [] })).not.toMatch(CONTROL);
  });

  it('escapes them in what undo apply says it did, one line per path', () => {
    const outcome: UndoOutcome = {
      appliedAt: '2026-12-05T12:00:02.000Z',
      restored: [evilName],
      conflicts: [{ path: `/w/b${ESC}[1A`, why: 'it was changed after the model changed it' }],
      skipped: [],
      repositories: [],
      notes: [{ path: evilName, why: `x${ESC}` }],
    };
    const lines = describeOutcome(outcome, visible);
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toMatch(CONTROL);
    expect(lines[1]).toBe('left /w/b\\x1b[1A: it was changed after the model changed it');
  });

  it('says which paths failed and can be tried again, and when they were', () => {
    const outcome: UndoOutcome = {
      appliedAt: '2026-12-05T12:00:02.000Z',
      restored: [],
      conflicts: [],
      skipped: [
        { path: '/w/Y', why: 'permission denied', retry: true },
        { path: '/w/big', why: 'its earlier state was not kept: too large' },
      ],
      repositories: [],
      retriedAt: '2026-12-05T12:05:00.000Z',
    };
    expect(describeOutcome(outcome)).toEqual([
      'not restored /w/Y: permission denied (left as it was: undo it again to retry)',
      'not restored /w/big: its earlier state was not kept: too large',
    ]);
    const text = formatDetail({ ...summary, state: 'partly undone', changes: [], repositoryChanges: [], undo: outcome });
    expect(text).toContain('undone 2026-12-05T12:00:02.000Z (tried again 2026-12-05T12:05:00.000Z):');
  });

  it('escapes bidirectional marks, embeddings, overrides and isolates, so a name shows in the order it holds', () => {
    // "Trojan Source": after RIGHT-TO-LEFT OVERRIDE a terminal shows `invoice\u202egpj.exe` as `invoiceexe.jpg`.
    expect(visible('invoice\u202egpj.exe')).toBe('invoice\\u202egpj.exe');
    const bidi = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
    for (const c of bidi) {
      const code = c.charCodeAt(0).toString(16).padStart(4, '0');
      expect(visible(`a${c}b`), code).toBe(`a\\u${code}b`);
      expect(visible(`a${c}b\nc`, true), code).toBe(`a\\u${code}b\nc`);
    }
    const detail: GroupDetail = {
      ...summary,
      client: 'evil\u2067client',
      changes: [{ path: '/w/invoice\u202egpj.exe', change: 'modified', was: 'file', kept: true, diff: '-old\u2066x\n+new\u200f' }],
      repositoryChanges: [],
    };
    const text = formatDetail(detail);
    expect(text).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain('/w/invoice\\u202egpj.exe');
    expect(text).toContain('by evil\\u2067client');
    expect(text).toContain('    -old\\u2066x\n    +new\\u200f');
  });

  it('leaves ordinary text as it is', () => {
    expect(visible('/home/ö/ファイル.txt — fine')).toBe('/home/ö/ファイル.txt — fine');
    expect(visible('one\ntwo', true)).toBe('one\ntwo');
    expect(visible('one\ntwo')).toBe('one\\x0atwo');
    // Right-to-left scripts, and the joiners they and emoji need, are text, not formatting to escape.
    expect(visible('/home/דנה/مرحبا.txt')).toBe('/home/דנה/مرحبا.txt');
    expect(visible('👩\u200d💻 notes')).toBe('👩\u200d💻 notes');
  });

  it('says of a path changed since the model changed it that undo leaves it as it is (as the tray does)', () => {
    const detail: GroupDetail = {
      ...summary,
      changes: [{ path: '/w/notes.txt', change: 'modified', was: 'file', kept: true, changedSince: true }],
      repositoryChanges: [],
    };
    expect(formatDetail(detail).split('\n').slice(1)).toEqual([
      'modified /w/notes.txt (was a file)',
      '    changed since the model changed it: undo leaves it as it is',
    ]);
  });

  it("says a change of mode on the path's line (the diff, if any, below it), and keeps a CRLF line's \\r in every diff line", () => {
    const detail: GroupDetail = {
      ...summary,
      changes: [
        { path: '/w/run.sh', change: 'modified', was: 'file', kept: true, mode: { before: '755', after: '644' } },
        { path: '/w/tool', change: 'modified', was: 'file', kept: true, mode: { before: '4755', after: '755' }, diff: '@@ -1,2 +1,2 @@\n a\r\n-b\n+b\r' },
      ],
      repositoryChanges: [],
    };
    expect(formatDetail(detail).split('\n').slice(1)).toEqual([
      'modified /w/run.sh, mode 755 -> 644 (was a file)',
      'modified /w/tool, mode 4755 -> 755 (was a file)',
      '    @@ -1,2 +1,2 @@',
      '     a\\x0d',
      '    -b',
      '    +b\\x0d',
    ]);
  });
});
