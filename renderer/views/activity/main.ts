/**
 * The activity view for audit.recent and audit.search: the recorded calls (redacted as the tray's
 * activity view shows them: time, caller, tool, target, outcome, duration), newest last, and a
 * search that asks the host to call audit.search (an ordinary call: the policy decides, and it
 * is recorded too). A refusal (no audit log, the grant off) shows the text answer.
 */
import { App } from '@modelcontextprotocol/ext-apps';
import { readConfig, structuredOf, textOf, type ToolResult } from '../shared/result.js';

interface Call {
  time: string;
  tool: string;
  client: { kind: 'oauth' | 'token' | 'host'; id?: string; name?: string | null };
  target: string;
  outcome: string;
  ms: number;
}

const config = readConfig<{ search: string }>();
const title = document.getElementById('title') as HTMLElement;
const table = document.getElementById('calls') as HTMLTableElement;
const rows = document.getElementById('rows') as HTMLTableSectionElement;
const status = document.getElementById('status') as HTMLElement;
const text = document.getElementById('text') as HTMLPreElement;
const filter = document.getElementById('filter') as HTMLElement;
const field = (id: string) => (document.getElementById(id) as HTMLInputElement).value.trim();

function clientName(client: Call['client']): string {
  if (client.kind === 'token') return 'bearer token';
  return client.name || client.id || client.kind;
}

/** 2026-12-04T09:30:05.123Z -> "2026-12-04 09:30:05" (UTC, as recorded). */
const when = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');

function row(call: Call): HTMLTableRowElement {
  const tr = document.createElement('tr');
  const cells: Array<[string, string]> = [
    [when(call.time), ''],
    [clientName(call.client), ''],
    [call.tool, ''],
    [call.target, 'target'],
    [call.outcome, call.outcome === 'ok' ? 'ok' : 'error'],
    [String(call.ms), 'ms'],
  ];
  for (const [value, className] of cells) tr.append(Object.assign(document.createElement('td'), { textContent: value, className }));
  return tr;
}

function show(result: ToolResult, heading: string): void {
  const value = structuredOf(result) as { calls?: Call[]; more?: boolean } | undefined;
  const calls = result.isError || !Array.isArray(value?.calls) ? undefined : value.calls;
  text.textContent = textOf(result);
  text.hidden = calls !== undefined;
  table.hidden = !calls?.length;
  rows.replaceChildren(...(calls ?? []).map(row));
  title.textContent = calls ? `${heading}: ${calls.length} call${calls.length === 1 ? '' : 's'}` : 'The audit log could not be read';
  status.textContent = calls?.length === 0 ? 'No recorded call matches.' : value?.more ? 'Older calls exist: narrow the search.' : '';
}

async function search(): Promise<void> {
  const words = field('words').split(/\s+/).filter(Boolean).slice(0, 8);
  const args = Object.fromEntries(
    Object.entries({ tool: field('tool'), client: field('client'), outcome: field('outcome') }).filter(([, value]) => value !== ''),
  ) as Record<string, unknown>;
  if (words.length) args.words = words;
  args.limit = 100;
  status.textContent = 'Searching…';
  const answer = (await app.callServerTool({ name: config.search, arguments: args })) as ToolResult;
  show(answer, 'Matching calls');
}

// A button and Enter, not a form: a sandboxed frame without allow-forms (as hosts run views) never submits one.
const run = () => void search().catch((error: unknown) => (status.textContent = `The search failed: ${String(error)}`));
(document.getElementById('search') as HTMLButtonElement).onclick = run;
filter.onkeydown = (event) => {
  if (event.key === 'Enter') run();
};

const app = new App({ name: 'chatgpt-mcp-activity', version: '1' });
app.ontoolresult = (result) => show(result as ToolResult, 'Recent calls');
void app.connect();
