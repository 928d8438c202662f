/**
 * fs.* tools. Every path goes through the one filesystem policy, and the adapter then works
 * on the resolved real path, never on the caller's text, re-confirming what it opened
 * (GuardedPath), so what was checked is what is used.
 */
import * as z from 'zod';
import { adapterError } from '../../../adapter/contract/errors.js';
import {
  dryRunInput,
  entryTypeOutput as entryType,
  exclusive,
  pathInput as path,
  pathTarget,
  recorded,
  sha256Input as sha256,
  shared,
  writeOptions,
} from './fs-common.js';
import { imageAnswer, imageInput, imageOptions, imageOutput, pagesInput, parsePages, pdfAnswer, pdfOutput } from './fs-read-formats.js';
import { docxAnswer, docxOutput, officeInput, pptxAnswer, pptxOutput, xlsxAnswer, xlsxOutput } from './fs-read-office.js';
import type { ComputerAdapter } from '../../../adapter/contract/computer-adapter.js';
import type { ResolvedPath } from '../../policy/filesystem.js';
import { defineTool, DESTRUCTIVE, IDEMPOTENT_WRITE, READ_ONLY } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { lineSafe } from './line-safe.js';

const LIST_LIMIT = 1000;

export const fsList = defineTool({
  name: 'fs.list',
  title: 'List a directory',
  description: `List the entries of one directory inside the allowed roots, sorted by name, one line each: "name/" for a folder, "name  size" for a file (details: true adds modification times). Without path, the first allowed root. At most ${LIST_LIMIT} entries a page: offset pages on. Protected secret files are not shown.`,
  input: z.object({
    path: path.optional().describe('The directory; default: the first allowed root'),
    offset: z.number().int().min(0).default(0).describe('Entries to skip (the nextOffset of the previous page)'),
    details: z.boolean().default(false).describe('Also show each entry’s modification time in the text'),
  }),
  output: z.object({
    path: z.string(),
    entries: z.array(z.object({ name: z.string(), type: entryType, size: z.number().optional(), mtime: z.string() })),
    truncated: z.boolean(),
    total: z.number().int().describe('Entries in the directory'),
    nextOffset: z.number().int().optional().describe('Set when more entries follow: pass it as offset'),
  }),
  payload: ['entries'],
  annotations: READ_ONLY,
  grant: GRANT.filesRead,
  target: (args) => ({ path: args.path ?? '.' }),
  async run(args, { adapter, policy }) {
    // "." is the first root: relative paths start there.
    const dir = await policy.filesystem.resolve(args.path ?? '.', 'read', 'fs.list');
    const hide = (name: string) => policy.filesystem.isProtectedName(name, dir);
    const { offset } = args;
    const listed = await policy.fsLock.run([shared(dir.path)], () => adapter.files.listDirectory(dir, { limit: LIST_LIMIT, offset, hide }));
    const { entries, truncated, total } = listed;
    const nextOffset = truncated ? offset + entries.length : undefined;
    const when = (e: { mtime: string }) => (args.details ? `  ${e.mtime}` : '');
    const lines = entries.map((e) => {
      const name = lineSafe(e.name);
      return e.type === 'directory' ? `${name}/${when(e)}` : e.type === 'file' ? `${name}  ${e.size}${when(e)}` : `${name}  (${e.type})${when(e)}`;
    });
    const range = offset || truncated ? ` (${offset + 1}-${offset + entries.length} shown)` : '';
    const more = nextOffset === undefined ? '' : `\n[more: fs.list {"path":${JSON.stringify(args.path ?? dir.path)},"offset":${nextOffset}}]`;
    const text = `${dir.path}: ${total} entr${total === 1 ? 'y' : 'ies'}${range}, sizes in bytes${lines.length ? `\n${lines.join('\n')}` : ''}${more}`;
    return { structured: { path: dir.path, entries, truncated, total, ...(nextOffset === undefined ? {} : { nextOffset }) }, text };
  },
});

export const fsRead = defineTool({
  name: 'fs.read',
  title: 'Read a file',
  description:
    'Read a file inside the allowed roots; its first bytes decide how. UTF-8 text: at most maxBytes (capped by the server limit) and whether it was truncated; when the whole file was read, sha256 is its hash: pass it as expectedSha256 to fs.write to avoid overwriting a newer edit. ' +
    'An image (PNG, JPEG, GIF first frame, WebP, HEIC, AVIF): the image itself, scaled like screen.capture (region reads part of it at full detail), with its original size and token cost. ' +
    'A PDF: the text of its pages (pages: "2-5"), as far as maxBytes goes, and the page to read on from; as: "image" renders a page. ' +
    'Word (DOCX): Markdown text (headings, lists, tables), paged by startLine/endLine. Excel (XLSX): a table of one sheet (sheet, range "A1:D50"), with the sheet list; range on a CSV file reads it as a table. PowerPoint (PPTX): slide text in order (pages: slides).',
  input: z.object({
    path,
    maxBytes: z.number().int().positive().optional().describe('Read at most this many bytes'),
    startLine: z.number().int().positive().optional().describe('First line to return (1-based); with endLine, pages through a large file'),
    endLine: z.number().int().positive().optional().describe('Last line to return (inclusive)'),
    ...imageInput,
    pages: pagesInput,
    ...officeInput,
  }),
  output: z.object({
    path: z.string(),
    content: z.string(),
    bytes: z.number(),
    totalBytes: z.number(),
    truncated: z.boolean(),
    sha256: z.string().optional().describe('sha256 of the whole file; only when the whole file was read'),
    totalLines: z.number().optional().describe('Lines in the file, when the whole file was read or scanned'),
    startLine: z.number().optional(),
    endLine: z.number().optional().describe('Last line returned (with a line range)'),
    image: imageOutput,
    pdf: pdfOutput,
    docx: docxOutput,
    xlsx: xlsxOutput,
    pptx: pptxOutput,
  }),
  payload: ['content'],
  annotations: READ_ONLY,
  grant: GRANT.filesRead,
  target: pathTarget,
  async run(args, { adapter, policy }, signal, call) {
    const file = await policy.filesystem.resolve(args.path, 'read', 'fs.read');
    const maxBytes = policy.sizes.readBytes(args.maxBytes);
    const range = { ...(args.startLine === undefined ? {} : { startLine: args.startLine }), ...(args.endLine === undefined ? {} : { endLine: args.endLine }) };
    const image = imageOptions(args, call.budget);
    const pages = parsePages(args.pages);
    const office = { ...(args.sheet === undefined ? {} : { sheet: args.sheet }), ...(args.range === undefined ? {} : { range: args.range }) };
    const read = await policy.fsLock.run([shared(file.path)], () =>
      adapter.files.readFileAs(file, { maxBytes, signal, ...range, image, ...(pages ? { pages } : {}), ...office, ...(args.as ? { pdfAs: args.as } : {}) }),
    );
    if (read.kind === 'image') return imageAnswer(file.path, read);
    if (read.kind === 'pdf') return pdfAnswer(file.path, read, pages?.last);
    if (read.kind === 'docx') return docxAnswer(file.path, read);
    if (read.kind === 'pptx') return pptxAnswer(file.path, read, pages?.last);
    if (read.kind !== 'text') return xlsxAnswer(file.path, read); // a workbook's sheet, or CSV as a table
    const { kind: _text, ...text } = read;
    return { structured: { path: file.path, ...text }, text: readSummary(text) };
  },
});

function readSummary(read: {
  content: string;
  bytes: number;
  totalBytes: number;
  truncated: boolean;
  startLine?: number;
  endLine?: number;
  totalLines?: number;
}): string {
  const lines = read.totalLines === undefined ? '' : ` of ${read.totalLines} lines`;
  if (read.startLine !== undefined) {
    const note = `[lines ${read.startLine}-${read.endLine}${lines}${read.truncated ? '; cut at maxBytes' : ''}]`;
    return `${read.content}\n\n${note}`;
  }
  return read.truncated ? `${read.content}\n\n[truncated: showed ${read.bytes} of ${read.totalBytes} bytes; read on with startLine/endLine]` : read.content;
}

export const fsWrite = defineTool({
  name: 'fs.write',
  title: 'Write a text file',
  description:
    'Write UTF-8 text to a file inside a writable root. mode "overwrite" (default) and "create" replace the file atomically (a failure leaves the old file intact); "create" fails if the file exists; "append" adds to the end. With expectedSha256 (from fs.read) the write only happens if the file is unchanged.',
  input: z.object({
    path,
    content: z.string(),
    mode: z.enum(['create', 'overwrite', 'append']).default('overwrite'),
    expectedSha256: sha256.optional().describe('Write only if the current file has this sha256'),
  }),
  output: z.object({
    path: z.string(),
    bytesWritten: z.number(),
    created: z.boolean(),
    sha256: z.string().optional().describe('Of the file as written; absent for "append" without filesystem.read'),
  }),
  annotations: DESTRUCTIVE,
  grant: GRANT.filesWrite,
  target: (args) => ({ path: args.path, mode: args.mode, bytes: Buffer.byteLength(args.content) }),
  async run(args, { adapter, policy, config, changes }, signal) {
    policy.sizes.checkWrite(Buffer.byteLength(args.content), 'fs.write');
    // Without reading, whether a guessed hash matches would tell what the file holds (an append
    // answers no hash then: the adapter's revealHash).
    if (!config.filesystem.read && args.expectedSha256 !== undefined)
      throw adapterError(
        'INVALID_INPUT',
        'fs.write',
        'expectedSha256 needs filesystem.read: without it, the check would tell whether a guess matches the file',
      );
    const file = await policy.filesystem.resolve(args.path, 'write', 'fs.write');
    // The undo journal takes the file's pre-image when the writer is about to change it (a hard link when it replaces it).
    const beforeChange = changes.beforeChange?.(file.path);
    const options = {
      ...writeOptions(config, policy.sizes, signal),
      ...(args.expectedSha256 === undefined ? {} : { expectedSha256: args.expectedSha256 }),
      ...(beforeChange ? { beforeChange } : {}),
      ...recorded(changes),
    };
    const written = await policy.fsLock.run([exclusive(file.path)], () => adapter.files.writeTextFile(file, args.content, args.mode, options));
    return {
      structured: { path: file.path, ...written },
      text: writeSummary(file.path, args.mode, written),
    };
  },
});

/** What happened, in words: a new file, a replaced one, or an append (never "created ... (overwrite)"). */
function writeSummary(path: string, mode: 'create' | 'overwrite' | 'append', written: { bytesWritten: number; created: boolean }): string {
  const bytes = `${written.bytesWritten} byte${written.bytesWritten === 1 ? '' : 's'}`;
  if (written.created) return `Created ${path} (${bytes})`;
  return mode === 'append' ? `Appended ${bytes} to ${path}` : `Replaced the contents of ${path} (${bytes})`;
}

export const fsMkdir = defineTool({
  name: 'fs.mkdir',
  title: 'Create a directory',
  description: 'Create a directory inside a writable root; recursive creates missing parents. Succeeds without change if it already exists.',
  input: z.object({ path, recursive: z.boolean().default(false) }),
  output: z.object({ path: z.string(), created: z.boolean() }),
  annotations: IDEMPOTENT_WRITE,
  grant: GRANT.filesWrite,
  target: pathTarget,
  async run(args, { adapter, policy }) {
    const dir = await policy.filesystem.resolve(args.path, 'write', 'fs.mkdir');
    const { created } = await policy.fsLock.run([exclusive(dir.path)], () => adapter.files.makeDirectory(dir, args.recursive));
    return { structured: { path: dir.path, created }, text: created ? `Created ${dir.path}` : `${dir.path} already exists` };
  },
});

export const fsMove = defineTool({
  name: 'fs.move',
  title: 'Move or rename',
  description:
    'Move or rename a file, directory or symlink (the link itself); both sides must be inside writable roots. A configured root, or a folder holding one, cannot be moved or replaced. Fails if the destination exists unless overwrite is true.',
  input: z.object({ source: path, destination: path, overwrite: z.boolean().default(false), dryRun: dryRunInput }),
  output: z.object({
    source: z.string(),
    destination: z.string(),
    type: entryType.optional(),
    replaces: z.boolean().optional(),
    dryRun: z.boolean().optional(),
  }),
  annotations: DESTRUCTIVE,
  grant: GRANT.filesWrite,
  target: (args) => ({ source: args.source, destination: args.destination }),
  async run(args, { adapter, policy }) {
    // Entries, not link targets: moving a symlink moves the link.
    const source = await policy.filesystem.resolveEntry(args.source, 'write', 'fs.move');
    const destination = await policy.filesystem.resolveEntry(args.destination, 'write', 'fs.move');
    if (!source.exists) throw adapterError('NOT_FOUND', 'fs.move', `${args.source} does not exist`);
    if (args.dryRun) {
      const { type } = await adapter.files.statEntry(source);
      if (destination.exists && !args.overwrite)
        throw adapterError('ALREADY_EXISTS', 'fs.move', `${destination.path} already exists (pass overwrite: true to replace it)`);
      const structured = { source: source.path, destination: destination.path, type, replaces: destination.exists, dryRun: true };
      return {
        structured,
        text: `Dry run, nothing changed: would move ${type} ${source.path} to ${destination.path}${destination.exists ? ', replacing what is there' : ''}`,
      };
    }
    await policy.sandbox.move(source.path, destination.path, () =>
      policy.fsLock.run([exclusive(source.path), exclusive(destination.path)], () => adapter.files.move(source, destination, args.overwrite)),
    );
    return { structured: { source: source.path, destination: destination.path }, text: `Moved ${source.path} to ${destination.path}` };
  },
});

export const fsDelete = defineTool({
  name: 'fs.delete',
  title: 'Delete a file or directory',
  description:
    'Delete a file, a symlink (the link, not its target), or a directory (non-empty ones only with recursive: true) inside a writable root. A configured root, or a folder holding one, can never be deleted.',
  input: z.object({ path, recursive: z.boolean().default(false), dryRun: dryRunInput }),
  output: z.object({
    path: z.string(),
    type: entryType,
    entries: z.number().optional().describe('Dry run of a directory: entries directly inside it (at most 1000 counted)'),
    dryRun: z.boolean().optional(),
  }),
  annotations: DESTRUCTIVE,
  grant: GRANT.filesWrite,
  target: pathTarget,
  async run(args, { adapter, policy }) {
    // The entry itself: deleting a symlink removes the link, never its target.
    const entry = await policy.filesystem.resolveEntry(args.path, 'write', 'fs.delete');
    if (!entry.exists) throw adapterError('NOT_FOUND', 'fs.delete', `${args.path} does not exist`);
    if (args.dryRun) return previewDelete(entry, args.recursive, adapter);
    const { type } = await policy.fsLock.run([exclusive(entry.path)], () => adapter.files.remove(entry, args.recursive));
    return { structured: { path: entry.path, type }, text: `Deleted ${type} ${entry.path}` };
  },
});

/** fs.delete with dryRun: what would go, or the refusal the delete would give; nothing is removed. */
async function previewDelete(entry: ResolvedPath, recursive: boolean, adapter: ComputerAdapter) {
  const { type } = await adapter.files.statEntry(entry);
  if (type !== 'directory')
    return { structured: { path: entry.path, type, dryRun: true }, text: `Dry run, nothing changed: would delete ${type} ${entry.path}` };
  const { entries, truncated } = await adapter.files.listDirectory(entry, { limit: LIST_LIMIT });
  if (entries.length > 0 && !recursive) {
    throw adapterError('INVALID_INPUT', 'fs.delete', `${entry.path}: directory is not empty (pass recursive: true to delete it with its contents)`);
  }
  const count = `${entries.length}${truncated ? '+' : ''} entr${entries.length === 1 ? 'y' : 'ies'} directly inside`;
  return {
    structured: { path: entry.path, type, entries: entries.length, dryRun: true },
    text: `Dry run, nothing changed: would delete directory ${entry.path} (${count}${entries.length ? ', with everything below them' : ''})`,
  };
}

export const fsStat = defineTool({
  name: 'fs.stat',
  title: 'Facts about one entry',
  description:
    'Type, size, permission bits, modification time and hard-link count of one file, directory or symlink inside the allowed roots; with sha256: true also the sha256 of a file (for fs.write / fs.edit expectedSha256 on files too large for fs.read).',
  input: z.object({ path, sha256: z.boolean().default(false).describe('Also hash the file (reads it whole)') }),
  output: z.object({
    path: z.string(),
    type: entryType,
    size: z.number(),
    mode: z.string().describe('Permission bits in octal, e.g. "0644"'),
    mtime: z.string(),
    links: z.number(),
    sha256: z.string().optional(),
  }),
  annotations: READ_ONLY,
  grant: GRANT.filesRead,
  target: pathTarget,
  async run(args, { adapter, policy }, signal) {
    const entry = await policy.filesystem.resolveEntry(args.path, 'read', 'fs.stat');
    const stat = await policy.fsLock.run([shared(entry.path)], () => adapter.files.statEntry(entry, { sha256: args.sha256, signal }));
    const text = `${entry.path}: ${stat.type}, ${stat.size} bytes, mode ${stat.mode}, modified ${stat.mtime}${stat.sha256 ? `, sha256 ${stat.sha256}` : ''}`;
    return { structured: { path: entry.path, ...stat }, text };
  },
});

export const filesystemTools = [fsList, fsRead, fsStat, fsWrite, fsMkdir, fsMove, fsDelete];
