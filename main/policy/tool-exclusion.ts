/**
 * Which of an upstream's tools the owner's settings leave out (`tools.include`, `tools.exclude`,
 * `tools.excludeMatching`): the one rule for what the gateway exposes, `gateway list` (which
 * starts nothing) and the settings page's tool switches. Pure: the window runs it too.
 */

/** The part of a gateway entry's `tools` that chooses tools. */
export interface ToolChoice {
  include?: readonly string[];
  exclude?: readonly string[];
  excludeMatching?: readonly string[];
}

/** Why a tool is left out: not among `include`, named in `exclude`, or its name holds `part` of `excludeMatching`. */
export type LeftOut = { by: 'include' } | { by: 'exclude' } | { by: 'excludeMatching'; part: string };

/** For each tool name, why the settings leave it out, or null when it is exposed. */
export function leftOutBy(choice: ToolChoice): (tool: string) => LeftOut | null {
  const only = choice.include && new Set(choice.include);
  const exact = new Set(choice.exclude ?? []);
  const parts = (choice.excludeMatching ?? []).map((part) => ({ part, folded: fold(part) }));
  return (name) => {
    if (only !== undefined && !only.has(name)) return { by: 'include' };
    if (exact.has(name)) return { by: 'exclude' };
    const folded = fold(name);
    const match = parts.find(({ folded: part }) => containsLoosely(folded, part));
    return match ? { by: 'excludeMatching', part: match.part } : null;
  };
}

/** Whether the settings leave a tool out (for the gateway's listing and `gateway list`). */
export function excludedBy(entry: { tools: ToolChoice }): (tool: string) => boolean {
  const why = leftOutBy(entry.tools);
  return (name) => why(name) !== null;
}

function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/**
 * Whether `name` holds `part`, a character outside ASCII in `name` standing for any character of
 * it: `dеlete_all` with a Cyrillic е is excluded by "delete" as the name it looks like would be
 * (MCP tool names are ASCII; one that is not gains nothing by looking like another).
 */
function containsLoosely(name: string, part: string): boolean {
  const chars = [...name];
  const wanted = [...part];
  for (let start = 0; start + wanted.length <= chars.length; start++)
    if (wanted.every((c, i) => chars[start + i] === c || chars[start + i]!.charCodeAt(0) > 0x7f)) return true;
  return false;
}
