/**
 * What a model may pass where git reads a name: a revision, a branch name, a remote name. Each
 * is checked before git sees it, so none can be read as an option or reach outside what the
 * tool means (`--upload-pack=...`, `@{-1}` tricks aside, a name is a name). Pure.
 */

/** Revisions: names, hashes, ranges (a..b, a...b), ancestry (HEAD~2, main^), rev:path is not one. */
const REVISION = /^[A-Za-z0-9_./@{}~^-]+$/;
/** Branch names as git-check-ref-format(1) allows them, minus what only confuses (a leading "-", "@"). */
const BRANCH = /^(?![-.])(?!.*(?:\.\.|@\{|\/\/|\/\.|\.lock\/|\.lock$|\/$|\.$))[A-Za-z0-9._/-]+$/;
const REMOTE = /^(?!-)[A-Za-z0-9._-]+$/;

export function revisionProblem(revision: string): string | null {
  if (revision.length === 0 || revision.length > 256) return 'a revision is 1 to 256 characters';
  if (revision.startsWith('-')) return 'a revision cannot start with "-"';
  if (!REVISION.test(revision)) return 'a revision is a branch, tag or commit name (letters, digits, / . _ - ~ ^ @ { }), or a range like main..feature';
  return null;
}

export function branchProblem(name: string): string | null {
  if (name.length === 0 || name.length > 200) return 'a branch name is 1 to 200 characters';
  if (name === 'HEAD' || name === '@' || !BRANCH.test(name))
    return 'a branch name uses letters, digits, / . _ -, does not start with "-" or end with "/", ".", ".lock", and has no "..", "//" or "@{"';
  return null;
}

export function remoteNameProblem(name: string): string | null {
  if (name.length === 0 || name.length > 100 || !REMOTE.test(name)) return 'a remote is named like origin: letters, digits, . _ -, not starting with "-"';
  return null;
}
