/** git.*: the typed git tools, each behind its own grant (docs/GIT.md says what each allows). */
import * as z from 'zod';
import { remoteEntryProblem } from '../../policy/git-remotes.js';
import { text } from './fields.js';

/** An allowed remote: "owner/repo" (GitHub), "host/owner/repo", an https:// or git@host: URL, or a local repository's absolute path. */
const remoteEntry = text.superRefine((value, ctx) => {
  const problem = remoteEntryProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const gitSchema = z.strictObject({
  /** git_status, git_diff, git_log, git_show, git_branch_list in repositories inside the roots. */
  read: z.boolean().default(false),
  /** git_add, git_unstage, git_commit, git_branch_create, git_switch, git_restore: local changes only, in writable roots. */
  write: z.boolean().default(false),
  /** git_push of the current branch (never forced) to these remotes only. */
  push: z.array(remoteEntry).default([]),
  /** git_pull --ff-only and git_clone from these remotes only. */
  pull: z.array(remoteEntry).default([]),
  /** The longest one git call may take. */
  maxRuntimeMs: z
    .number()
    .int()
    .min(1000)
    .max(3600 * 1000)
    .default(120_000),
});
