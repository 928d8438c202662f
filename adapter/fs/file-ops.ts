import type { EditResult } from './edit-text.js';
import type { PatchFileResult, PatchGuards } from './patch/commit-patch.js';
import type { FindOptions, FoundEntry } from './search/find-entries.js';
import type { SearchOptions, SearchResult } from './search/search-files.js';
import type { EntryStat } from './stat-entry.js';
import type { TextEdit } from './text-edits.js';

/**
 * Filesystem operations behind the seam. Every path arrives as a GuardedPath: the filesystem
 * policy allowed it, and the operation re-checks what it actually opened through `confirm`
 * before using it, so a directory swapped for a symlink (by another process, between the
 * policy's check and the open) cannot carry a read or a write outside the roots.
 */

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface DirEntry {
  name: string;
  type: EntryType;
  size?: number;
  mtime: string;
}

/** A path the filesystem policy allowed, with the check to repeat on what was really opened. */
export interface GuardedPath {
  /** The path to operate on: the real path the policy found (for a new path, the real parent plus the new names). */
  readonly path: string;
  /**
   * Throws the policy's denial unless the object now really at `realPath` (the kernel's view
   * of an opened descriptor, or the opened directory plus the entry name) may be used for the
   * access that was checked. Synchronous and free of I/O.
   */
  confirm(realPath: string): void;
}

export interface TextFileRead {
  content: string;
  bytes: number;
  /** Size of the file (as seen when it was opened). */
  totalBytes: number;
  truncated: boolean;
  /** sha256 of the whole file, when the whole file was read (not truncated). */
  sha256?: string;
  /** Lines in the file, when the whole file was read or scanned. */
  totalLines?: number;
  /** With a line range: the first and last line returned. */
  startLine?: number;
  endLine?: number;
}

export type WriteMode = 'create' | 'overwrite' | 'append';

export interface WriteOptions {
  /** Write only if the current content has this sha256. */
  expectedSha256?: string;
  /** Whether a mismatch may say what the current sha256 is, and an append the file's (only when the caller may read). */
  revealHash?: boolean;
  /** Write to a file that has other hard links (they would see the change). Default false. */
  allowHardLinks?: boolean;
  signal?: AbortSignal;
}

export interface TextFileWrite {
  bytesWritten: number;
  created: boolean;
  /** Of the file as written; absent after an append without revealHash (it would tell the earlier content). */
  sha256?: string;
}

export interface ReadOptions {
  maxBytes: number;
  /** 1-based, inclusive; the file is scanned to count its lines (up to a bound). */
  startLine?: number;
  endLine?: number;
  signal?: AbortSignal;
}

export interface FileOps {
  listDirectory(dir: GuardedPath, options: { limit: number; hide?: (name: string) => boolean }): Promise<{ entries: DirEntry[]; truncated: boolean }>;
  readTextFile(file: GuardedPath, options: ReadOptions): Promise<TextFileRead>;
  writeTextFile(file: GuardedPath, content: string, mode: WriteMode, options?: WriteOptions): Promise<TextFileWrite>;
  makeDirectory(dir: GuardedPath, recursive: boolean): Promise<{ created: boolean }>;
  /** Moves the entry itself (a symlink is moved as a link). */
  move(source: GuardedPath, destination: GuardedPath, overwrite: boolean): Promise<void>;
  /** Removes the entry itself (a symlink is removed, never its target). */
  remove(entry: GuardedPath, recursive: boolean): Promise<{ type: EntryType }>;
  /** A new file with these bytes (binary), written atomically; ALREADY_EXISTS if the name is taken. */
  createFile(file: GuardedPath, data: Uint8Array): Promise<{ bytesWritten: number; sha256: string }>;
  statEntry(entry: GuardedPath, options?: { sha256?: boolean; signal?: AbortSignal }): Promise<EntryStat>;
  /** Exact replacements in one file, all or nothing, written atomically. */
  editTextFile(file: GuardedPath, edits: readonly TextEdit[], options: WriteOptions & { maxBytes: number }): Promise<EditResult>;
  /** A patch (apply_patch format or unified diff) across files, all or nothing; every path goes through `guards.resolve` first. */
  applyPatch(text: string, guards: PatchGuards, options: WriteOptions & { maxBytes: number }): Promise<PatchFileResult[]>;
  searchFiles(dir: GuardedPath, options: SearchOptions): Promise<SearchResult>;
  findEntries(dir: GuardedPath, options: FindOptions): Promise<{ entries: FoundEntry[]; truncated: boolean }>;
}
