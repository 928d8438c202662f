/**
 * Tool names inside the server's own texts, in the form the config exposes them. Descriptions,
 * hints and errors are written with the contract's dotted names ("read it with
 * process.output"); under `server.toolNames: "underscore"` a model that follows them as written
 * gets "Tool not found", so they are rewritten to `process_output` on the way out.
 *
 * Only whole tool names are rewritten: `fs.readFile`, `config.json`, `/tmp/fs.read` or
 * `fs.read.bak` are not tool names. `process.list is false` names the setting, not the tool,
 * and is left alone. Data is never rewritten: a name that occurs in the call's arguments or in
 * the structured result (file contents, command output) stays as it is in the whole text.
 */
import type { Config } from '../config/schema.js';

/** The name a tool is exposed under: the contract's dotted name, or with underscores for strict hosts. */
export function exposedName(name: string, config: Readonly<Config>): string {
  return config.server.toolNames === 'underscore' ? name.replace(/\./g, '_') : name;
}

export interface ToolNameRewriter {
  /**
   * `text` with every tool name in its exposed form, except the names that occur in a string
   * anywhere inside `data` (the call's arguments, its structured result). `data` is only looked
   * at when the text names a tool at all.
   */
  rewrite(text: string, ...data: unknown[]): string;
  /** The tool names that occur in any string inside `values`. */
  namesIn(...values: unknown[]): Set<string>;
}

const IDENTITY: ToolNameRewriter = { rewrite: (text) => text, namesIn: () => new Set() };

/** `names`: every tool the server knows (granted or not), by contract name. */
export function toolNameRewriter(names: readonly string[], toolNames: Config['server']['toolNames']): ToolNameRewriter {
  const dotted = [...new Set(names.filter((n) => n.includes('.')))].sort((a, b) => b.length - a.length);
  if (toolNames === 'dotted' || dotted.length === 0) return IDENTITY;
  const alternatives = dotted.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  // Not inside a longer word, path or name (before: a word character, ".", "/", "\", "-";
  // after: a word character, "-" or ".word"), and not a setting stated as true/false.
  const pattern = new RegExp(`(?<![\\w./\\\\-])(?:${alternatives})(?![\\w-]|\\.\\w)(?!\\s+is\\s+(?:true|false)\\b)`, 'g');
  // The same without the g flag, whose lastIndex state would leak between calls.
  const probe = new RegExp(pattern.source);
  const exposed = (name: string) => name.replace(/\./g, '_');
  const rewriter: ToolNameRewriter = {
    rewrite(text, ...data) {
      if (!probe.test(text)) return text;
      const keep = rewriter.namesIn(...data);
      return text.replace(pattern, (name) => (keep.has(name) ? name : exposed(name)));
    },
    namesIn(...values) {
      const found = new Set<string>();
      // Iterative: a UI tree can nest deeper than is wise to recurse over.
      const stack = [...values];
      while (stack.length > 0) {
        const value = stack.pop();
        // matchAll copies the pattern's lastIndex: start each string from 0.
        pattern.lastIndex = 0;
        if (typeof value === 'string') for (const match of value.matchAll(pattern)) found.add(match[0]);
        else if (value && typeof value === 'object') for (const v of Object.values(value)) stack.push(v);
      }
      return found;
    },
  };
  return rewriter;
}
