/**
 * How much of an upstream's tool list is taken: at most MAX_TOOLS tools, none whose description
 * or schemas are larger than a model could use. An upstream listing 20,000 tools of 4 KB each
 * grew the pins file to 83 MiB and broke tools/list; what is past these limits is left out (not
 * pinned, not listed), with a log line, and named as left out in `gateway list`, `gateway test`,
 * system_info and the tray.
 */
import type { ToolDefinition } from './pin-store.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './json-depth.js';

export const MAX_TOOLS = 512;
export const MAX_DESCRIPTION_CHARS = 8 * 1024;
/** The input and output schemas and the `_meta` together, as JSON. */
export const MAX_SCHEMA_BYTES = 64 * 1024;

/** The tools kept, and a sentence for each left out (those past MAX_TOOLS in one). */
export function boundedTools(tools: readonly ToolDefinition[], listedMore: boolean): { kept: ToolDefinition[]; leftOut: string[] } {
  const kept: ToolDefinition[] = [];
  const leftOut: string[] = [];
  let over = 0;
  for (const tool of tools) {
    // Checked first: the JSON of a value nested thousands deep is not even made.
    if (nestedDeeperThan(tool)) {
      leftOut.push(`tool "${tool.name}" left out: it nests deeper than ${MAX_JSON_DEPTH} levels`);
      continue;
    }
    const schemas = JSON.stringify([tool.inputSchema, tool.outputSchema ?? null, tool._meta ?? null]).length;
    if ((tool.description?.length ?? 0) > MAX_DESCRIPTION_CHARS)
      leftOut.push(`tool "${tool.name}" left out: its description is over ${MAX_DESCRIPTION_CHARS} characters`);
    else if ((tool.title?.length ?? 0) > MAX_DESCRIPTION_CHARS)
      leftOut.push(`tool "${tool.name}" left out: its title is over ${MAX_DESCRIPTION_CHARS} characters`);
    else if (schemas > MAX_SCHEMA_BYTES) leftOut.push(`tool "${tool.name}" left out: its schemas and _meta are over ${MAX_SCHEMA_BYTES / 1024} KiB`);
    else if (kept.length >= MAX_TOOLS) over++;
    else kept.push(tool);
  }
  if (over > 0 || listedMore) leftOut.push(`${listedMore ? 'more than ' : ''}${over} tools left out: at most ${MAX_TOOLS} are taken from one server`);
  return { kept, leftOut };
}
