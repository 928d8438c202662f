/**
 * Which entries a walk skips, as ripgrep decides (the `ignore` crate), so both engines pick the
 * same files: `.git` always; the caller's exclude globs; ignore files found inside the walked
 * tree, where `.rgignore` rules beat `.ignore` rules, which beat `.gitignore` rules, each kind
 * decided by the deepest file with a rule for the path (negations included); then hidden
 * names (unless asked), except those an ignore file whitelists; then the include globs, which
 * only narrow. Globs are read like ignore-file lines (gitignore-rules.ts), as ripgrep reads its
 * --glob flags, which are given the same globs.
 */
import picomatch from 'picomatch';
import type { FilterOptions } from '../../contract/files.js';
import { GitignoreRules, type IgnoreVerdict } from './gitignore-rules.js';

/** Highest precedence first. */
export const IGNORE_FILES = ['.rgignore', '.ignore', '.gitignore'] as const;
export type IgnoreFile = (typeof IGNORE_FILES)[number];

interface Level {
  /** Relative path of the directory whose ignore files these are ('' for the walk's start). */
  base: string;
  rules: Partial<Record<IgnoreFile, GitignoreRules>>;
}

/** fs.find's name pattern: a glob without "/" matches a name at any depth; with "/" it matches the path from the walk's start. */
export function globMatcher(globs: readonly string[]): ((relative: string) => boolean) | null {
  if (globs.length === 0) return null;
  const tests = globs.map((glob) => picomatch(glob.replace(/^\.\//, ''), { dot: true, basename: !glob.includes('/') }));
  return (relative) => tests.some((test) => test(relative));
}

/** An include or exclude glob as both engines read it: "./x" is "x", and a leading "!" or "#" is literal. */
export function searchGlob(glob: string): string {
  const bare = glob.replace(/^(\.\/)+/, '');
  return /^[!#]/.test(bare) ? `\\${bare}` : bare;
}

/** Globs as ignore-file lines: a path one of them matches is "ignored" by these rules. */
function globRules(globs: readonly string[]): GitignoreRules | null {
  return globs.length === 0 ? null : new GitignoreRules(globs.map(searchGlob).join('\n'));
}

export class EntryFilter {
  private readonly include: GitignoreRules | null;
  private readonly exclude: GitignoreRules | null;

  constructor(private readonly options: FilterOptions) {
    this.include = globRules(options.include);
    this.exclude = globRules(options.exclude);
  }

  get usesIgnoreFiles(): boolean {
    return this.options.gitignore;
  }

  /** A new level of ignore rules for the directory at `base`, from the texts of its ignore files. */
  level(base: string, files: ReadonlyArray<readonly [IgnoreFile, string]>): Level | null {
    if (!this.options.gitignore || files.length === 0) return null;
    const rules: Level['rules'] = {};
    for (const [file, text] of files) rules[file] = new GitignoreRules(text);
    return { base, rules };
  }

  /** Whether to skip the entry at `relative` (directories: the whole subtree). */
  skips(relative: string, name: string, isDirectory: boolean, levels: readonly Level[]): boolean {
    if (name === '.git') return true;
    if (this.exclude?.verdict(relative, isDirectory) === 'ignored') return true;
    const verdict = this.ignoreVerdict(relative, isDirectory, levels);
    if (verdict === 'ignored') return true;
    if (verdict !== 'whitelisted' && !this.options.hidden && name.startsWith('.')) return true;
    return !isDirectory && this.include !== null && this.include.verdict(relative, false) !== 'ignored';
  }

  private ignoreVerdict(relative: string, isDirectory: boolean, levels: readonly Level[]): IgnoreVerdict {
    for (const file of IGNORE_FILES) {
      for (let i = levels.length - 1; i >= 0; i--) {
        const { base, rules } = levels[i]!;
        const verdict = rules[file]?.verdict(base === '' ? relative : relative.slice(base.length + 1), isDirectory);
        if (verdict) return verdict;
      }
    }
    return undefined;
  }
}
