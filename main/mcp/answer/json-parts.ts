/**
 * The parts of a structured result worth cutting: long strings and arrays of two or more items,
 * found in one walk that estimates each value's JSON size, and copy-on-write edits at a path.
 */

export type JsonPath = readonly (string | number)[];

export interface BigPart {
  path: JsonPath;
  value: string | unknown[];
  /** Estimated JSON characters. */
  size: number;
}

/** Parts smaller than this are left whole: cutting them would save less than the marker costs. */
export const MIN_PART_CHARS = 256;

/** The largest cuttable parts: strings, arrays of 2+ items (as a whole, not what they contain). */
export function bigParts(root: unknown): BigPart[] {
  const found: BigPart[] = [];
  const walk = (value: unknown, path: (string | number)[]): number => {
    if (typeof value === 'string') {
      const size = value.length + 2;
      if (size >= MIN_PART_CHARS) found.push({ path: [...path], value, size });
      return size;
    }
    if (Array.isArray(value)) {
      const mark = found.length;
      let size = 2;
      value.forEach((item, i) => (size += walk(item, [...path, i]) + 1));
      if (value.length >= 2 && size >= MIN_PART_CHARS) {
        found.length = mark;
        found.push({ path: [...path], value, size });
      }
      return size;
    }
    if (value !== null && typeof value === 'object') {
      let size = 2;
      for (const [key, item] of Object.entries(value)) size += key.length + 4 + walk(item, [...path, key]);
      return size;
    }
    return String(value).length;
  };
  walk(root, []);
  return found;
}

/** `root` with the value at `path` replaced; only the objects on the way are copied. */
export function setAt<T>(root: T, path: JsonPath, value: unknown): T {
  if (path.length === 0) return value as T;
  const [key, ...rest] = path;
  const copy = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<string | number, unknown>;
  copy[key!] = setAt(copy[key!], rest, value);
  return copy as T;
}

/**
 * `root` without the members at these payload paths: dotted keys, `[]` after a key for every item
 * of its array ("stdout.text", "files[].diff"). Missing members are ignored.
 */
export function withoutPaths(root: Record<string, unknown>, paths: readonly string[]): Record<string, unknown> {
  return paths.reduce<Record<string, unknown>>((out, dotted) => dropAt(out, dotted.split('.')) as Record<string, unknown>, root);
}

function dropAt(value: unknown, [segment, ...rest]: string[]): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const each = segment!.endsWith('[]');
  const key = each ? segment!.slice(0, -2) : segment!;
  if (!(key in value)) return value;
  const { [key]: member, ...kept } = value as Record<string, unknown>;
  if (rest.length === 0 && !each) return kept;
  const inner = each ? (Array.isArray(member) ? member.map((item) => dropAt(item, rest)) : member) : dropAt(member, rest);
  return { ...(value as Record<string, unknown>), [key]: inner };
}

/** "a.b[3].c" for notes a model reads. */
export function pathText(path: JsonPath): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('');
}
