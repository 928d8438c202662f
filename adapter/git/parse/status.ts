/**
 * `git status --porcelain=v2 --branch -z`: the branch headers, then one record per path
 * (1: changed, 2: renamed or copied with its origin in the next field, u: unmerged, ?: untracked).
 */
import type { FileChange, GitStatus, StatusEntry } from '../../contract/git.js';

const CHANGE: Readonly<Record<string, FileChange>> = { M: 'modified', A: 'added', D: 'deleted', R: 'renamed', C: 'copied', T: 'type-changed' };

export function parseStatus(output: Buffer, visible: (path: string) => boolean, maxEntries: number): GitStatus {
  const fields = output.toString('utf8').split('\0');
  const status: GitStatus = { branch: null, head: null, entries: [], total: 0, truncated: false, withheld: 0 };
  const add = (entry: StatusEntry) => {
    if (!visible(entry.path) || (entry.from !== undefined && !visible(entry.from))) return void status.withheld++;
    status.total++;
    if (status.entries.length >= maxEntries) status.truncated = true;
    else status.entries.push(entry);
  };
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field === '') continue;
    if (field.startsWith('# ')) {
      header(status, field.slice(2));
      continue;
    }
    const kind = field[0];
    if (kind === '?') add({ path: field.slice(2), untracked: true });
    else if (kind === '1') add(changed(field.split(' ', 2)[1]!, after(field, 8)));
    else if (kind === '2') add({ ...changed(field.split(' ', 2)[1]!, after(field, 9)), from: fields[++i] ?? '' });
    else if (kind === 'u') add({ path: after(field, 10), conflicted: true });
    // '!' (ignored) is not asked for.
  }
  return status;
}

function header(status: GitStatus, line: string): void {
  const space = line.indexOf(' ');
  const name = line.slice(0, space);
  const value = line.slice(space + 1);
  if (name === 'branch.oid') status.head = value === '(initial)' ? null : value;
  else if (name === 'branch.head') status.branch = value === '(detached)' ? null : value;
  else if (name === 'branch.upstream') status.upstream = value;
  else if (name === 'branch.ab') {
    const match = /^\+(\d+) -(\d+)$/.exec(value);
    if (match) {
      status.ahead = Number(match[1]);
      status.behind = Number(match[2]);
    }
  }
}

function changed(xy: string, path: string): StatusEntry {
  const staged = CHANGE[xy[0] ?? '.'];
  const unstaged = CHANGE[xy[1] ?? '.'];
  return { path, ...(staged ? { staged } : {}), ...(unstaged ? { unstaged } : {}) };
}

/** The rest of a record after `count` space-separated fields (a path may hold spaces). */
function after(record: string, count: number): string {
  let at = 0;
  for (let n = 0; n < count; n++) at = record.indexOf(' ', at) + 1;
  return record.slice(at);
}
