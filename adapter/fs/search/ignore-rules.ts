/**
 * Which entries a walk skips, as ripgrep decides (the `ignore` crate), so both engines pick the
 * same files: `.git` always; the caller's exclude globs; ignore files found inside the walked
 * tree, where `.rgignore` rules beat `.ignore` rules, which beat `.gitignore` rules, each kind
 * decided by the deepest file with a rule for the path (negations included); then hidden
 * names (unless asked), except those an ignore file whitelists; then the include globs, which
 * only narrow. The same rules are given to ripgrep as flags.
 */
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';

/** Highest precedence first. */
export const IGNORE_FILES = ['.rgignore', '.ignore', '.gitignore'] as const;
export type IgnoreFile = (typeof IGNORE_FILES)[number];

export interface FilterOptions {
  hidden: boolean;
  gitignore: boolean;
  include: readonly string[];
  exclude: readonly string[];
}

interface Level {
  /** Relative path of the directory whose ignore files these are ('' for the walk's start). */
  base: string;
  rules: Partial<Record<IgnoreFile, Ignore>>;
}

/** A glob without "/" matches a name at any depth; with "/" it matches the path from the walk's start. */
export function globMatcher(globs: readonly string[]): ((relative: string) => boolean) | null {
  if (globs.length === 0) return null;
  const tests = globs.map((glob) => picomatch(glob.replace(/^\.\//, ''), { dot: true, basename: !glob.includes('/') }));
  return (relative) => tests.some((test) => test(relative));
}

export class EntryFilter {
  private readonly include: ((relative: string) => boolean) | null;
  private readonly exclude: ((relative: string) => boolean) | null;

  constructor(private readonly options: FilterOptions) {
    this.include = globMatcher(options.include);
    this.exclude = globMatcher(options.exclude);
  }

  get usesIgnoreFiles(): boolean {
    return this.options.gitignore;
  }

  /** A new level of ignore rules for the directory at `base`, from the texts of its ignore files. */
  level(base: string, files: ReadonlyArray<readonly [IgnoreFile, string]>): Level | null {
    if (!this.options.gitignore || files.length === 0) return null;
    const rules: Level['rules'] = {};
    for (const [file, text] of files) rules[file] = ignore({ allowRelativePaths: true }).add(text);
    return { base, rules };
  }

  /** Whether to skip the entry at `relative` (directories: the whole subtree). */
  skips(relative: string, name: string, isDirectory: boolean, levels: readonly Level[]): boolean {
    if (name === '.git') return true;
    if (this.exclude?.(relative)) return true;
    const verdict = this.ignoreVerdict(relative, isDirectory, levels);
    if (verdict === 'ignored') return true;
    if (verdict !== 'whitelisted' && !this.options.hidden && name.startsWith('.')) return true;
    return !isDirectory && this.include !== null && !this.include(relative);
  }

  private ignoreVerdict(relative: string, isDirectory: boolean, levels: readonly Level[]): 'ignored' | 'whitelisted' | undefined {
    for (const file of IGNORE_FILES) {
      for (let i = levels.length - 1; i >= 0; i--) {
        const { base, rules } = levels[i]!;
        const inLevel = base === '' ? relative : relative.slice(base.length + 1);
        const verdict = rules[file]?.test(isDirectory ? `${inLevel}/` : inLevel);
        if (verdict?.ignored) return 'ignored';
        if (verdict?.unignored) return 'whitelisted';
      }
    }
    return undefined;
  }
}

/** Depth-first order with names sorted at each level, the order both engines report in. */
export function compareRelative(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) {
      // A directory's own entries come at its place among its siblings' names.
      return x[i]! < y[i]! ? -1 : 1;
    }
  }
  return x.length - y.length;
}
