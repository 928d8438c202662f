/**
 * How deep an upstream's JSON nests, found without recursion. A listing item nested thousands of
 * levels deep (a few KB on the wire) overflowed the stack of every walk that came after it (the
 * secret scrub, the own-views check, the pins file's canonical JSON), and the listing it was in
 * failed for every host, built-in tools included; it is left out before anything walks it.
 */

/** Nesting an upstream's tool, resource, template or prompt may have (real schemas stay far below). */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` holds objects or arrays nested more than `max` levels deep. */
export function nestedDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth >= max) return true;
    for (const child of Array.isArray(next.value) ? next.value : Object.values(next.value)) stack.push({ value: child, depth: next.depth + 1 });
  }
  return false;
}
