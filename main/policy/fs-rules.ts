/**
 * The filesystem rules, declared once. Each rule says what it protects and how each of the two
 * places that enforce it does so:
 *
 * - the filesystem tools (filesystem.ts) refuse every access (`deny`) or every write
 *   (`deny-write`), matching its places and patterns on the requested and the real path;
 * - the command sandbox (sandbox.ts) hides it (`hide`), keeps it read-only (`read-only`), or
 *   gives commands a private one of their own (`private`). It mounts by path, so it takes the
 *   rule's places, and of its patterns those that name one place: an absolute one as it is, a
 *   relative one in the owner's home folder (`*.pem` cannot be mounted over; the tools still
 *   refuse it everywhere).
 *
 * A new rule is one entry here, with an example place; test/policy/fs-rules.test.ts holds both
 * faces of every entry to it. What only shapes a command's world (a private /tmp, /run and other
 * users' homes hidden, the display's sockets) is not a filesystem rule and stays in sandbox.ts.
 */
import nodePath from 'node:path';
import type { Config } from '../config/schema.js';
import { inHome, namesUserHome, startsInHome } from './home-path.js';
import { BUILT_IN_SECRET_PATTERNS, GIT_CODE_PATTERNS } from './secret-patterns.js';

const posix = nodePath.posix;

export type ToolsFace = 'deny' | 'deny-write';
export type SandboxFace = 'hide' | 'read-only' | 'private';

/** What the rules depend on besides the config: where the server stands. */
export interface RuleFacts {
  platform: NodeJS.Platform;
  /** The owner's home folder, when known. */
  home?: string;
  /** The server runs as root (Linux), so its commands own root's files. */
  asRoot?: boolean;
  /** The config in use and this app's folders (main/host/places.ts). */
  protectedFiles?: readonly string[];
}

type FilesystemConfig = Config['filesystem'];

export interface FsRule {
  id: 'app-files' | 'system-private' | 'secrets' | 'browser-profiles' | 'deny-list' | 'root-only' | 'git-code';
  /** Why no tool may touch it, as a refusal says it ("... which <why>"). */
  why: string;
  tools: ToolsFace;
  sandbox: SandboxFace;
  applies(config: FilesystemConfig, facts: RuleFacts): boolean;
  /** Absolute places it covers, with everything below them. */
  places?(config: FilesystemConfig, facts: RuleFacts): readonly string[];
  /** Patterns in secret-patterns.ts syntax; `origin` names them in refusals. */
  patterns?: { origin: 'built-in' | 'deny' | 'git'; list(config: FilesystemConfig, facts: RuleFacts): readonly string[] };
  /** A place it covers on a POSIX machine whose home is `home`, for the test that holds both faces to it. */
  example(home: string): string;
}

/** Browser profiles: their cookies are logins to every site. Relative to the home folder. */
export const BROWSER_PROFILES: Readonly<Record<'linux' | 'darwin', readonly string[]>> = Object.freeze({
  linux: ['.mozilla', '.config/google-chrome', '.config/chromium', '.config/BraveSoftware', '.config/microsoft-edge', '.config/vivaldi', 'snap/firefox'],
  darwin: [
    'Library/Application Support/Google/Chrome',
    'Library/Application Support/Chromium',
    'Library/Application Support/Firefox',
    'Library/Application Support/BraveSoftware',
    'Library/Application Support/Microsoft Edge',
    'Library/Safari',
    'Library/Cookies',
    'Library/Keychains',
  ],
});

/**
 * Readable by root only: password hashes, sudo rules, the SSH host keys, and the well-known homes
 * of system private keys and network secrets (TLS keys, Let's Encrypt, Wi-Fi and VPN credentials,
 * Kerberos, PPP, IPsec). A server running as root owns them, and so would its commands.
 */
export const ROOT_ONLY_FILES: readonly string[] = Object.freeze([
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/security/opasswd',
  '/etc/sudoers',
  '/etc/sudoers.d',
  '/etc/ssl/private',
  '/etc/pki/tls/private',
  '/etc/letsencrypt/archive',
  '/etc/letsencrypt/live',
  '/etc/NetworkManager/system-connections',
  '/etc/wireguard',
  '/etc/openvpn',
  '/etc/krb5.keytab',
  '/etc/ipsec.secrets',
  '/etc/ppp/chap-secrets',
  '/etc/ppp/pap-secrets',
  // Every host key type OpenSSH has (the .pub files beside them stay readable).
  '/etc/ssh/ssh_host_dsa_key',
  '/etc/ssh/ssh_host_ecdsa_key',
  '/etc/ssh/ssh_host_ed25519_key',
  '/etc/ssh/ssh_host_rsa_key',
]);

const homePlaces = (list: readonly string[]) => (facts: RuleFacts) =>
  facts.home && posix.isAbsolute(facts.home) ? list.map((p) => posix.join(facts.home!, p)) : [];

export const FS_RULES: readonly FsRule[] = Object.freeze([
  {
    id: 'app-files',
    why: "is this server's own configuration or token file",
    tools: 'deny',
    sandbox: 'hide',
    applies: () => true,
    places: (_config, facts) => facts.protectedFiles ?? [],
    example: (home) => posix.join(home, '.config', 'chatgpt-mcp', 'token'),
  },
  {
    id: 'system-private',
    why: "holds every process's environment, command line and memory (this server's token among them)",
    tools: 'deny',
    // Commands get a /proc of their own pid namespace.
    sandbox: 'private',
    applies: (_config, facts) => facts.platform === 'linux',
    places: () => ['/proc'],
    example: () => '/proc/1/environ',
  },
  {
    id: 'secrets',
    why: 'is protected by a secret pattern (filesystem.protectSecrets)',
    tools: 'deny',
    sandbox: 'hide',
    applies: (config) => config.protectSecrets,
    patterns: { origin: 'built-in', list: () => BUILT_IN_SECRET_PATTERNS },
    example: (home) => posix.join(home, '.ssh', 'id_ed25519'),
  },
  {
    id: 'browser-profiles',
    why: 'is a browser profile, whose cookies are logins to every site (filesystem.protectSecrets)',
    tools: 'deny',
    sandbox: 'hide',
    applies: (config, facts) => config.protectSecrets && (facts.platform === 'linux' || facts.platform === 'darwin'),
    places: (_config, facts) => homePlaces(BROWSER_PROFILES[facts.platform === 'darwin' ? 'darwin' : 'linux'])(facts),
    example: (home) => posix.join(home, '.mozilla', 'firefox', 'cookies.sqlite'),
  },
  {
    id: 'deny-list',
    why: 'matches a deny pattern (filesystem.deny)',
    tools: 'deny',
    sandbox: 'hide',
    applies: (config) => config.deny.length > 0,
    patterns: { origin: 'deny', list: (config, facts) => config.deny.map((pattern) => fromHome(pattern, facts)) },
    example: (home) => posix.join(home, 'private', 'notes.txt'),
  },
  {
    id: 'root-only',
    why: 'is readable only by root, and this server runs as root',
    tools: 'deny',
    sandbox: 'hide',
    applies: (_config, facts) => facts.platform === 'linux' && facts.asRoot === true,
    places: () => ROOT_ONLY_FILES,
    example: () => '/etc/shadow',
  },
  {
    id: 'git-code',
    why: 'is where git runs code from on the next git command (filesystem.allowGitHookWrites)',
    tools: 'deny-write',
    // In writable roots, the hooks and config of the repositories there (sandbox-git.ts).
    sandbox: 'read-only',
    applies: (config) => !config.allowGitHookWrites,
    patterns: { origin: 'git', list: () => GIT_CODE_PATTERNS },
    example: (home) => posix.join(home, 'projects', '.git', 'hooks', 'pre-commit'),
  },
] satisfies FsRule[]);

/** A rule as it applies to one config: its places and patterns worked out. */
export interface ActiveRule {
  rule: FsRule;
  places: readonly string[];
  patterns: readonly string[];
}

export function activeRules(config: FilesystemConfig, facts: RuleFacts): ActiveRule[] {
  return FS_RULES.filter((rule) => rule.applies(config, facts)).map((rule) => ({
    rule,
    places: rule.places?.(config, facts) ?? [],
    patterns: rule.patterns?.list(config, facts) ?? [],
  }));
}

/** `~` or `~/x` (also `~\\x` on Windows) in the owner's home folder (refused when it is not known); a pattern without it as written. */
function fromHome(pattern: string, { home, platform }: RuleFacts): string {
  // Kept as written, `~alex/x` or `~/x` would be a pattern for a folder named so, and protect nothing.
  if (namesUserHome(pattern)) throw new Error(`filesystem.deny: "${pattern}" names a user's home folder: write it as an absolute path`);
  const windows = platform === 'win32';
  if (!startsInHome(pattern, windows)) return pattern;
  if (home === undefined) throw new Error(`filesystem.deny: "${pattern}" is in your home folder, but HOME is not set for this server`);
  return inHome(pattern, home, windows)!;
}

/**
 * The places a path-based mechanism can cover for a rule: its places, and its patterns that name
 * one place (no glob): an absolute pattern as it is, a relative one in the home folder. A trailing
 * `/` or `/**` names the folder itself.
 */
export function mountablePlaces(active: ActiveRule, home: string | undefined): string[] {
  const literal = active.patterns.map((p) => p.replace(/\/\*\*$/, '').replace(/\/+$/, '')).filter((p) => p !== '' && !/[*?[]/.test(p));
  const fromPatterns = literal.flatMap((p) => (posix.isAbsolute(p) ? [p] : home && posix.isAbsolute(home) ? [posix.join(home, p)] : []));
  return [...active.places, ...fromPatterns];
}
