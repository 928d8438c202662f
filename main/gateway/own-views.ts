/** JSON as upstreams send it. */
type Json = { [key: string]: unknown };

/**
 * A value an upstream sent (a listing item, an answer, a resource read, a prompt) without what,
 * in any `_meta` in it, points at this server's own views: `ui.resourceUri`, `ui/resourceUri`,
 * `openai/outputTemplate`, or any other key whose value is a URI under `prefix`. An MCP Apps host
 * would render our trusted page (the activity log, the screenshot whose clicks call input_click)
 * with the upstream's data. Its own `ui://` views pass. The value itself is answered when nothing
 * points there (the common case costs one walk, no copy).
 */
export function withoutOwnViews<T>(value: T, prefix: string): T {
  return walk(value, prefix, false) as T;
}

function walk(value: unknown, prefix: string, inMeta: boolean): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((item, index) => {
      const next = walk(item, prefix, inMeta);
      if (next !== item) (out ??= [...value])[index] = next;
    });
    return out ?? value;
  }
  let out: Json | null = null;
  for (const [key, item] of Object.entries(value as Json)) {
    const meta = inMeta || key === '_meta';
    if (meta && typeof item === 'string' && pointsAt(item, prefix)) {
      out ??= { ...(value as Json) };
      delete out[key];
      continue;
    }
    const next = walk(item, prefix, meta);
    if (next !== item) (out ??= { ...(value as Json) })[key] = next;
  }
  return out ?? value;
}

function pointsAt(text: string, prefix: string): boolean {
  return text.trim().toLowerCase().startsWith(prefix);
}
