/**
 * git behind the seam: what a repository is (for the policy, through the PolicyPort) and the
 * typed operations the git tools ask for. The policy decides everything in a `GitRun` (the
 * program, its whole environment, the sandbox, the `-c` overrides, which paths a caller may
 * see); the adapter runs git with exactly that, argv only, and parses its porcelain output.
 *
 * For an adapter author: never pass a model's text where git reads an option (every path after
 * `--`, every revision checked with `--end-of-options`), never add a `-c` of your own, keep the
 * bounds (timeoutMs, maxBytes, maxEntries, the signal) and leave out of every answer a path
 * `visible` refuses (count it in `withheld`).
 */
import type { SandboxPlan } from './sandbox.js';

export type ConfigScope = 'system' | 'global' | 'local' | 'worktree' | 'command' | 'unknown';

/** One setting git reads in a repository, where it comes from. */
export interface GitConfigEntry {
  scope: ConfigScope;
  /** Where git read it (`file:.git/config`, `file:/home/me/.gitconfig`). */
  origin: string;
  /** As git prints it: section and name lower-cased, a subsection as written (filter.Foo.clean). */
  key: string;
  /** null for a bare key (`[core] bare`), which git reads as true. */
  value: string | null;
}

export interface GitRemote {
  name: string;
  /** The URLs git fetches from and pushes to, after the owner's url.*.insteadOf rewriting. */
  fetch: string[];
  push: string[];
}

/** What the policy looks at before any git operation in a repository. Probing runs nothing the repository names. */
export interface RepositoryFacts {
  /** Real path of the working tree's top level; null in a bare repository. */
  topLevel: string | null;
  /** Real paths: the repository's own git folder, and the shared one (they differ in a linked worktree). */
  gitDir: string;
  commonDir: string;
  config: GitConfigEntry[];
  /** Where git looks for hooks without core.hooksPath ($GIT_COMMON_DIR/hooks), and the active ones there (executable, a hook's name). */
  hooksDir: string;
  hooks: string[];
  /** Object folders borrowed from elsewhere (objects/info/alternates), as absolute paths. */
  alternates: string[];
  /** With `remotes: true` only. */
  remotes?: GitRemote[];
}

/** The helper plan the probe runs git with (outside the sandbox: it runs nothing the repository names). */
export interface GitProgram {
  file: string;
  env: Record<string, string>;
}

/** One git run as the policy planned it. */
export interface GitRun extends GitProgram {
  sandbox?: SandboxPlan;
  /** Where git runs: the repository's top level (for a clone, the folder the clone goes in). */
  cwd: string;
  /** `-c key=value` overrides placed before the subcommand. */
  config: readonly string[];
  /** A clone's --upload-pack: what git runs on the other side of a local source a tool could have written (main/policy/git-helper.ts). */
  uploadPack?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Whether a path (relative to the top level, "/"-separated) may appear in an answer. */
  visible(path: string): boolean;
}

export type FileChange = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied' | 'type-changed';

export interface StatusEntry {
  path: string;
  /** Where a renamed or copied file came from. */
  from?: string;
  staged?: FileChange;
  unstaged?: FileChange;
  untracked?: true;
  conflicted?: true;
}

export interface GitStatus {
  /** null when HEAD is detached. */
  branch: string | null;
  /** null before the first commit. */
  head: string | null;
  upstream?: string;
  ahead?: number;
  behind?: number;
  entries: StatusEntry[];
  /** Changed paths in all, shown or not (those withheld apart). */
  total: number;
  truncated: boolean;
  /** Paths left out because the filesystem policy protects them (secrets, filesystem.deny). */
  withheld: number;
}

export interface DiffFile {
  path: string;
  from?: string;
  change: FileChange;
  /** Lines added and removed; null for a binary file. */
  added: number | null;
  removed: number | null;
  /** The unified diff of this file; absent once the size budget is spent (added and removed still say how much changed). */
  patch?: string;
  /** Unmerged (a merge, rebase or cherry-pick stopped on it): its patch is git's combined diff against both sides, with the conflict markers; added and removed are null. */
  conflicted?: true;
}

export interface GitDiff {
  files: DiffFile[];
  /** Some patches were left out to stay within maxBytes. */
  truncated: boolean;
  withheld: number;
}

export type DiffRequest =
  | { kind: 'worktree' }
  | { kind: 'staged' }
  /** from..to; `to` omitted: from against the working tree. */
  | { kind: 'revisions'; from: string; to?: string };

export interface DiffOptions {
  diff: DiffRequest;
  paths: readonly string[];
  maxBytes: number;
  contextLines: number;
}

export interface CommitInfo {
  hash: string;
  parents: string[];
  author: string;
  email: string;
  /** ISO 8601, with the author's offset. */
  date: string;
  subject: string;
  /** The message after the subject line, when asked for. */
  body?: string;
}

export interface LogOptions {
  /** A revision or a range (main..feature); default HEAD. */
  revision?: string;
  paths: readonly string[];
  limit: number;
  skip: number;
  withBody: boolean;
}

export interface GitLog {
  commits: CommitInfo[];
  /** More commits match (ask again with skip). */
  more: boolean;
}

export interface ShowOptions {
  revision: string;
  /** With a path: that file's content at the revision, instead of the commit. */
  path?: string;
  /** The commit's diff limited to these (relative to the top level). */
  paths?: readonly string[];
  maxBytes: number;
  contextLines: number;
}

export type GitShow =
  | { kind: 'commit'; commit: CommitInfo & { body: string }; diff: GitDiff }
  /** `bytes`: how many were read (at most maxBytes); `size`: the file's at the revision. */
  | { kind: 'file'; path: string; revision: string; content: string; bytes: number; size: number; truncated: boolean; binary: boolean };

export interface BranchInfo {
  name: string;
  commit: string;
  current: boolean;
  upstream?: string;
  ahead?: number;
  behind?: number;
  subject: string;
  date: string;
}

export interface GitBranches {
  current: string | null;
  local: BranchInfo[];
  remote: Array<{ name: string; commit: string }>;
}

export interface CommitResult {
  commit: CommitInfo;
  branch: string | null;
  files: number;
  added: number;
  removed: number;
}

export interface PushResult {
  remote: string;
  branch: string;
  /** As git reports the ref: pushed, already up to date, or rejected (with git's reason). */
  status: 'pushed' | 'up-to-date' | 'rejected';
  /** old..new on the remote, for a push that moved it. */
  range?: string;
  reason?: string;
}

export interface PullResult {
  remote: string;
  branch: string;
  before: string | null;
  after: string;
  /** Changed paths, relative to the top level. */
  files: string[];
}

/** HEAD, the branch it names and the index, as the change journal records them around a git write. */
export interface RepositoryState {
  /** The branch HEAD names (refs/heads/x), or null when detached. */
  headRef: string | null;
  /** What HEAD points at; null before the first commit. */
  commit: string | null;
  /** The index as a tree; null when it holds a conflict. */
  index: string | null;
  /** Other refs the write touched (a new branch), and what they pointed at (null: none). */
  refs?: Record<string, string | null>;
}

/** Paths a pull or a clone would write, checked by the policy before any is written (throws to refuse). */
export type IncomingCheck = (paths: readonly string[]) => Promise<void>;

export interface GitOps {
  status(run: GitRun, options: { maxEntries: number; paths?: readonly string[] }): Promise<GitStatus>;
  diff(run: GitRun, options: DiffOptions): Promise<GitDiff>;
  log(run: GitRun, options: LogOptions): Promise<GitLog>;
  show(run: GitRun, options: ShowOptions): Promise<GitShow>;
  branches(run: GitRun): Promise<GitBranches>;
  /** Stages exactly these paths (relative to the top level; deletions too), after `check` saw every file that would be staged. */
  add(run: GitRun, paths: readonly string[], check: IncomingCheck): Promise<void>;
  unstage(run: GitRun, paths: readonly string[]): Promise<void>;
  /** Commits what is staged, after `check` saw every path it changes (before and after: a commit refused after is taken back); PRECONDITION_FAILED when nothing is. */
  commit(run: GitRun, message: string, check: IncomingCheck): Promise<CommitResult>;
  createBranch(run: GitRun, name: string, start?: string): Promise<{ name: string; commit: string }>;
  switchBranch(run: GitRun, name: string, options: { discardChanges: boolean }): Promise<{ branch: string; commit: string | null }>;
  restore(run: GitRun, paths: readonly string[], options: { source?: string; staged: boolean; worktree: boolean }): Promise<void>;
  /** The current branch to the branch of the same name on `remote`; never forced. */
  push(run: GitRun, remote: string): Promise<PushResult>;
  /** The same-named branch of `remote`, fast-forward only, after `check` saw every path it writes. */
  pull(run: GitRun, remote: string, check: IncomingCheck): Promise<PullResult>;
  /** Clones into `destination` (a new folder in run.cwd); removes what it made when it fails. */
  clone(
    run: GitRun,
    url: string,
    destination: string,
    options: { depth?: number; check: IncomingCheck },
  ): Promise<{ head: string | null; branch: string | null }>;
  state(run: GitRun, refs?: readonly string[]): Promise<RepositoryState>;
  /** Puts HEAD, its branch and the index back, each only while it still is as `after` says; the parts that were not are returned. */
  restoreState(run: GitRun, before: RepositoryState, after: RepositoryState): Promise<string[]>;
  /**
   * What a switch or a restore may change: paths differing between HEAD and `revision` (none
   * without one), and those with uncommitted changes; both limited to `paths` when given.
   */
  changedPaths(run: GitRun, options: { revision?: string; paths?: readonly string[] }): Promise<{ between: string[]; dirty: string[] }>;
  /** The branch HEAD names (main, also before its first commit), or null when HEAD is detached. */
  currentBranch(run: GitRun): Promise<string | null>;
}

/**
 * `text` with the user and password of every URL in it hidden (`https://***@host/...`, and in
 * git's scp-like form `***@host:path` where it carries a password): a token written into a remote
 * URL never reaches an answer. Whatever stands before the `@` goes, `/` and quotes included.
 */
export function hideUrlCredentials(text: string): string {
  return text.replace(/\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s@]+@/g, '$1***@').replace(/(^|[\s'"=(<])[^\s'"@:/]+:[^\s@/][^\s@]*@(?=[A-Za-z0-9.-]+:)/g, '$1***@');
}
