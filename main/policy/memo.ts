/**
 * A bounded memo for pure string functions on the hot path of every path check (splitting and
 * case-folding the same few paths again and again). Cleared whole when full: simple, and the
 * working set of one server is small.
 */
export function memoize<T>(compute: (key: string) => T, limit = 4096): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      if (cache.size >= limit) cache.clear();
      value = compute(key);
      cache.set(key, value);
    }
    return value;
  };
}
