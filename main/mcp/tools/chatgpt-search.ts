/**
 * `search` and `fetch` with the exact names and shapes ChatGPT's connectors and deep research
 * require outside developer mode (an owner option, chatgpt.searchFetch): search finds files in
 * the readable roots by their words (content and names), fetch reads one by the id search
 * returned. Read-only, through the same policy and fs.search engine as the fs tools.
 */
import * as z from 'zod';
import { pathToFileURL } from 'node:url';
import { defineTool, READ_ONLY, type ToolDeps } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { shared } from './fs-common.js';
import { RIPGREP } from '../../policy/program-runner.js';

const MAX_RESULTS = 20;
const MAX_WORDS = 8;

export const search = defineTool({
  name: 'search',
  title: 'Search files',
  description:
    "Search the owner's shared folders for files about a query (matched against file contents and names, case-insensitive, every word counted). Returns up to 20 results with an id to pass to fetch.",
  input: z.object({ query: z.string().min(1).max(500) }),
  output: z.object({ results: z.array(z.object({ id: z.string(), title: z.string(), url: z.string() })) }),
  annotations: READ_ONLY,
  grant: GRANT.chatgptSearch,
  target: (args) => ({ words: words(args.query).length }),
  async run(args, deps, signal) {
    const results = await rankFiles(words(args.query), deps, signal);
    const structured = { results };
    return { structured, text: JSON.stringify(structured) };
  },
});

export const fetchDocument = defineTool({
  name: 'fetch',
  title: 'Fetch a file',
  description: 'Read one file found by search, by its id: returns its text (up to the server read limit), title, URL and metadata.',
  input: z.object({ id: z.string().min(1).describe('An id returned by search') }),
  output: z.object({
    id: z.string(),
    title: z.string(),
    text: z.string(),
    url: z.string(),
    metadata: z.object({ path: z.string(), bytes: z.number(), totalBytes: z.number(), truncated: z.boolean() }),
  }),
  annotations: READ_ONLY,
  grant: GRANT.chatgptSearch,
  target: (args) => ({ path: args.id }),
  async run(args, { adapter, policy }, signal) {
    const file = await policy.filesystem.resolve(args.id, 'read', 'fetch');
    const read = await policy.fsLock.run([shared(file.path)], () => adapter.files.readTextFile(file, { maxBytes: policy.sizes.readBytes(), signal }));
    const structured = {
      id: args.id,
      title: titleOf(file.path, file.root),
      text: read.content,
      url: pathToFileURL(file.path).href,
      metadata: { path: file.path, bytes: read.bytes, totalBytes: read.totalBytes, truncated: read.truncated },
    };
    return { structured, text: JSON.stringify(structured) };
  },
});

export const chatgptSearchTools = [search, fetchDocument];

function words(query: string): string[] {
  const all = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}_.-]+/u)
    .filter((w) => w.length >= 2);
  return [...new Set(all)].slice(0, MAX_WORDS);
}

/** Files scored by how many of the words they contain (in their text or path), best first. */
async function rankFiles(terms: string[], { adapter, policy, config }: ToolDeps, signal: AbortSignal) {
  const score = new Map<string, { root: string; hits: Set<string> }>();
  const ripgrep = (await policy.programs.helper(RIPGREP))?.file ?? null;
  for (const root of config.filesystem.roots) {
    const rootPath = typeof root === 'string' ? root : root.path;
    const dir = await policy.filesystem.resolve(rootPath, 'read', 'search').catch(() => null);
    if (!dir) continue;
    for (const term of terms) {
      const options = { pattern: term, regex: false, caseSensitive: false, include: [], exclude: [], contextLines: 0, hidden: false, gitignore: true, signal };
      const [content, names] = await Promise.all([
        // One line per file: the score counts files, so a file with many hits cannot use up the bound.
        adapter.files.searchFiles(dir, {
          ...options,
          maxMatches: 1000,
          maxMatchesPerFile: 1,
          maxBytes: 256 * 1024,
          maxFileBytes: policy.sizes.readBytes(),
          ripgrep,
        }),
        adapter.files.findEntries(dir, {
          pattern: `*${term.replace(/[*?[\]{}!]/g, '')}*`,
          type: 'file',
          maxResults: 200,
          gitignore: true,
          hidden: false,
          exclude: [],
          signal,
        }),
      ]);
      for (const relative of [...content.matches.map((m) => m.path), ...names.entries.map((e) => e.path)]) {
        const path = `${dir.path}/${relative}`;
        const entry = score.get(path) ?? { root: dir.path, hits: new Set<string>() };
        entry.hits.add(term);
        score.set(path, entry);
      }
    }
  }
  return [...score.entries()]
    .sort(([a, x], [b, y]) => y.hits.size - x.hits.size || (a < b ? -1 : 1))
    .slice(0, MAX_RESULTS)
    .map(([path, { root }]) => ({ id: path, title: titleOf(path, root), url: pathToFileURL(path).href }));
}

function titleOf(path: string, root: string): string {
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}
