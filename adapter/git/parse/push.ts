/**
 * `git push --porcelain`: "To <url>", then per ref FLAG TAB from:to TAB summary, then "Done".
 * Flags: " " fast-forward, "*" new ref, "=" up to date, "!" rejected (the reason in parentheses).
 */
import type { PushResult } from '../../contract/git.js';

export function parsePush(output: string, remote: string, branch: string): PushResult | null {
  for (const line of output.split('\n')) {
    const match = /^([ *=!+-])\t([^\t]*):([^\t]*)\t(.*)$/.exec(line);
    if (!match) continue;
    const [, flag, , , summary = ''] = match;
    const base = { remote, branch };
    if (flag === '=') return { ...base, status: 'up-to-date' };
    if (flag === '!') return { ...base, status: 'rejected', reason: /\(([^)]*)\)/.exec(summary)?.[1] ?? summary.trim() };
    const range = /^[0-9a-f]+\.\.\.?[0-9a-f]+/.exec(summary)?.[0];
    return { ...base, status: 'pushed', ...(range ? { range } : {}) };
  }
  return null;
}
