/** `git for-each-ref --format=BRANCH_FORMAT refs/heads refs/remotes`: one ref per line, fields NUL-separated. */
import type { GitBranches } from '../../contract/git.js';

export const BRANCH_FORMAT =
  '%(refname)%00%(objectname)%00%(HEAD)%00%(upstream:short)%00%(upstream:track,nobracket)%00%(committerdate:iso-strict)%00%(contents:subject)';

export function parseBranches(output: Buffer): GitBranches {
  const result: GitBranches = { current: null, local: [], remote: [] };
  for (const line of output.toString('utf8').split('\n')) {
    if (line === '') continue;
    const [ref = '', commit = '', head = '', upstream = '', track = '', date = '', subject = ''] = line.split('\0');
    if (ref.startsWith('refs/remotes/')) {
      const name = ref.slice('refs/remotes/'.length);
      // origin/HEAD is a pointer to a branch, not one.
      if (!name.endsWith('/HEAD')) result.remote.push({ name, commit });
      continue;
    }
    if (!ref.startsWith('refs/heads/')) continue;
    const name = ref.slice('refs/heads/'.length);
    const current = head === '*';
    if (current) result.current = name;
    const ahead = /ahead (\d+)/.exec(track)?.[1];
    const behind = /behind (\d+)/.exec(track)?.[1];
    result.local.push({
      name,
      commit,
      current,
      ...(upstream ? { upstream } : {}),
      ...(ahead ? { ahead: Number(ahead) } : {}),
      ...(behind ? { behind: Number(behind) } : {}),
      subject,
      date,
    });
  }
  return result;
}
