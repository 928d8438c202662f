/**
 * The change review view for fs.edit and fs.patch: each file's unified diff, hunk by hunk,
 * added and removed lines marked. It only shows; it calls nothing. A result without diffs
 * (an error, a host that sent only text) shows the text answer.
 */
import { App } from '@modelcontextprotocol/ext-apps';
import { structuredOf, textOf, type ToolResult } from '../shared/result.js';

interface FileChange {
  path: string;
  action?: string;
  destination?: string;
  diff: string;
}

const files = document.getElementById('files') as HTMLElement;
const title = document.getElementById('title') as HTMLElement;
const text = document.getElementById('text') as HTMLPreElement;

/** fs.patch answers `files`; fs.edit answers one file's `path` and `diff`. */
function changesOf(structured: unknown): FileChange[] {
  const value = structured as { files?: FileChange[]; path?: string; diff?: string } | undefined;
  if (Array.isArray(value?.files)) return value.files;
  if (typeof value?.path === 'string' && typeof value.diff === 'string') return [{ path: value.path, action: 'edited', diff: value.diff }];
  return [];
}

function lineClass(line: string): string {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('\\')) return 'meta';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return '';
}

function fileBlock(change: FileChange): HTMLElement {
  const lines = change.diff.split('\n').filter((line, i, all) => line !== '' || i < all.length - 1);
  const added = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
  const removed = lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
  const block = document.createElement('details');
  block.open = true;
  block.className = 'file';
  const summary = document.createElement('summary');
  const action = Object.assign(document.createElement('span'), { className: 'action', textContent: change.action ?? '' });
  const name = document.createTextNode(change.destination ? `${change.path} → ${change.destination}` : change.path);
  const count = Object.assign(document.createElement('span'), { className: 'count' });
  count.append(
    Object.assign(document.createElement('span'), { className: 'add-count', textContent: `+${added}` }),
    ' ',
    Object.assign(document.createElement('span'), { className: 'del-count', textContent: `−${removed}` }),
  );
  summary.append(action, name, count);
  const pre = document.createElement('pre');
  for (const line of lines) pre.append(Object.assign(document.createElement('span'), { className: lineClass(line), textContent: line || ' ' }));
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
