import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLog } from '../../../../adapter/git/parse/log.js';

const captured = fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'log.bin'));

describe('parseLog (git log -z --format=LOG_FORMAT, captured)', () => {
  it('reads each commit, with its body when asked', () => {
    const commits = parseLog(captured, true);
    expect(commits.map((c) => c.subject)).toEqual(['main side', 'other side', 'first']);
    expect(commits[2]).toEqual({
      hash: 'df87a90178fb33008b52272d20ba931d3578c454',
      parents: [],
      author: 'Ada Lovelace',
      email: 'ada@example.com',
      date: '2024-05-01T10:00:00+02:00',
      subject: 'first',
      body: 'The body\nof the first commit.',
    });
    expect(commits[0]!.parents).toEqual(['df87a90178fb33008b52272d20ba931d3578c454']);
    expect(commits[0]!.body).toBe('');
  });

  it('leaves the body out unless asked', () => {
    expect(parseLog(captured, false).every((c) => c.body === undefined)).toBe(true);
    expect(parseLog(Buffer.alloc(0), false)).toEqual([]);
  });
});
