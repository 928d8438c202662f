/**
 * Which entries a walk skips: hidden names (unless asked), `.git` always, ignore files
 * (.gitignore, .ignore, .rgignore) found inside the walked tree with git's precedence (a
 * deeper file's rules, negations included, win), and the caller's include/exclude globs.
 * The same rules are given to ripgrep as flags, so both engines pick the same files.
 */
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';

export const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore'] as const;

export interface FilterOptions {
  hidden: boolean;
  gitignore: boolean;
  include: readonly string[];
  exclude: readonly string[];
}

interface Level {
  /** Relative path of the directory whose ignore files these are ('' for the walk's start). */
  base: string;
  rules: Ignore;
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

  /** A new level of ignore rules for the directory at `base`, from its ignore files' texts. */
  level(base: string, texts: readonly string[]): Level | null {
    if (!this.options.gitignore || texts.length === 0) return null;
    return { base, rules: ignore({ allowRelativePaths: true }).add(texts.join('\n')) };
  }

  /** Whether to skip the entry at `relative` (directories: the whole subtree). */
  skips(relative: string, name: string, isDirectory: boolean, levels: readonly Level[]): boolean {
    if (name === '.git') return true;
    if (!this.options.hidden && name.startsWith('.')) return true;
    if (this.exclude?.(relative)) return true;
    for (let i = levels.length - 1; i >= 0; i--) {
      const { base, rules } = levels[i]!;
      const inLevel = base === '' ? relative : relative.slice(base.length + 1);
      const verdict = rules.test(isDirectory ? `${inLevel}/` : inLevel);
      if (verdict.unignored) return false;
      if (verdict.ignored) return true;
    }
    return !isDirectory && this.include !== null && !this.include(relative);
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
