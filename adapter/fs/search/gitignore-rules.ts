/**
 * The rules of one ignore file (.gitignore, .ignore, .rgignore) read the way ripgrep reads
 * them, so the built-in walk skips what ripgrep skips: each path is judged by the last rule
 * that matches it alone. (Unlike git, and the `ignore` package, which also ask whether a parent
 * folder is excluded: ripgrep leaves that to the walk, where another file may have re-included
 * the folder.)
 *
 * A line: "#" starts a comment, trailing spaces are dropped (unless escaped), "!" re-includes,
 * a leading "/" or any "/" before the end anchors the glob at the file's folder, a trailing "/"
 * matches folders only, a glob without "/" matches a name at any depth, and "x/**" matches
 * what is inside x but not x itself.
 */
import picomatch from 'picomatch';

interface Rule {
  matches: (relative: string) => boolean;
  whitelist: boolean;
  onlyDirectories: boolean;
}

export type IgnoreVerdict = 'ignored' | 'whitelisted' | undefined;

export class GitignoreRules {
  private readonly rules: Rule[];

  constructor(text: string) {
    this.rules = text.split(/\r?\n/).flatMap((line) => {
      const rule = compileLine(line);
      return rule ? [rule] : [];
    });
  }

  /** The verdict of the last rule matching `relative` (from the ignore file's folder, "/" separated). */
  verdict(relative: string, isDirectory: boolean): IgnoreVerdict {
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i]!;
      if (rule.onlyDirectories && !isDirectory) continue;
      if (rule.matches(relative)) return rule.whitelist ? 'whitelisted' : 'ignored';
    }
    return undefined;
  }
}

function compileLine(raw: string): Rule | null {
  if (raw.startsWith('#')) return null;
  let line = raw.endsWith('\\ ') ? raw : raw.trimEnd();
  if (line === '') return null;
  let whitelist = false;
  let anchored = false;
  if (line.startsWith('\\!') || line.startsWith('\\#')) {
    line = line.slice(1);
  } else {
    if (line.startsWith('!')) {
      whitelist = true;
      line = line.slice(1);
    }
    if (line.startsWith('/')) {
      anchored = true;
      line = line.slice(1);
    }
  }
  let onlyDirectories = false;
  if (line.endsWith('/')) {
    onlyDirectories = true;
    line = line.slice(0, -1);
    if (line.endsWith('\\')) line = line.slice(0, -1);
  }
  if (line === '') return null;
  let glob = line;
  if (!anchored && !glob.includes('/') && !glob.startsWith('**/')) glob = `**/${glob}`;
  if (glob.endsWith('/**')) glob = `${glob}/*`;
  const matches = picomatch(glob, { dot: true, noextglob: true, nonegate: true });
  return { matches, whitelist, onlyDirectories };
}
