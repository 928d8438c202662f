/**
 * The names upstream tools and prompts are exposed under: `<prefix>_<name>`, portable for every
 * client (letters, digits, `_` and `-`, at most 64 characters; OpenAI's and Anthropic's tool
 * name rules). Characters outside that set become `_`; a name still too long, two tools that
 * come out the same, or one that would shadow a built-in tool is refused, naming the entry.
 */

export const MAX_NAME = 64;
const PORTABLE = /^[A-Za-z0-9_-]{1,64}$/;

export type Naming = { exposed: string } | { refused: string };

/** `taken` holds every name already in use (built-in tools in both styles, earlier upstream tools). */
export function exposedToolName(prefix: string, upstream: string, tool: string, taken: ReadonlyMap<string, string>): Naming {
  const exposed = `${prefix}_${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  if (!PORTABLE.test(exposed)) {
    return {
      refused: `${upstream}: the tool "${tool}" would be exposed as "${exposed}", longer than ${MAX_NAME} characters; exclude it or choose a shorter prefix`,
    };
  }
  const owner = taken.get(exposed);
  if (owner !== undefined) {
    return { refused: `${upstream}: the tool "${tool}" would be exposed as "${exposed}", which is already ${owner}; exclude it or choose another prefix` };
  }
  return { exposed };
}
