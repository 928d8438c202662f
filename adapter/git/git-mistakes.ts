/**
 * git's refusals of what the caller asked (a branch that exists, one that does not, a path git
 * does not know, a commit during a conflict) as the contract's codes, with git's own words kept:
 * OS_ERROR is for what went wrong on this computer, not for a request to put right.
 */
import type { ErrorCode } from '../contract/errors.js';

const MISTAKES: ReadonlyArray<[RegExp, ErrorCode, string]> = [
  [/a branch named '.{1,255}' already exists/, 'ALREADY_EXISTS', 'pick another name, or git_switch to it'],
  [/invalid reference: |did not match any file\(s\) known to git|no such branch/, 'NOT_FOUND', 'git_branch_list names the branches'],
  [/pathspec '.{1,4096}' did not match any files/, 'NOT_FOUND', 'paths are taken literally (no wildcards); git_status lists what changed'],
  [
    /not a valid object name|bad revision|unknown revision/,
    'NOT_FOUND',
    'no such commit or branch (a repository with no commits yet has none): git_log and git_branch_list name them',
  ],
  [
    /unmerged files|resolve your current index first|you have not concluded your merge/i,
    'PRECONDITION_FAILED',
    'resolve the conflicts and git_add the files first',
  ],
];

/** The code and a hint for a refusal git gave, or null when it is not one of the caller's mistakes. */
export function gitMistake(stderr: string): { code: ErrorCode; hint: string } | null {
  for (const [pattern, code, hint] of MISTAKES) if (pattern.test(stderr)) return { code, hint };
  return null;
}
