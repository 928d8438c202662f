/**
 * The change review view for fs.edit, fs.patch, git.diff and git.show: each file's unified diff,
 * hunk by hunk, added and removed lines marked. It only shows; it calls nothing. A result without
 * diffs (an error, a host that sent only text, a file shown at a revision) shows the text answer.
 */
import { App } from '@modelcontextprotocol/ext-apps';
import { structuredOf, textOf, type ToolResult } from '../shared/result.js';

interface FileChange {
  path: string;
  action?: string;
  destination?: string;
  diff: string;
  /** git's line counts (null for a binary file), also when it left the patch out past maxBytes. */
  added?: number | null;
  removed?: number | null;
}

/** A file of git.diff's `files` (and git.show's `diff.files`): `from` is a rename's old path. */
interface GitFile {
  path: string;
  from?: string;
  change?: string;
  added?: number | null;
  removed?: number | null;
  patch?: string;
}

const files = document.getElementById('files') as HTMLElement;
const title = document.getElementById('title') as HTMLElement;
const text = document.getElementById('text') as HTMLPreElement;

/** fs.patch answers `files` with diffs, git.diff `files` with patches (git.show in `diff`), fs.edit one file's `path` and `diff`. */
function changesOf(structured: unknown): FileChange[] {
  const value = structured as { files?: Array<FileChange | GitFile>; path?: string; diff?: string | { files?: GitFile[] } } | undefined;
  const list = Array.isArray(value?.files) ? value.files : typeof value?.diff === 'object' ? value.diff.files : undefined;
  if (Array.isArray(list)) return list.map((file) => ('diff' in file ? file : fromGit(file)));
  if (typeof value?.path === 'string' && typeof value.diff === 'string') return [{ path: value.path, action: 'edited', diff: value.diff }];
  return [];
}

function fromGit(file: GitFile): FileChange {
  const moved = file.from !== undefined && file.from !== file.path;
  return {
    path: moved ? file.from! : file.path,
    ...(moved ? { destination: file.path } : {}),
    action: file.change ?? '',
    diff: file.patch ?? '',
    added: file.added ?? null,
    removed: file.removed ?? null,
  };
}

/** git's extended header lines, before a file's first hunk. */
const GIT_HEADER =
  /^(diff --git |index |(new|deleted) file mode |old mode |new mode |similarity index |dissimilarity index |rename (from|to) |copy (from|to) |Binary files )/;

function lineClass(line: string): string {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('\\') || GIT_HEADER.test(line)) return 'meta';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return '';
}

function fileBlock(change: FileChange): HTMLElement {
  const lines = change.diff ? change.diff.split('\n').filter((line, i, all) => line !== '' || i < all.length - 1) : [];
  // git counts its own (null for a binary file); fs.patch's diffs are counted here.
  const added = change.added !== undefined ? change.added : lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
  const removed = change.removed !== undefined ? change.removed : lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
  const block = document.createElement('details');
  block.open = true;
  block.className = 'file';
  const summary = document.createElement('summary');
  const action = Object.assign(document.createElement('span'), { className: 'action', textContent: change.action ?? '' });
  const name = document.createTextNode(change.destination ? `${change.path} → ${change.destination}` : change.path);
  const count = Object.assign(document.createElement('span'), { className: 'count' });
  if (added === null || added === undefined) count.textContent = 'binary';
  else
    count.append(
      Object.assign(document.createElement('span'), { className: 'add-count', textContent: `+${added}` }),
      ' ',
      Object.assign(document.createElement('span'), { className: 'del-count', textContent: `−${removed ?? 0}` }),
    );
  summary.append(action, name, count);
  const pre = document.createElement('pre');
  for (const line of lines) pre.append(Object.assign(document.createElement('span'), { className: lineClass(line), textContent: line || ' ' }));
  if (!change.diff)
    pre.append(
      Object.assign(document.createElement('span'), {
        className: 'meta',
        textContent: 'No patch in this answer (binary, or past maxBytes: ask again with paths)',
      }),
    );
  block.append(summary, pre);
  return block;
}

function show(result: ToolResult): void {
  const changes = result.isError ? [] : changesOf(structuredOf(result));
  const dryRun = (structuredOf(result) as { dryRun?: boolean } | undefined)?.dryRun === true;
  files.replaceChildren(...changes.map(fileBlock));
  title.textContent = changes.length
    ? `${dryRun ? 'Dry run, nothing changed: ' : ''}${changes.length} file${changes.length === 1 ? '' : 's'} ${dryRun ? 'would change' : 'changed'}`
    : result.isError
      ? 'The change was refused'
      : 'No diff to show';
  text.textContent = textOf(result);
  text.hidden = changes.length > 0;
}

const app = new App({ name: 'chatgpt-mcp-changes', version: '1' });
app.ontoolresult = (result) => show(result as ToolResult);
void app.connect();
