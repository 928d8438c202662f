/**
 * `git log -z --format=<FORMAT>`: fields separated by NUL within a commit, commits by NUL too
 * (-z), so each commit is FIELDS fields in a row. A message holds no NUL (git stops at one).
 */
import type { CommitInfo } from '../../contract/git.js';

/** Hash, parents, author, email, author date (strict ISO), subject, body. */
export const LOG_FORMAT = '%H%x00%P%x00%an%x00%ae%x00%aI%x00%s%x00%b';
const FIELDS = 7;

export function parseLog(output: Buffer, withBody: boolean): CommitInfo[] {
  const fields = output.toString('utf8').split('\0');
  const commits: CommitInfo[] = [];
  for (let i = 0; i + FIELDS - 1 < fields.length; i += FIELDS) {
    const [hash, parents, author, email, date, subject, body] = fields.slice(i, i + FIELDS) as [string, string, string, string, string, string, string];
    // -z puts the separator after a commit's last field; the next hash follows a newline git adds to %b.
    const commit: CommitInfo = { hash: hash.replace(/^\n/, ''), parents: parents ? parents.split(' ') : [], author, email, date, subject };
    if (withBody) commit.body = body.replace(/\n+$/, '');
    commits.push(commit);
  }
  return commits;
}
