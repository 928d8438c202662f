/**
 * Filesystem operations behind the seam. Every path arrives as a GuardedPath: the filesystem
 * policy allowed it, and the operation re-checks what it actually opened through `confirm`
 * before using it, so a directory swapped for a symlink (by another process, between the
 * policy's check and the open) cannot carry a read or a write outside the roots.
 *
 * For an adapter author (remote, container): implement FileOps on the machine you act on. Open
 * each path, call `confirm` with the real path of what was opened before reading or writing it,
 * write atomically where the doc says so, and keep every bound the options give (bytes, lines,
 * matches, entries, the signal). Patches arrive as text: parse them, let `guards.resolve` check
 * every path first, and apply all or nothing.
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
  /** fs.edit and fs.patch: work out and check everything, answer what would change, write nothing. */
  dryRun?: boolean;
  /**
   * Told just before an existing file changes, once the write's own checks passed (the hard-link
   * refusal among them): `entry` names it through its checked folder; `replacing` when a rename
   * is about to put a new file in its place (the old inode then lives on only in a link the
   * callee made), else it is about to be changed in place.
   */
  beforeChange?: (entry: string, file: ExistingFile, replacing: boolean) => Promise<void>;
  /** Told the sha256 of the file a create or overwrite put in place, by its path (the undo journal's record of a file holding only what the call sent; not an append). */
  wrote?: (path: string, sha256: string) => void;
}

/** What an existing file was when a write checked it (an lstat's fields). */
export interface ExistingFile {
  ino: number;
  nlink: number;
  uid: number;
  mode: number;
  size: number;
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

/** A rectangle in an image's own pixels. */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How fs.read wants an image: fitted within these limits (never upscaled), optionally a region first. */
export interface ImageReadOptions {
  maxWidth: number;
  maxHeight: number;
  maxPixels: number;
  region?: PixelRect;
  /** Encoding of the answer; default PNG for PNG and GIF, JPEG for photos. */
  format?: 'png' | 'jpeg';
  signal?: AbortSignal;
}

export interface ImageFileRead {
  kind: 'image';
  /** What the file is, by its magic bytes ('pdf': one page rendered, `page` of `totalPages`). */
  sourceFormat: 'png' | 'jpeg' | 'gif' | 'webp' | 'heif' | 'pdf';
  page?: { page: number; totalPages: number };
  data: Uint8Array;
  mimeType: 'image/png' | 'image/jpeg';
  format: 'png' | 'jpeg';
  width: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
  /** The area of the original that was read (the whole image without a region). */
  area: PixelRect;
  /** Size of the file. */
  totalBytes: number;
}

export interface PdfFileRead {
  kind: 'pdf';
  totalPages: number;
  /** Each page's text layer, in order; an empty text: the page has none (a scanned page). */
  pages: Array<{ page: number; text: string }>;
  firstPage: number;
  lastPage: number;
  /** Set when the range asked for goes on past what fitted in maxBytes. */
  nextPage?: number;
  totalBytes: number;
}

/** A Word document as Markdown-ish text (headings, lists, tables), cut to lines and maxBytes like text. */
export interface DocxFileRead {
  kind: 'docx';
  content: string;
  startLine: number;
  endLine: number;
  totalLines: number;
  /** Set when lines past endLine were not returned. */
  nextLine?: number;
  /** What the converter could not carry over (unknown styles, images), as counted messages. */
  warnings: string[];
  totalBytes: number;
}

/** A sheet's name and the A1 range its cells span ("" when it is empty). */
export interface SheetInfo {
  name: string;
  dimension: string;
}

/** A bounded block of one sheet (of a workbook, or a CSV file read as a table): rows of cell text, from the A1 range `range`. */
export interface XlsxFileRead {
  kind: 'xlsx' | 'csv';
  sheets: SheetInfo[];
  sheet: string;
  /** The range returned (inside the one asked for). */
  range: string;
  rows: Array<{ row: number; cells: string[] }>;
  /** Column letters of `cells`, in order. */
  columns: string[];
  /** Set when the range asked for goes on past what fitted: the rest of its rows. */
  nextRange?: string;
  /** Set when the range asked for is wider than one answer's columns: the columns left out. */
  moreColumns?: string;
  totalBytes: number;
}

/** A presentation's slide text, in slide order. */
export interface PptxFileRead {
  kind: 'pptx';
  totalSlides: number;
  slides: Array<{ slide: number; text: string }>;
  firstSlide: number;
  lastSlide: number;
  nextSlide?: number;
  totalBytes: number;
}

export type OfficeFileRead = DocxFileRead | XlsxFileRead | PptxFileRead;

export type FileReadAs = ({ kind: 'text' } & TextFileRead) | ImageFileRead | PdfFileRead | OfficeFileRead;

/** fs.read's options for any format: text's, an image's, and a PDF's page range (1-based, inclusive). */
export interface ReadAsOptions extends ReadOptions {
  image: ImageReadOptions;
  /** PDF pages, or a presentation's slides. */
  pages?: { first: number; last?: number };
  /** PDF: render the (first) page asked for as an image instead of reading text. */
  pdfAs?: 'text' | 'image';
  /** Spreadsheets: the sheet (name, or 1-based number) and an A1 range in it; a range on a text file reads it as CSV. */
  sheet?: string;
  range?: string;
}

/** Of an entry itself (a symlink is described, not followed). */
export interface EntryStat {
  type: EntryType;
  size: number;
  /** Permission bits in octal, e.g. "0644". */
  mode: string;
  mtime: string;
  links: number;
  sha256?: string;
}

/** One exact replacement of fs.edit. */
export interface TextEdit {
  oldText: string;
  newText: string;
  replaceAll?: boolean;
}

export interface EditResult {
  /** Of the file as written (with dryRun: as it would be). */
  sha256: string;
  replacements: number;
  /** 0 with dryRun. */
  bytesWritten: number;
  diff: string;
}

/** Which entries a search or find walks past, as ripgrep decides (ignore files, hidden names, globs). */
export interface FilterOptions {
  hidden: boolean;
  gitignore: boolean;
  include: readonly string[];
  exclude: readonly string[];
}

export interface SearchOptions extends FilterOptions {
  pattern: string;
  regex: boolean;
  caseSensitive: boolean;
  contextLines: number;
  maxMatches: number;
  /** At most this many matches from one file (ChatGPT's search wants which files match, not every line); no limit by default. */
  maxMatchesPerFile?: number;
  /** Of matched text (lines and context) in the answer. */
  maxBytes: number;
  /** Larger files are skipped. */
  maxFileBytes: number;
  /** ripgrep's absolute path, or null for the built-in walk. */
  ripgrep: string | null;
  signal?: AbortSignal;
}

export interface LineMatch {
  line: number;
  /** 1-based column (in UTF-16 units) of the first match on the line. */
  column: number;
  text: string;
  before?: string[];
  after?: string[];
}

export interface SearchMatch extends LineMatch {
  /** Path from the searched directory, "/" separated. */
  path: string;
}

export interface SearchResult {
  matches: SearchMatch[];
  truncated: boolean;
  filesWithMatches: number;
  engine: 'ripgrep' | 'builtin';
}

export interface FindOptions extends Omit<FilterOptions, 'include'> {
  /** A glob: without "/" it matches names at any depth, with "/" the path from the directory. */
  pattern: string;
  type: 'file' | 'directory' | 'any';
  maxResults: number;
  /** Matches to skip first (paging: the walk's order is stable). */
  offset?: number;
  signal?: AbortSignal;
}

export interface FoundEntry {
  path: string;
  type: 'file' | 'directory';
  size?: number;
  mtime: string;
}

/**
 * What a patch asks for, whichever format it came in (the apply_patch envelope OpenAI models
 * emit, or a unified diff): per file, add with content, delete, or update by chunks (optionally
 * moving the file). Paths are as written in the patch; the policy resolves them.
 */
export type PatchOp =
  | { kind: 'add'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo?: string; chunks: PatchChunk[]; finalNewline?: FinalNewline };

export interface PatchChunk {
  /** `@@ <text>` headers before the chunk: lines to find first, in order (a class, a function). */
  anchors: string[];
  /** Context and removed lines, in file order. */
  oldLines: string[];
  /** Context and added lines, in file order. */
  newLines: string[];
  /** Each context line as [index in oldLines, index in newLines]: the file's own version of it is kept. */
  context: Array<[number, number]>;
  /** `*** End of File`: the chunk is at the end of the file. */
  endOfFile: boolean;
  /** Line in the patch text where the chunk starts, for messages. */
  patchLine: number;
}

/**
 * How an updated file ends: apply_patch always ends it with a newline ('add', the default); a
 * unified diff says "\ No newline at end of file" for a side without one, or, when its hunks
 * do not say, leaves the end as it was ('keep').
 */
export type FinalNewline = 'add' | 'remove' | 'keep';

export interface PatchTarget {
  op: PatchOp;
  /** The file the operation names, allowed for writing. */
  file: GuardedPath;
  /** For an update with "Move to": the new place, allowed for writing. */
  moveTo?: GuardedPath;
}

export interface PatchFileResult {
  path: string;
  action: 'added' | 'updated' | 'moved' | 'deleted';
  destination?: string;
  sha256?: string;
  diff: string;
}

export interface PatchGuards {
  /** The policy's answer for every operation's paths (throws to refuse the whole patch). */
  resolve(ops: PatchOp[]): Promise<PatchTarget[]>;
  /** Holds whatever the caller locks around reading and writing these files. */
  lock(targets: readonly PatchTarget[], apply: () => Promise<void>): Promise<void>;
}

export interface FileOps {
  /** The entries sorted by name from `offset` (default 0), at most `limit`; `total` counts every shown name. */
  listDirectory(
    dir: GuardedPath,
    options: { limit: number; offset?: number; hide?: (name: string) => boolean },
  ): Promise<{ entries: DirEntry[]; truncated: boolean; total: number }>;
  readTextFile(file: GuardedPath, options: ReadOptions): Promise<TextFileRead>;
  /** Reads the file as what its magic bytes say it is: an image (scaled to fit `image`), a PDF's text (`pages`), or UTF-8 text. */
  readFileAs(file: GuardedPath, options: ReadAsOptions): Promise<FileReadAs>;
  writeTextFile(file: GuardedPath, content: string, mode: WriteMode, options?: WriteOptions): Promise<TextFileWrite>;
  makeDirectory(dir: GuardedPath, recursive: boolean): Promise<{ created: boolean }>;
  /** Moves the entry itself (a symlink is moved as a link). */
  move(source: GuardedPath, destination: GuardedPath, overwrite: boolean): Promise<void>;
  /** Removes the entry itself (a symlink is removed, never its target). */
  remove(entry: GuardedPath, recursive: boolean): Promise<{ type: EntryType }>;
  /** A file with these bytes (binary), written atomically; ALREADY_EXISTS if the name is taken, unless `replace`. */
  createFile(file: GuardedPath, data: Uint8Array, options?: WriteOptions & { replace?: boolean }): Promise<{ bytesWritten: number; sha256: string }>;
  statEntry(entry: GuardedPath, options?: { sha256?: boolean; signal?: AbortSignal }): Promise<EntryStat>;
  /** Exact replacements in one file, all or nothing, written atomically. */
  editTextFile(file: GuardedPath, edits: readonly TextEdit[], options: WriteOptions & { maxBytes: number }): Promise<EditResult>;
  /** A patch (apply_patch format or unified diff) across files, all or nothing; every path goes through `guards.resolve` first. */
  applyPatch(text: string, guards: PatchGuards, options: WriteOptions & { maxBytes: number }): Promise<PatchFileResult[]>;
  searchFiles(dir: GuardedPath, options: SearchOptions): Promise<SearchResult>;
  findEntries(dir: GuardedPath, options: FindOptions): Promise<{ entries: FoundEntry[]; truncated: boolean }>;
}
