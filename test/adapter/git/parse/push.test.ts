import { describe, expect, it } from 'vitest';
import { parsePush } from '../../../../adapter/git/parse/push.js';

/** Captured from git 2.39's push --porcelain against a local bare repository. */
const output = (flag: string, summary: string) => `To /tmp/remote.git\n${flag}\trefs/heads/main:refs/heads/main\t${summary}\nDone\n`;

describe('parsePush (git push --porcelain)', () => {
  it.each([
    ['*', '[new branch]', { status: 'pushed' }],
    [' ', '6566e75..d90442e', { status: 'pushed', range: '6566e75..d90442e' }],
    ['=', '[up to date]', { status: 'up-to-date' }],
    ['!', '[rejected] (non-fast-forward)', { status: 'rejected', reason: 'non-fast-forward' }],
    ['!', '[remote rejected] (pre-receive hook declined)', { status: 'rejected', reason: 'pre-receive hook declined' }],
  ])('%j %s', (flag, summary, expected) => {
    expect(parsePush(output(flag, summary), 'origin', 'main')).toEqual({ remote: 'origin', branch: 'main', ...expected });
  });

  it('is null when git printed no ref line (it failed before)', () => {
    expect(parsePush('', 'origin', 'main')).toBeNull();
  });
});
