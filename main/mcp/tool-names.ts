/**
 * Tool names inside the server's own texts, in the form the config exposes them. Descriptions,
 * hints and errors are written with the contract's dotted names ("read it with
 * process.output"); under `server.toolNames: "underscore"` a model that follows them as written
 * gets "Tool not found", so they are rewritten to `process_output` on the way out.
 *
 * Only whole tool names are rewritten: `fs.readFile`, `config.json`, `/tmp/fs.read` or
 * `fs.read.bak` are not tool names. `process.list is false` names the setting, not the tool,
 * and is left alone, as is `git.push is [me/app]`. Data is never rewritten: a name that occurs in the call's arguments or in
 * the structured result (file contents, command output) stays as it is in the whole text.
 */
import type { Config } from '../config/schema.js';

/** The name a tool is exposed under: the contract's dotted name, or with underscores for strict hosts. */
export function exposedName(name: string, config: Readonly<Config>): string {
  return exposedAs(name, config.server.toolNames);
}

/** The same, for a naming style given by itself (the other style, for calls that use it). */
export function exposedAs(name: string, toolNames: Config['server']['toolNames']): string {
  return toolNames === 'underscore' ? name.replace(/\./g, '_') : name;
}

export interface ToolNameRewriter {
  /** False when nothing is ever rewritten (dotted names): callers may skip the texts altogether. */
  readonly renames: boolean;
  /**
   * `text` with every tool name in its exposed form, except the names that occur in a string
   * anywhere inside `data` (the call's arguments, its structured result). `data` is only looked
   * at when the text names a tool at all.
   */
  rewrite(text: string, ...data: unknown[]): string;
}

const IDENTITY: ToolNameRewriter = { renames: false, rewrite: (text) => text };

/** `names`: every tool the server knows (granted or not), by contract name. */
export function toolNameRewriter(names: readonly string[], toolNames: Config['server']['toolNames']): ToolNameRewriter {
  const dotted = [...new Set(names.filter((n) => n.includes('.')))].sort((a, b) => b.length - a.length);
  if (toolNames === 'dotted' || dotted.length === 0) return IDENTITY;
  const escape = (n: string) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Not inside a longer word, path or name (before: a word character, ".", "/", "\", "-";
  // after: a word character, "-" or ".word"), and not a setting stated as true/false or a list ("git.push is [...]").
  const wholeNames = (alternatives: string, flags?: string) =>
    new RegExp(`(?<![\\w./\\\\-])(?:${alternatives})(?![\\w-]|\\.\\w)(?!\\s+is\\s+(?:(?:true|false)\\b|\\[))`, flags);
  const pattern = wholeNames(dotted.map(escape).join('|'), 'g');
  // The same without the g flag, whose lastIndex state would leak between calls.
  const probe = new RegExp(pattern.source);
  // One pattern per name, for the rare data string that contains it at all.
  const whole = new Map(dotted.map((n) => [n, wholeNames(escape(n))]));
  const occurring = (names: ReadonlySet<string>, strings: readonly string[]) => {
    const found = new Set<string>();
    for (const value of strings) for (const name of names) if (value.includes(name) && whole.get(name)!.test(value)) found.add(name);
    return found;
  };
  const rewriteOwn = (own: string, strings: () => readonly string[]) => {
    if (!probe.test(own)) return own;
    const named = new Set(own.match(pattern));
    const keep = occurring(named, strings());
    return keep.size === named.size ? own : own.replace(pattern, (name) => (keep.has(name) ? name : exposedAs(name, 'underscore')));
  };
  return {
    renames: true,
    rewrite(text, ...data) {
      // The strings inside `data`, collected once and only when something needs them.
      let found: string[] | undefined;
      const strings = () => (found ??= stringsIn(data));
      // A long data string copied into the text (a file's content, a command's stdout) is
      // skipped, not scanned: only the server's own words around it are.
      let out = '';
      let from = 0;
      for (const span of dataSpans(text, strings)) {
        out += rewriteOwn(text.slice(from, span.start), strings) + text.slice(span.start, span.end);
        from = span.end;
      }
      return out + rewriteOwn(text.slice(from), strings);
    },
  };
}

const LONG_DATA = 64;
/** Only the longest few are looked for: a result of many short lines is cheap to scan anyway. */
const MAX_SPANS = 8;

/** Where the longest strings inside `data` first occur in `text`, in order, not overlapping. */
function dataSpans(text: string, strings: () => readonly string[]): Array<{ start: number; end: number }> {
  if (text.length < LONG_DATA) return [];
  const long = strings()
    .filter((s) => s.length >= LONG_DATA && s.length <= text.length)
    .sort((a, b) => b.length - a.length)
    .slice(0, MAX_SPANS);
  const spans: Array<{ start: number; end: number }> = [];
  for (const s of long) {
    const start = text.indexOf(s);
    const end = start + s.length;
    if (start !== -1 && !spans.some((span) => start < span.end && end > span.start)) spans.push({ start, end });
  }
  return spans.sort((a, b) => a.start - b.start);
}

function stringsIn(data: unknown[]): string[] {
  const found: string[] = [];
  // Iterative: a UI tree can nest deeper than is wise to recurse over.
  const stack = [...data];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') found.push(value);
    else if (value && typeof value === 'object') for (const v of Object.values(value)) stack.push(v);
  }
  return found;
}
