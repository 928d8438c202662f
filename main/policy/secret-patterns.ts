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

/** A built-in secret location: its pattern, paths it must protect, and look-alikes it must not. */
export interface SecretLocation {
  pattern: string;
  /** Relative paths, `/`-separated, the pattern must match. */
  matches: readonly string[];
  /** Relative paths it must not match. */
  nearMisses: readonly string[];
}

/**
 * Built-in secret locations. `.ssh/` style entries deny the whole directory. Each carries
 * examples, checked through the real matcher when this module loads (checkSecretExamples).
 */
export const BUILT_IN_SECRET_LOCATIONS: readonly SecretLocation[] = [
  { pattern: '.ssh/', matches: ['.ssh', '.ssh/id_rsa', 'home/u/.ssh/known_hosts', '.SSH/config'], nearMisses: ['ssh/config', 'my.ssh.txt', '.sshrc'] },
  { pattern: '.gnupg/', matches: ['.gnupg/pubring.kbx'], nearMisses: ['gnupg/README', '.gnupg-notes'] },
  { pattern: '.aws/', matches: ['.aws/credentials'], nearMisses: ['aws/config.ts', '.aws-sam/build'] },
  { pattern: '.env', matches: ['.env', 'app/.env', '.Env', '.e\u200cnv'], nearMisses: ['.environment', 'env', 'src/env.ts'] },
  { pattern: '.env.*', matches: ['.env.local', '.env.production.local', '.ENV.LOCAL'], nearMisses: ['.environment', 'env.local'] },
  { pattern: '.envrc', matches: ['.envrc', 'proj/.envrc'], nearMisses: ['envrc', '.envrc.example'] },
  { pattern: '*.pem', matches: ['certs/server.pem', '.pem', 'certs/SERVER.PEM'], nearMisses: ['pem', 'server.pem.txt'] },
  { pattern: '*.key', matches: ['tls/server.key'], nearMisses: ['public.key.txt', 'keys', 'keyring'] },
  { pattern: '*.p12', matches: ['store.p12'], nearMisses: ['store.p12.bak'] },
  { pattern: '*.pfx', matches: ['store.pfx'], nearMisses: ['pfx.txt'] },
  { pattern: 'id_rsa*', matches: ['id_rsa', 'backup/id_rsa.pub', 'ID_RSA'], nearMisses: ['id-rsa-notes.md', 'my_id_rsa'] },
  { pattern: 'id_dsa*', matches: ['id_dsa'], nearMisses: ['id-dsa'] },
  { pattern: 'id_ecdsa*', matches: ['id_ecdsa_sk'], nearMisses: ['ecdsa.txt'] },
  { pattern: 'id_ed25519*', matches: ['keys/id_ed25519'], nearMisses: ['ed25519.txt'] },
  { pattern: '.git-credentials', matches: ['.git-credentials'], nearMisses: ['git-credentials.md'] },
  { pattern: '.npmrc', matches: ['.npmrc', '\ufeff.npmrc'], nearMisses: ['.npmrc.bak', 'npmrc'] },
  { pattern: '.netrc', matches: ['.netrc'], nearMisses: ['netrc.5'] },
  { pattern: '.pgpass', matches: ['.pgpass'], nearMisses: ['pgpass.conf'] },
  // Credentials in tool configs: remote URLs with passwords, registry and cluster logins.
  { pattern: '.git/config', matches: ['.git/config', 'repo/.git/config'], nearMisses: ['.git/HEAD', 'config', '.github/config'] },
  { pattern: '.config/gh/hosts.yml', matches: ['.config/gh/hosts.yml', 'home/u/.config/gh/hosts.yml'], nearMisses: ['.config/gh/config.yml', 'gh/hosts.yml'] },
  { pattern: '.config/hub', matches: ['.config/hub'], nearMisses: ['.config/hubble', 'hub'] },
  { pattern: '.docker/config.json', matches: ['.docker/config.json'], nearMisses: ['docker/config.json', '.docker/daemon.json'] },
  { pattern: '.dockercfg', matches: ['.dockercfg'], nearMisses: ['dockercfg'] },
  { pattern: '.kube/config', matches: ['.kube/config'], nearMisses: ['kube/config', '.kube/cache/x'] },
  { pattern: '.pypirc', matches: ['.pypirc'], nearMisses: ['pypirc.md'] },
  { pattern: '.gem/credentials', matches: ['.gem/credentials'], nearMisses: ['.gem/specs', 'credentials'] },
  { pattern: '.vault-token', matches: ['.vault-token'], nearMisses: ['vault-token.md'] },
  { pattern: '.cargo/credentials', matches: ['.cargo/credentials'], nearMisses: ['.cargo/config.toml'] },
  { pattern: '.cargo/credentials.toml', matches: ['.cargo/credentials.toml'], nearMisses: ['credentials.toml'] },
  { pattern: '.terraform.d/credentials.tfrc.json', matches: ['.terraform.d/credentials.tfrc.json'], nearMisses: ['.terraform.d/plugins/x'] },
  { pattern: '.terraformrc', matches: ['.terraformrc'], nearMisses: ['terraformrc.md'] },
  { pattern: 'terraform.rc', matches: ['AppData/Roaming/terraform.rc'], nearMisses: ['terraformXrc', 'main.tf'] },
  { pattern: 'rclone.conf', matches: ['.config/rclone/rclone.conf'], nearMisses: ['rclone.conf.example'] },
  { pattern: '.s3cfg', matches: ['.s3cfg'], nearMisses: ['s3cfg'] },
  { pattern: '.boto', matches: ['.boto'], nearMisses: ['boto', '.botorc'] },
  { pattern: '*.ppk', matches: ['keys/server.ppk'], nearMisses: ['ppk'] },
  { pattern: '*.kdbx', matches: ['Passwords.kdbx'], nearMisses: ['kdbx.md'] },
  // Cloud CLI folders and secret stores, whole.
  { pattern: '.azure/', matches: ['.azure/accessTokens.json'], nearMisses: ['azure/main.bicep'] },
  { pattern: '.config/gcloud/', matches: ['.config/gcloud/credentials.db'], nearMisses: ['gcloud/notes', '.config/gcloud-tools'] },
  { pattern: '.oci/', matches: ['.oci/config'], nearMisses: ['oci/config'] },
  { pattern: '.password-store/', matches: ['.password-store/mail.gpg'], nearMisses: ['password-store'] },
  { pattern: '.local/share/keyrings/', matches: ['.local/share/keyrings/login.keyring'], nearMisses: ['.local/share/applications/x.desktop'] },
  // Shell and REPL histories: commands typed with passwords in them.
  { pattern: '.bash_history', matches: ['.bash_history'], nearMisses: ['bash_history.md'] },
  { pattern: '.zsh_history', matches: ['.zsh_history'], nearMisses: ['.zsh_history_backup'] },
  { pattern: '.sh_history', matches: ['.sh_history'], nearMisses: ['.bash_history'] },
  { pattern: '.histfile', matches: ['.histfile'], nearMisses: ['histfile'] },
  { pattern: 'fish_history', matches: ['.local/share/fish/fish_history'], nearMisses: ['fish_history.bak'] },
  { pattern: '.python_history', matches: ['.python_history'], nearMisses: ['python_history'] },
  { pattern: '.node_repl_history', matches: ['.node_repl_history'], nearMisses: ['.node_repl'] },
  { pattern: '.psql_history', matches: ['.psql_history'], nearMisses: ['.psqlrc'] },
  { pattern: '.mysql_history', matches: ['.mysql_history'], nearMisses: ['.my.cnf'] },
  { pattern: '.sqlite_history', matches: ['.sqlite_history'], nearMisses: ['.sqliterc'] },
  { pattern: '.rediscli_history', matches: ['.rediscli_history'], nearMisses: ['.redisclirc'] },
  { pattern: '.irb_history', matches: ['.irb_history'], nearMisses: ['.irbrc'] },
  { pattern: '.lesshst', matches: ['.lesshst'], nearMisses: ['lesshst'] },
];

/** The built-in patterns, as written. */
export const BUILT_IN_SECRET_PATTERNS: readonly string[] = Object.freeze(BUILT_IN_SECRET_LOCATIONS.map((location) => location.pattern));

/**
 * Git folders: a repository's (`.git`, or a bare `backup.git`, which a push runs git in), a linked
 * worktree's (`.git/worktrees/<name>`), a submodule's (`.git/modules/<name>`, whose name may hold
 * slashes, with its own worktrees and submodules below it).
 */
const GIT_FOLDERS = ['.git', '.git/worktrees/*', '.git/modules/**', '*.git', '*.git/worktrees/*'];

/**
 * What in a git folder makes git run a program, or read another git folder's:
 *
 * - `hooks/`: programs git runs on commits, checkouts, merges, pushes;
 * - `config`: settings that name programs (core.fsmonitor, filters, aliases, core.hooksPath);
 * - `config.worktree`: the same settings for one worktree, read when extensions.worktreeConfig
 *   is on (the main worktree's in `.git`, a linked one's in `.git/worktrees/<name>`);
 * - `commondir`: names the shared git folder, whose config and hooks git then uses. git reads
 *   it in any git folder, `.git` itself included, not only in a linked worktree's;
 * - `.git`: git on the other side of a local remote opens `<path>/.git` before `<path>` itself,
 *   and follows a file there to any repository (a bare `backup.git` holds none of its own).
 */
export const GIT_FOLDER_CODE = ['hooks/', 'config', 'config.worktree', 'commondir', '.git'];

/**
 * A linked worktree's `gitdir` names its working tree: `git worktree remove` deletes the folder
 * it names and `git worktree repair` writes a `.git` file there, wherever that is.
 */
const WORKTREE_POINTERS = ['.git/worktrees/*/gitdir', '.git/modules/**/worktrees/*/gitdir', '*.git/worktrees/*/gitdir'];

/**
 * A rebase, cherry-pick or revert under way: its list of steps (`exec` lines run commands) goes on
 * when the owner continues what `git status` says is in progress. Only git makes these.
 */
const GIT_FOLDER_STEPS = ['rebase-merge/', 'rebase-apply/', 'sequencer/'];

/**
 * Where git takes code from on the owner's next git command, in every kind of git folder:
 * refused for writes unless filesystem.allowGitHookWrites.
 */
export const GIT_CODE_PATTERNS: readonly string[] = Object.freeze([
  ...GIT_FOLDERS.flatMap((folder) => [...GIT_FOLDER_CODE, ...GIT_FOLDER_STEPS].map((file) => `${folder}/${file}`)),
  ...WORKTREE_POINTERS,
]);

const gitCodePatterns = memoize((platform: string) => compilePatterns(GIT_CODE_PATTERNS, 'git', platform as Platform));

/**
 * Whether `folder` is where GIT_CODE_PATTERNS protect git's code: its config, and with it its
 * hooks, config.worktree and commondir (one list of folder shapes covers all four). A git folder
 * anywhere else (`m-gd`, or `.git/m-gd`) holds settings the file tools could have written.
 */
export function isGitCodeFolder(folder: string, platform: Platform): boolean {
  return findMatch(gitCodePatterns(platform), wholePath(pathFlavor(platform).join(folder, 'config'), platform)) !== undefined;
}

export type PatternOrigin = 'built-in' | 'deny' | 'git';

export interface SecretPattern {
  /** The pattern as written, for messages. */
  source: string;
  origin: PatternOrigin;
  /** Folded root for an absolute pattern; undefined for one that floats below roots. */
  anchor?: string;
  parts: Part[];
  /** An anchored pattern's leading folders without a glob (`/home/me/work` of `/home/me/work/*.key`), and how many parts they are. */
  literal?: { path: string; parts: number };
}

type Part = RegExp | '**';

/** Code points HFS+ ignores in names (git's list), so `.e\u200Cnv` is `.env` there. */
const IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

export const foldName = memoize((name: string): string => name.normalize('NFC').toLowerCase().replace(IGNORABLE, ''));

export function compilePatterns(sources: readonly string[], origin: PatternOrigin, platform: Platform): SecretPattern[] {
  return sources.map((source) => compilePattern(source, origin, platform));
}

function compilePattern(source: string, origin: PatternOrigin, platform: Platform): SecretPattern {
  const flavor = pathFlavor(platform);
  const written = platform === 'win32' ? source.replace(/\//g, '\\') : source;
  const absolute = platform === 'win32' ? /^([A-Za-z]:\\|\\\\)/.test(written) : written.startsWith('/');
  // An absolute one is normalized as a requested path is (lexically): a `..` kept in it would match nothing.
  const text = absolute ? flavor.normalize(written) : written;
  const root = absolute ? splitPath(text, platform).root : undefined;
  const rest = text.slice(root?.length ?? 0);
  const segments = rest.split(flavor.sep).filter((s) => s !== '' && s !== '.');
  const parts = segments.map((s): Part => (s === '**' ? '**' : segmentRegExp(s)));
  if (root === undefined) return { source, origin, parts };
  const anchor = foldName(root);
  const firstGlob = segments.findIndex((s) => /[*?[]/.test(s));
  const count = firstGlob === -1 ? segments.length : firstGlob;
  if (count === 0) return { source, origin, anchor, parts };
  const literal = { path: flavor.join(root, ...segments.slice(0, count)), parts: count };
  return { source, origin, anchor, parts, literal };
}

/**
 * The same anchored pattern with its literal folders spelled as `real`, where they really are
 * (a link on the way resolved); the source stays the owner's, for messages.
 */
export function rebased(pattern: SecretPattern, real: string, platform: Platform): SecretPattern {
  const { root, segments } = splitPath(real, platform);
  return {
    source: pattern.source,
    origin: pattern.origin,
    anchor: foldName(root),
    parts: [...segments.map(exactPart), ...pattern.parts.slice(pattern.literal?.parts ?? 0)],
  };
}

/** A part matching one name exactly, folded as every name is. */
function exactPart(name: string): Part {
  return new RegExp(`^${[...foldName(name)].map((c) => (REGEXP_SPECIAL.includes(c) ? `\\${c}` : c)).join('')}$`, 's');
}

/** Characters a regular expression gives a meaning to, escaped where a glob means them literally. */
const REGEXP_SPECIAL = '.*+?^${}()|[]\\';

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
    } else out += REGEXP_SPECIAL.includes(c) ? `\\${c}` : c;
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

/**
 * Runs each location's examples through the real matcher (compiled alone, as on Linux): every
 * `matches` path must match, no `nearMisses` path may. Throws at the first disagreement,
 * naming the pattern and the example.
 */
export function checkSecretExamples(locations: readonly SecretLocation[]): void {
  for (const { pattern, matches, nearMisses } of locations) {
    const compiled = compilePatterns([pattern], 'built-in', 'linux');
    const matched = (path: string) => findMatch(compiled, { relative: path.split('/') }) !== undefined;
    const missed = matches.find((path) => !matched(path));
    if (missed !== undefined) throw new Error(`secret pattern ${JSON.stringify(pattern)}: the example ${JSON.stringify(missed)} must match it, but does not`);
    const caught = nearMisses.find(matched);
    if (caught !== undefined) throw new Error(`secret pattern ${JSON.stringify(pattern)}: the near-miss ${JSON.stringify(caught)} must not match it, but does`);
  }
}

checkSecretExamples(BUILT_IN_SECRET_LOCATIONS);
