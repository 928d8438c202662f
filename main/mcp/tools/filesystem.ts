/**
 * fs.* tools. Every path goes through the one filesystem policy, and the adapter then works
 * on the resolved real path, never on the caller's text, so what was checked is what is used.
 */
import * as z from 'zod';
import { adapterError } from '../../../adapter/errors.js';
import type { Config } from '../../config/schema.js';
import { defineTool, DESTRUCTIVE, IDEMPOTENT_WRITE, READ_ONLY, type ToolDeps } from '../tool.js';

const LIST_LIMIT = 1000;

const path = z.string().min(1).describe('Absolute path, or a path relative to the first allowed root');
const sha256 = z.string().regex(/^[0-9a-fA-F]{64}$/, 'a sha256 hex digest');
const entryType = z.enum(['file', 'directory', 'symlink', 'other']);

const canRead = (c: Readonly<Config>) => c.filesystem.read && c.filesystem.roots.length > 0;
const canWrite = (c: Readonly<Config>) => c.filesystem.write && c.filesystem.roots.some((r) => typeof r === 'string' || !r.readOnly);
const pathTarget = (args: { path: string }) => ({ path: args.path });

/** Runs a handler under the fs lock: from the path check to the end of the operation, nothing else changes the tree. */
type Handler<A, R> = (args: A, deps: ToolDeps) => Promise<R>;
const shared =
  <A, R>(run: Handler<A, R>): Handler<A, R> =>
  (args, deps) =>
    deps.policy.fsLock.shared(() => run(args, deps));
const exclusive =
  <A, R>(run: Handler<A, R>): Handler<A, R> =>
  (args, deps) =>
    deps.policy.fsLock.exclusive(() => run(args, deps));

export const fsList = defineTool({
  name: 'fs.list',
  title: 'List a directory',
  description: `List the entries of one directory inside the allowed roots (name, type, size of files, modification time). At most ${LIST_LIMIT} entries, sorted by name; protected secret files are not shown.`,
  input: z.object({ path }),
  output: z.object({
    path: z.string(),
    entries: z.array(z.object({ name: z.string(), type: entryType, size: z.number().optional(), mtime: z.string() })),
    truncated: z.boolean(),
  }),
  annotations: READ_ONLY,
  enabled: canRead,
  target: pathTarget,
  run: shared(async (args, { adapter, policy }) => {
    const resolved = await policy.filesystem.resolve(args.path, 'read', 'fs.list');
    const hide = (name: string) => policy.filesystem.isProtectedName(name, resolved);
    const { entries, truncated } = await adapter.files.listDirectory(resolved.path, { limit: LIST_LIMIT, hide });
    const text = `${resolved.path}: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}${truncated ? ` (first ${LIST_LIMIT} shown)` : ''}`;
    return { structured: { path: resolved.path, entries, truncated }, text };
  }),
});

export const fsRead = defineTool({
  name: 'fs.read',
  title: 'Read a text file',
  description:
    'Read a UTF-8 text file inside the allowed roots. Returns at most maxBytes (capped by the server limit), whether it was truncated, and the sha256 of the whole file: pass that as expectedSha256 to fs.write to avoid overwriting a newer edit.',
  input: z.object({ path, maxBytes: z.number().int().positive().optional().describe('Read at most this many bytes') }),
  output: z.object({ path: z.string(), content: z.string(), bytes: z.number(), totalBytes: z.number(), truncated: z.boolean(), sha256: z.string() }),
  annotations: READ_ONLY,
  enabled: canRead,
  target: pathTarget,
  run: shared(async (args, { adapter, policy, config }) => {
    const resolved = await policy.filesystem.resolve(args.path, 'read', 'fs.read');
    const limit = Math.min(args.maxBytes ?? config.filesystem.maxReadBytes, config.filesystem.maxReadBytes);
    const read = await adapter.files.readTextFile(resolved.path, limit);
    const text = read.truncated ? `${read.content}\n\n[truncated: showed ${read.bytes} of ${read.totalBytes} bytes]` : read.content;
    return { structured: { path: resolved.path, ...read }, text };
  }),
});

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
  output: z.object({ path: z.string(), bytesWritten: z.number(), created: z.boolean(), sha256: z.string() }),
  annotations: DESTRUCTIVE,
  enabled: canWrite,
  target: (args) => ({ path: args.path, mode: args.mode, bytes: Buffer.byteLength(args.content) }),
  run: exclusive(async (args, { adapter, policy, config }) => {
    const bytes = Buffer.byteLength(args.content);
    if (bytes > config.filesystem.maxWriteBytes) {
      throw adapterError('INVALID_INPUT', 'fs.write', `content is ${bytes} bytes; the limit is ${config.filesystem.maxWriteBytes} (filesystem.maxWriteBytes)`);
    }
    const resolved = await policy.filesystem.resolve(args.path, 'write', 'fs.write');
    const options = args.expectedSha256 === undefined ? {} : { expectedSha256: args.expectedSha256 };
    const written = await adapter.files.writeTextFile(resolved.path, args.content, args.mode, options);
    return {
      structured: { path: resolved.path, ...written },
      text: `${written.created ? 'Created' : 'Wrote'} ${resolved.path} (${written.bytesWritten} bytes, ${args.mode})`,
    };
  }),
});

export const fsMkdir = defineTool({
  name: 'fs.mkdir',
  title: 'Create a directory',
  description: 'Create a directory inside a writable root; recursive creates missing parents. Succeeds without change if it already exists.',
  input: z.object({ path, recursive: z.boolean().default(false) }),
  output: z.object({ path: z.string(), created: z.boolean() }),
  annotations: IDEMPOTENT_WRITE,
  enabled: canWrite,
  target: pathTarget,
  run: exclusive(async (args, { adapter, policy }) => {
    const resolved = await policy.filesystem.resolve(args.path, 'write', 'fs.mkdir');
    const { created } = await adapter.files.makeDirectory(resolved.path, args.recursive);
    return { structured: { path: resolved.path, created }, text: created ? `Created ${resolved.path}` : `${resolved.path} already exists` };
  }),
});

export const fsMove = defineTool({
  name: 'fs.move',
  title: 'Move or rename',
  description:
    'Move or rename a file, directory or symlink (the link itself); both sides must be inside writable roots. A configured root itself cannot be moved. Fails if the destination exists unless overwrite is true.',
  input: z.object({ source: path, destination: path, overwrite: z.boolean().default(false) }),
  output: z.object({ source: z.string(), destination: z.string() }),
  annotations: DESTRUCTIVE,
  enabled: canWrite,
  target: (args) => ({ source: args.source, destination: args.destination }),
  run: exclusive(async (args, { adapter, policy }) => {
    // Entries, not link targets: moving a symlink moves the link.
    const source = await policy.filesystem.resolveEntry(args.source, 'write', 'fs.move');
    const destination = await policy.filesystem.resolveEntry(args.destination, 'write', 'fs.move');
    if (source.isRoot || destination.isRoot)
      throw adapterError(
        'PATH_NOT_ALLOWED',
        'fs.move',
        `${source.isRoot ? source.path : destination.path} is a configured root and cannot be moved or replaced`,
      );
    if (!source.exists) throw adapterError('NOT_FOUND', 'fs.move', `${args.source} does not exist`);
    await adapter.files.move(source.path, destination.path, args.overwrite);
    return { structured: { source: source.path, destination: destination.path }, text: `Moved ${source.path} to ${destination.path}` };
  }),
});

export const fsDelete = defineTool({
  name: 'fs.delete',
  title: 'Delete a file or directory',
  description:
    'Delete a file, a symlink (the link, not its target), or a directory (non-empty ones only with recursive: true) inside a writable root. A configured root itself can never be deleted.',
  input: z.object({ path, recursive: z.boolean().default(false) }),
  output: z.object({ path: z.string(), type: entryType }),
  annotations: DESTRUCTIVE,
  enabled: canWrite,
  target: pathTarget,
  run: exclusive(async (args, { adapter, policy }) => {
    // The entry itself: deleting a symlink removes the link, never its target.
    const resolved = await policy.filesystem.resolveEntry(args.path, 'write', 'fs.delete');
    if (resolved.isRoot) throw adapterError('PATH_NOT_ALLOWED', 'fs.delete', `${resolved.path} is a configured root and can never be deleted`);
    if (!resolved.exists) throw adapterError('NOT_FOUND', 'fs.delete', `${args.path} does not exist`);
    const { type } = await adapter.files.remove(resolved.path, args.recursive);
    return { structured: { path: resolved.path, type }, text: `Deleted ${type} ${resolved.path}` };
  }),
});

export const filesystemTools = [fsList, fsRead, fsWrite, fsMkdir, fsMove, fsDelete];
