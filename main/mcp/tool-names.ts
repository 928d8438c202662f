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

export interface ToolNameRewriter {
  /** `text` with every tool name (other than those in `keep`) in its exposed form. */
  rewrite(text: string, keep?: ReadonlySet<string>): string;
  /** The tool names that occur in any string inside `values` (arguments, a structured result). */
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
  const exposed = (name: string) => name.replace(/\./g, '_');
  return {
    rewrite(text, keep) {
      pattern.lastIndex = 0;
      if (!pattern.test(text)) return text;
      return text.replace(pattern, (name) => (keep?.has(name) ? name : exposed(name)));
    },
    namesIn(...values) {
      const found = new Set<string>();
      // Iterative: a UI tree can nest deeper than is wise to recurse over.
      const stack = [...values];
      while (stack.length > 0) {
        const value = stack.pop();
        if (typeof value === 'string') for (const match of value.matchAll(pattern)) found.add(match[0]);
        else if (value && typeof value === 'object') for (const v of Object.values(value)) stack.push(v);
      }
      return found;
    },
  };
}
