/** fs.search and fs.find: looking inside and across files, through the one filesystem policy. */
import * as z from 'zod';
import { defineTool, READ_ONLY } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { pathInput, shared } from './fs-common.js';
import { RIPGREP } from '../../policy/program-runner.js';
import { lineSafe } from './line-safe.js';

const glob = z.string().min(1).max(500);
const KiB = 1024;

export const searchInput = z.object({
  path: pathInput.default('.').describe('Directory to search (default: the first root)'),
  pattern: z.string().min(1).max(1000).describe('Text to find, or a regular expression with regex: true'),
  regex: z.boolean().default(false),
  caseSensitive: z.boolean().default(true),
  include: z.array(glob).max(50).default([]).describe('Only files matching one of these globs ("*.ts"; with "/": from the searched directory)'),
  exclude: z.array(glob).max(50).default([]).describe('Skip files and directories matching these globs'),
  contextLines: z.number().int().min(0).max(10).default(0),
  maxMatches: z.number().int().positive().max(1000).default(100),
  maxBytes: z
    .number()
    .int()
    .positive()
    .max(1024 * KiB)
    .default(64 * KiB)
    .describe('Bound on matched text (lines and context) in the answer'),
  gitignore: z.boolean().default(true).describe('Honour .gitignore, .ignore and .rgignore files inside the searched directory'),
  hidden: z.boolean().default(false).describe('Also search hidden files and directories (dot names); .git never'),
});

const match = z.object({
  path: z.string().describe('From the searched directory'),
  line: z.number(),
  column: z.number(),
  text: z.string(),
  before: z.array(z.string()).optional(),
  after: z.array(z.string()).optional(),
});

export const fsSearch = defineTool({
  name: 'fs.search',
  title: 'Search file contents',
  description:
    'Find lines matching a text or regular expression in files under a directory inside the allowed roots, like ripgrep: .gitignore honoured, hidden and binary files skipped, results sorted by path and line, bounded in matches and bytes. Secret and denied files never appear.',
  input: searchInput,
  output: z.object({ path: z.string(), matches: z.array(match), truncated: z.boolean(), filesWithMatches: z.number(), engine: z.enum(['ripgrep', 'builtin']) }),
  payload: ['matches'],
  annotations: READ_ONLY,
  grant: GRANT.filesRead,
  target: (args) => ({ path: args.path, regex: args.regex }),
  async run(args, { adapter, policy }, signal) {
    const dir = await policy.filesystem.resolve(args.path, 'read', 'fs.search');
    const ripgrep = (await policy.programs.helper(RIPGREP))?.file ?? null;
    const maxFileBytes = policy.sizes.searchFileBytes;
    const result = await policy.fsLock.run([shared(dir.path)], () => adapter.files.searchFiles(dir, { ...args, ripgrep, maxFileBytes, signal }));
    // As ripgrep prints them: "path:line:column: text" for a match, "path-line- text" for its context.
    const context = (path: string, first: number, lines: string[] | undefined) => (lines ?? []).map((text, i) => `${path}-${first + i}- ${text}`);
    const lines = result.matches.flatMap((m) => [
      ...context(m.path, m.line - (m.before?.length ?? 0), m.before),
      `${m.path}:${m.line}:${m.column}: ${m.text}`,
      ...context(m.path, m.line + 1, m.after),
    ]);
    const text = `${result.matches.length} match${result.matches.length === 1 ? '' : 'es'} in ${result.filesWithMatches} file${result.filesWithMatches === 1 ? '' : 's'} under ${dir.path}${result.truncated ? ' (more not shown: narrow the search or raise maxMatches)' : ''}${lines.length ? `\n${lines.join('\n')}` : ''}`;
    return { structured: { path: dir.path, ...result }, text };
  },
});

export const fsFind = defineTool({
  name: 'fs.find',
  title: 'Find files by name',
  description:
    'Find files and directories whose path matches a glob under a directory inside the allowed roots ("*.test.ts" matches names at any depth; "src/**/index.ts" matches from the directory). Sorted, one path a line ("dir/" for a folder; details: true adds size and modification time), bounded: offset pages on; .gitignore honoured by default; secrets never listed.',
  input: z.object({
    path: pathInput.default('.').describe('Directory to search (default: the first root)'),
    pattern: glob.describe('Glob for the name, or for the path when it contains "/"'),
    type: z.enum(['file', 'directory', 'any']).default('any'),
    maxResults: z.number().int().positive().max(10_000).default(500),
    offset: z.number().int().min(0).default(0).describe('Matches to skip (the nextOffset of the previous page)'),
    details: z.boolean().default(false).describe('Also show each entry’s size and modification time in the text'),
    gitignore: z.boolean().default(true),
    hidden: z.boolean().default(false),
    exclude: z.array(glob).max(50).default([]),
  }),
  output: z.object({
    path: z.string(),
    entries: z.array(z.object({ path: z.string(), type: z.enum(['file', 'directory']), size: z.number().optional(), mtime: z.string() })),
    truncated: z.boolean(),
    nextOffset: z.number().int().optional().describe('Set when more matches follow: pass it as offset'),
  }),
  payload: ['entries'],
  annotations: READ_ONLY,
  grant: GRANT.filesRead,
  target: (args) => ({ path: args.path, pattern: args.pattern }),
  async run(args, { adapter, policy }, signal) {
    const dir = await policy.filesystem.resolve(args.path, 'read', 'fs.find');
    const { details, ...options } = args;
    const found = await policy.fsLock.run([shared(dir.path)], () => adapter.files.findEntries(dir, { ...options, signal }));
    const nextOffset = found.truncated && found.entries.length === args.maxResults ? args.offset + found.entries.length : undefined;
    const detail = (e: { size?: number; mtime: string }) => (details ? `${e.size === undefined ? '' : `  ${e.size}`}  ${e.mtime}` : '');
    const list = found.entries.map((e) => `${lineSafe(e.path)}${e.type === 'directory' ? '/' : ''}${detail(e)}`);
    const more = nextOffset === undefined ? (found.truncated ? ' (the walk stopped early: narrow the search)' : '') : ` (more: offset ${nextOffset})`;
    const from = args.offset ? ` from match ${args.offset + 1}` : '';
    const text = `${found.entries.length} entr${found.entries.length === 1 ? 'y' : 'ies'}${from} matching ${args.pattern} under ${dir.path}${more}${list.length ? `\n${list.join('\n')}` : ''}`;
    return { structured: { path: dir.path, ...found, ...(nextOffset === undefined ? {} : { nextOffset }) }, text };
  },
});

export const fileSearchTools = [fsSearch, fsFind];
