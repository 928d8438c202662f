/**
 * Filesystem operations behind the seam. Paths arrive already resolved and allowed by the
 * filesystem policy; these functions only do the work and report failures structurally.
 */

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface DirEntry {
  name: string;
  type: EntryType;
  size?: number;
  mtime: string;
}

export interface TextFileRead {
  content: string;
  bytes: number;
  totalBytes: number;
  truncated: boolean;
  sha256: string;
}

export type WriteMode = 'create' | 'overwrite' | 'append';

export interface TextFileWrite {
  bytesWritten: number;
  created: boolean;
  sha256: string;
}

export interface FileOps {
  listDirectory(path: string, options: { limit: number; hide?: (name: string) => boolean }): Promise<{ entries: DirEntry[]; truncated: boolean }>;
  readTextFile(path: string, maxBytes: number): Promise<TextFileRead>;
  writeTextFile(path: string, content: string, mode: WriteMode, options?: { expectedSha256?: string }): Promise<TextFileWrite>;
  makeDirectory(path: string, recursive: boolean): Promise<{ created: boolean }>;
  move(source: string, destination: string, overwrite: boolean): Promise<void>;
  remove(path: string, recursive: boolean): Promise<{ type: EntryType }>;
}
