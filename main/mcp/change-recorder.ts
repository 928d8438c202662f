/**
 * What the tool host records around a change a tool makes, so the owner can undo it: the files'
 * pre-images before, their state after, and for a git write the repository's refs and index.
 * The host hands each call its recorder (bound to the calling client); tools only say what they
 * are about to change. See change-journal.ts for what is kept and how it is grouped.
 */
import type { WriteOptions } from '../../adapter/contract/files.js';
import type { GitRun } from '../../adapter/contract/git.js';

/** Takes the pre-images of more paths, once git has said which it will write (a pull's incoming files). */
export type BeforeChange = (paths: readonly string[]) => Promise<void>;

export interface RepositoryChange {
  /** Paths (relative to the top level) the write may change as files. */
  paths?: readonly string[];
  /** Refs besides HEAD's branch it may move (refs/heads/new). */
  refs?: readonly string[];
}

export interface ChangeRecorder {
  /** Around a change to these absolute paths. */
  files<T>(paths: readonly string[], work: () => Promise<T>): Promise<T>;
  /**
   * For the tools whose writer hands each file over just before changing it (fs.write, fs.edit): the
   * writer's WriteOptions.beforeChange for this path, which takes its pre-image then.
   */
  beforeChange?(path: string): NonNullable<WriteOptions['beforeChange']>;
  /** Inside `files`' work: the sha256 of a file as the tool wrote it, so undo can tell a later edit its times would hide. */
  wrote?(path: string, sha256: string): void;
  /** Around a git write in this repository. */
  repository<T>(repo: { topLevel: string; run: GitRun }, change: RepositoryChange, work: (before: BeforeChange) => Promise<T>): Promise<T>;
}

/** For calls nothing is recorded for (the journal is off, or the tool changes nothing). */
export const NOT_RECORDED: ChangeRecorder = Object.freeze({
  files: <T>(_paths: readonly string[], work: () => Promise<T>) => work(),
  repository: <T>(_repo: unknown, _change: RepositoryChange, work: (before: BeforeChange) => Promise<T>) => work(async () => {}),
});
