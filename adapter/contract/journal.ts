/**
 * The change journal behind "undo what the model changed": before a tool changes a path, what
 * the path was (a pre-image); after, what the change left (a stamp, so undo can tell a later
 * edit by someone else from the model's own); around a git write, the repository's refs and
 * index. Records are grouped ("these changes": one client's calls close together in time, as
 * the tool host decides) and kept within a byte bound in the app's data folder, owner-only.
 *
 * For an adapter author: keep every byte and mode of a pre-image, or say it was not kept and why;
 * never overwrite, on undo, a path whose state differs from the stamp (report the conflict);
 * write only through the GuardedPath the owner's policy gives for each path.
 */
import type { ExistingFile, GuardedPath } from './files.js';
import type { RepositoryState } from './git.js';

/** How much of a directory a pre-image keeps: its mode only, or everything in it (a delete or a move takes it away). */
export type CaptureDepth = 'shallow' | 'tree';

export interface JournalPaths {
  paths: readonly string[];
  depth: CaptureDepth;
  /** The writer tells `handOver` before it changes each of these that is a file: their pre-images are taken then (a file it replaces by a rename, by a hard link). */
  handover?: boolean;
  /**
   * Whether the owner's rules protect a path (a secret, filesystem.deny): its bytes are never
   * copied into the journal. The tools refuse to change such a file, also inside a folder they
   * delete or move, but that is found after the folder's pre-image was taken.
   */
  secret?: (path: string) => boolean;
}

/** `damaged`: its files cannot be read (a crash while it was made): it cannot be shown or undone, and is dropped (oldest first, as any group) to make room. */
export type GroupState = 'open' | 'undone' | 'partly undone' | 'damaged';

export interface GroupSummary {
  id: string;
  /** Who made the changes (an OAuth client's name, "bearer token", "local"). */
  client: string;
  startedAt: string;
  lastAt: string;
  /** Tools that made the changes, in order of first use. */
  tools: string[];
  /** Paths changed. */
  files: number;
  /** Repositories whose refs or index changed. */
  repositories: number;
  /** Paths whose pre-image was not kept (too large for the bound), which undo cannot restore. */
  notKept: number;
  state: GroupState;
  bytes: number;
}

/** A group dropped to keep the journal within its bound. */
export interface DroppedGroup {
  id: string;
  client: string;
  startedAt: string;
  files: number;
  droppedAt: string;
}

export type PathChange = 'created' | 'modified' | 'deleted' | 'replaced';

export interface ChangedPath {
  path: string;
  change: PathChange;
  /** What undo does: what the path was before. */
  was: 'nothing' | 'file' | 'symlink' | 'directory';
  kept: boolean;
  /** Why the pre-image was not kept. */
  why?: string;
  /** A folder put back in part: what inside it was not kept (its path inside the folder, and why), and is not put back. */
  partly?: string[];
  /**
   * A file's or folder's permission bits, where the model's change left them other than they were
   * (octal, as chmod takes them: '755', '4755'); undo puts `before` back. A change of the mode
   * alone has no diff.
   */
  mode?: { before: string; after: string };
  /** For text files: what undo would change, as a unified diff from now to before (bounded). */
  diff?: string;
  /** Someone changed it after the model's last change: undo will leave it as it is. */
  changedSince?: true;
}

export interface RepositoryChangeInfo {
  path: string;
  tools: string[];
  before: RepositoryState;
  after: RepositoryState;
}

export interface GroupDetail extends GroupSummary {
  changes: ChangedPath[];
  repositoryChanges: RepositoryChangeInfo[];
  /** The outcome of an undo already applied. */
  undo?: UndoOutcome;
}

export interface UndoOutcome {
  appliedAt: string;
  restored: string[];
  /** Changed since the model's change, by the owner or another program: left as they are. */
  conflicts: Array<{ path: string; why: string }>;
  /**
   * Not restorable: the pre-image was not kept, or the policy refuses the path now. `retry`: it
   * failed while undo put it back (a folder the owner made read-only, a full disk) and was left as
   * it was; another apply of the group tries these paths again, each compared with how this undo
   * left it (`left`, the journal's stamp).
   */
  skipped: Array<{ path: string; why: string; retry?: true; left?: unknown }>;
  /**
   * Put back, but not quite as it was (a setuid or setgid bit left off a file undo could not give
   * back to its owner); one starting with NOT_PUT_BACK left out part of it (a folder's fifo, the
   * entries of a folder too large to keep).
   */
  notes?: Array<{ path: string; why: string }>;
  repositories: Array<{ path: string; left: string[] }>;
  /** When the paths that failed were last tried again. */
  retriedAt?: string;
}

export const NOT_PUT_BACK = 'not put back: ';

/** Whether an undo left anything as it was, or put anything back without all of it. */
export function undonePartly(outcome: UndoOutcome): boolean {
  return (
    outcome.conflicts.length > 0 ||
    outcome.skipped.length > 0 ||
    (outcome.notes ?? []).some((note) => note.why.startsWith(NOT_PUT_BACK)) ||
    outcome.repositories.some((repository) => repository.left.length > 0)
  );
}

export interface UndoGuards {
  /** The owner's policy for a path undo would write (throws to refuse it). */
  resolve(path: string): Promise<GuardedPath>;
  /** Puts a repository's refs and index back; the parts that had moved since are returned (and left). */
  repository(topLevel: string, before: RepositoryState, after: RepositoryState): Promise<string[]>;
}

export interface ChangeJournal {
  /** A new group; its id. */
  open(client: string): Promise<string>;
  /** Whether a group still takes new calls (it exists, no undo of it began, and it holds less than half the bound). A call under way when the undo began records on; what the undo did not read stays undoable (in another group). */
  isOpen(id: string): boolean;
  /** Pre-images of paths the group has not seen yet, taken before a change. */
  before(id: string, tool: string, request: JournalPaths): Promise<void>;
  /** A file of a `handover` request, just before the writer changes it (WriteOptions.beforeChange); a file never handed over is left unrecorded, as unchanged. */
  handOver(id: string, tool: string, path: string, entry: string, file: ExistingFile, replacing: boolean): Promise<void>;
  /**
   * Stamps of paths after a change (and of recorded folders holding them). `written`: the sha256
   * of files as the tool wrote them, by path (undo compares bytes where times could hide an edit).
   */
  after(id: string, tool: string, paths: readonly string[], written?: ReadonlyMap<string, string>): Promise<void>;
  repository(id: string, tool: string, topLevel: string, before: RepositoryState, after: RepositoryState): Promise<void>;
  list(): Promise<{ groups: GroupSummary[]; dropped: DroppedGroup[] }>;
  show(id: string): Promise<GroupDetail>;
  apply(id: string, guards: UndoGuards): Promise<UndoOutcome>;
}
