/** Schema pieces and texts shared by the git tools. */
import * as z from 'zod';
import type { CommitInfo, DiffFile, GitDiff, StatusEntry } from '../../../adapter/contract/git.js';
import { branchProblem, revisionProblem } from '../../policy/git-names.js';
import { lineSafe } from './line-safe.js';

export const repositoryInput = z
  .string()
  .min(1)
  .default('.')
  .describe('The repository, or a folder inside it: absolute, or relative to the first root (default: the first root)');

const checked = (problem: (text: string) => string | null) => (text: string, ctx: z.RefinementCtx) => {
  const why = problem(text);
  if (why) ctx.addIssue({ code: 'custom', message: why });
};

export const revisionInput = z.string().superRefine(checked(revisionProblem));
export const branchInput = z.string().superRefine(checked(branchProblem));

export const pathsInput = z
  .array(z.string().min(1).max(4096))
  .max(1000)
  .describe('Paths relative to the repository top level (or absolute), taken literally: "*.ts" is a file named *.ts');

const change = z.enum(['added', 'modified', 'deleted', 'renamed', 'copied', 'type-changed']);

export const statusEntryOutput = z.object({
  path: z.string(),
  from: z.string().optional(),
  staged: change.optional(),
  unstaged: change.optional(),
  untracked: z.literal(true).optional(),
  conflicted: z.literal(true).optional(),
});

export const diffOutput = z.object({
  files: z.array(
    z.object({
      path: z.string(),
      from: z.string().optional(),
      change,
      added: z.number().nullable().describe('Lines added; null for a binary file'),
      removed: z.number().nullable(),
      patch: z.string().optional().describe('Absent once maxBytes is spent: ask again with paths to see it'),
      conflicted: z
        .literal(true)
        .optional()
        .describe("Unmerged: the patch is git's combined diff against both sides, with the conflict markers; resolve them, then git_add the file"),
    }),
  ),
  truncated: z.boolean(),
  withheld: z.number().describe('Changed paths left out because the filesystem rules protect them (secrets, filesystem.deny)'),
});

export const commitOutput = z.object({
  hash: z.string(),
  parents: z.array(z.string()),
  author: z.string(),
  email: z.string(),
  date: z.string(),
  subject: z.string(),
  body: z.string().optional(),
});

const LETTER: Readonly<Record<string, string>> = { added: 'A', modified: 'M', deleted: 'D', renamed: 'R', copied: 'C', 'type-changed': 'T' };

/** `git status --short`-like lines: XY path. */
export function statusLines(entries: readonly StatusEntry[]): string[] {
  return entries.map((e) => {
    const xy = e.untracked ? '??' : e.conflicted ? 'UU' : `${e.staged ? LETTER[e.staged] : '.'}${e.unstaged ? LETTER[e.unstaged] : '.'}`;
    return `${xy} ${e.from !== undefined ? `${lineSafe(e.from)} -> ` : ''}${lineSafe(e.path)}`;
  });
}

/** The patches shown, then the files whose patch was left out, then what was withheld. */
export function diffText(diff: GitDiff): string {
  if (diff.files.length === 0 && diff.withheld === 0) return 'no changes';
  const shown = diff.files.filter((f) => f.patch !== undefined).map((f) => f.patch!.replace(/\n$/, ''));
  const rest = diff.files.filter((f) => f.patch === undefined).map(fileLine);
  const parts = [...shown];
  if (rest.length > 0)
    parts.push(`${rest.length} more changed file${rest.length === 1 ? '' : 's'} without patch (over maxBytes; ask with paths):\n${rest.join('\n')}`);
  if (diff.withheld > 0) parts.push(`${diff.withheld} changed path${diff.withheld === 1 ? '' : 's'} withheld (protected by the filesystem rules)`);
  return parts.join('\n');
}

function fileLine(f: DiffFile): string {
  if (f.conflicted) return `conflicted ${lineSafe(f.path)} (unmerged)`;
  const counts = f.added === null ? 'binary' : `+${f.added} -${f.removed}`;
  return `${f.change} ${f.from !== undefined ? `${lineSafe(f.from)} -> ` : ''}${lineSafe(f.path)} (${counts})`;
}

export function commitLine(c: CommitInfo): string {
  return `${c.hash.slice(0, 12)} ${c.date.slice(0, 10)} ${c.author}: ${c.subject}`;
}
