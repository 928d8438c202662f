/**
 * Deny patterns for secret locations: the built-in list (filesystem.protectSecrets) and the
 * owner's globs (filesystem.deny). A pattern is matched against path segments:
 *
 * - `name`, `*.pem`, `.env.*`: any one segment, so the entry and everything below it;
 * - `dir/`: a trailing slash changes nothing (a directory's contents are below it anyway);
 * - `a/b`, `a/**\/b`: consecutive segments anywhere in the path (`**` spans any number), the
 *   root's own segments included, so a root inside `.config` still refuses `gh/hosts.yml`
 *   (config check warns about a root a pattern covers whole);
 * - `/abs/path/**`, `C:\abs\*`: anchored at the filesystem root.
 *
 * `*` and `?` stay within one segment and also match a leading dot; `[abc]`/`[!abc]` are
 * classes. Matching ignores case and Unicode normalization on every platform, and drops the
 * zero-width characters HFS+ ignores: for a denylist, matching too much is the safe side.
 */
import { memoize } from './memo.js';
import { pathFlavor, splitPath, type Platform, type SplitPath } from './path-compare.js';

/** Built-in secret locations. `.ssh/` style entries deny the whole directory. */
export const BUILT_IN_SECRET_PATTERNS: readonly string[] = Object.freeze([
  '.ssh/',
  '.gnupg/',
  '.aws/',
  '.env',
  '.env.*',
  '.envrc',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  'id_rsa*',
  'id_dsa*',
  'id_ecdsa*',
  'id_ed25519*',
  '.git-credentials',
  '.npmrc',
  '.netrc',
  '.pgpass',
  // Credentials in tool configs: remote URLs with passwords, registry and cluster logins.
  '.git/config',
  '.config/gh/hosts.yml',
  '.config/hub',
  '.docker/config.json',
  '.dockercfg',
  '.kube/config',
  '.pypirc',
  '.gem/credentials',
  '.vault-token',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.terraform.d/credentials.tfrc.json',
  '.terraformrc',
  'terraform.rc',
  'rclone.conf',
  '.s3cfg',
  '.boto',
  '*.ppk',
  '*.kdbx',
  // Cloud CLI folders and secret stores, whole.
  '.azure/',
  '.config/gcloud/',
  '.oci/',
  '.password-store/',
  '.local/share/keyrings/',
  // Shell and REPL histories: commands typed with passwords in them.
  '.bash_history',
  '.zsh_history',
  '.sh_history',
  '.histfile',
  'fish_history',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history',
  '.sqlite_history',
  '.rediscli_history',
  '.irb_history',
  '.lesshst',
]);

/**
 * Where git runs code from on the owner's next git command, submodules' git folders included:
 * refused for writes unless filesystem.allowGitHookWrites.
 */
export const GIT_CODE_PATTERNS: readonly string[] = Object.freeze(['.git/hooks/', '.git/config', '.git/modules/**/hooks/', '.git/modules/**/config']);

export type PatternOrigin = 'built-in' | 'deny' | 'git';

export interface SecretPattern {
  /** The pattern as written, for messages. */
  source: string;
  origin: PatternOrigin;
  /** Folded root for an absolute pattern; undefined for one that floats below roots. */
  anchor?: string;
  parts: Part[];
}

type Part = RegExp | '**';

/** Code points HFS+ ignores in names (git's list), so `.e\u200Cnv` is `.env` there. */
const IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

export const foldName = memoize((name: string): string => name.normalize('NFC').toLowerCase().replace(IGNORABLE, ''));

export function compilePatterns(sources: readonly string[], origin: PatternOrigin, platform: Platform): SecretPattern[] {
  return sources.map((source) => compilePattern(source, origin, platform));
}

function compilePattern(source: string, origin: PatternOrigin, platform: Platform): SecretPattern {
  const text = platform === 'win32' ? source.replace(/\//g, '\\') : source;
  const absolute = platform === 'win32' ? /^([A-Za-z]:\\|\\\\)/.test(text) : text.startsWith('/');
  let anchor: string | undefined;
  let rest = text;
  if (absolute) {
    const { root } = splitPath(text, platform);
    anchor = foldName(root);
    rest = text.slice(root.length);
  }
  const sep = pathFlavor(platform).sep;
  const parts = rest
    .split(sep)
    .filter((s) => s !== '' && s !== '.')
    .map((s): Part => (s === '**' ? '**' : segmentRegExp(s)));
  return anchor === undefined ? { source, origin, parts } : { source, origin, anchor, parts };
}

function segmentRegExp(glob: string): RegExp {
  let out = '';
  const g = foldName(glob);
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = g.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
        continue;
      }
      let body = g.slice(i + 1, end);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      out += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else out += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, 's');
}

/** Pattern parts from `pi` match segments from `si` on, leaving any rest (that is inside). */
function matchFrom(parts: Part[], pi: number, segments: string[], si: number): boolean {
  if (pi === parts.length) return true;
  const part = parts[pi]!;
  if (part === '**') {
    for (let k = si; k <= segments.length; k++) if (matchFrom(parts, pi + 1, segments, k)) return true;
    return false;
  }
  return si < segments.length && part.test(segments[si]!) && matchFrom(parts, pi + 1, segments, si + 1);
}

export interface MatchTarget {
  /** The segments floating patterns look at: the whole path's (wholePath), or a lone name. */
  relative?: string[];
  /** The whole path (anchored patterns look here). */
  absolute?: SplitPath;
}

/**
 * What a path is matched as: floating patterns see the segments of the whole path, not only
 * those below a root. A root inside a secret folder (~/.config as a root, for
 * .config/gh/hosts.yml) or a nested root (~ and ~/.config) must not cut a pattern in two.
 */
export function wholePath(path: string, platform: Platform): MatchTarget {
  const absolute = splitPath(path, platform);
  return { relative: absolute.segments, absolute };
}

/** The first pattern that denies the target, if any. */
export function findMatch(patterns: readonly SecretPattern[], target: MatchTarget): SecretPattern | undefined {
  const relative = target.relative?.map(foldName);
  // Only anchored patterns look at the whole path: fold it once, and only when one exists.
  let folded: SplitPath | undefined;
  const absoluteOf = (whole: SplitPath) => (folded ??= { root: foldName(whole.root), segments: whole.segments.map(foldName) });
  return patterns.find((p) => {
    const absolute = p.anchor !== undefined && target.absolute ? absoluteOf(target.absolute) : undefined;
    if (p.anchor !== undefined) return absolute !== undefined && absolute.root === p.anchor && matchFrom(p.parts, 0, absolute.segments, 0);
    if (relative === undefined) return false;
    for (let start = 0; start <= relative.length; start++) if (matchFrom(p.parts, 0, relative, start)) return true;
    return false;
  });
}

/**
 * Parts from `pi` consume every segment from `si` on, some non-`**` part is left over, and
 * some non-`**` part matched one of the target's own segments (`used`): the target is an
 * ancestor of what the pattern protects. A leading `**` that swallows the target's whole path
 * (the deny pattern "any folder, then private, then anything", for any file) leaves the pattern
 * matching wherever the target goes.
 */
function ancestorFrom(parts: Part[], pi: number, segments: string[], si: number, used = false): boolean {
  if (si === segments.length) return used && parts.slice(pi).some((part) => part !== '**');
  if (pi === parts.length) return false;
  const part = parts[pi]!;
  if (part === '**') {
    for (let k = si; k <= segments.length; k++) if (ancestorFrom(parts, pi + 1, segments, k, used)) return true;
    return false;
  }
  return part.test(segments[si]!) && ancestorFrom(parts, pi + 1, segments, si + 1, true);
}

/**
 * The first pattern that protects something BELOW the target through the target's own name:
 * renaming or moving the target would break the pattern (`config/credentials.json` when
 * moving `config`, `/abs/proj/private/**` when moving `proj`), so such a move is refused.
 * A floating pattern must use at least the target's last segment; an unrelated ancestor
 * carries its protected entries along, still matching.
 */
export function findAncestorMatch(patterns: readonly SecretPattern[], target: MatchTarget): SecretPattern | undefined {
  const relative = target.relative?.map(foldName);
  let folded: SplitPath | undefined;
  const absoluteOf = (whole: SplitPath) => (folded ??= { root: foldName(whole.root), segments: whole.segments.map(foldName) });
  return patterns.find((p) => {
    if (p.parts.length < 2 && p.anchor === undefined) return false;
    if (p.anchor !== undefined) {
      const absolute = target.absolute ? absoluteOf(target.absolute) : undefined;
      return absolute !== undefined && absolute.root === p.anchor && ancestorFrom(p.parts, 0, absolute.segments, 0);
    }
    if (relative === undefined) return false;
    for (let start = 0; start < relative.length; start++) if (ancestorFrom(p.parts, 0, relative, start)) return true;
    return false;
  });
}
