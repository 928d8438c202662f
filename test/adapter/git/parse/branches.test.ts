import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBranches } from '../../../../adapter/git/parse/branches.js';

const captured = fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'branches.bin'));

describe('parseBranches (git for-each-ref, captured)', () => {
  it('reads local branches and marks the current one', () => {
    const branches = parseBranches(captured);
    expect(branches.current).toBe('main');
    expect(branches.local.map((b) => [b.name, b.current, b.subject])).toEqual([
      ['main', true, 'main side'],
      ['other', false, 'other side'],
    ]);
    expect(branches.remote).toEqual([]);
  });

  it('reads upstreams, how far ahead and behind, and remote branches (not origin/HEAD)', () => {
    const line = (fields: string[]) => fields.join('\0');
    const output = Buffer.from(
      [
        line(['refs/heads/main', 'aaa', '*', 'origin/main', 'ahead 2, behind 1', '2024-05-01T10:00:00+02:00', 'subject']),
        line(['refs/remotes/origin/HEAD', 'aaa', ' ', '', '', '', '']),
        line(['refs/remotes/origin/main', 'bbb', ' ', '', '', '', '']),
      ].join('\n') + '\n',
    );
    expect(parseBranches(output)).toEqual({
      current: 'main',
      local: [
        { name: 'main', commit: 'aaa', current: true, upstream: 'origin/main', ahead: 2, behind: 1, subject: 'subject', date: '2024-05-01T10:00:00+02:00' },
      ],
      remote: [{ name: 'origin/main', commit: 'bbb' }],
    });
  });
});
