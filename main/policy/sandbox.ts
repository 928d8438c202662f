/**
 * The command sandbox's plan (issue: OS isolation for shell.exec and process handles): what a
 * command sees, may write, and never sees, built from the same config as every other rule. The
 * mechanism (bubblewrap on Linux, Seatbelt on macOS) lives in adapter/process/sandbox/; this
 * module only decides, and refuses at construction (server start) a sandbox that cannot be had.
 *
 * The plan is an ordered list of entries; each decides for its path and everything below it, over
 * the entries before it. Before the first, the whole system is readable and nothing writable:
 *
 * 1. temp: a private temp folder (/tmp and /var/tmp on Linux; TMPDIR and /tmp on macOS);
 * 2. hidden, coarse: /run (Linux: system and session sockets such as the system bus, docker,
 *    systemd's user manager, which start programs outside any sandbox), other users' homes;
 * 3. read, re-exposed: the owner's home, the working directory and the program itself where a
 *    step above hid them; the DNS files under /run with the network on; NixOS's system links;
 *    with display access on, the X11, Wayland and session bus sockets;
 * 4. the roots, shallow first so a nested root's own access wins: writable ones are `write` in
 *    "workspace" (when filesystem.write is on), everything else `read`; in writable roots, the
 *    hooks and config of git repositories stay `read` (filesystem.allowGitHookWrites);
 * 5. hidden, always: this app's config and folders (token, keys), the secret list's literal
 *    entries in the home folder (~/.ssh, ~/.aws, ~/.gnupg, ~/.netrc...), browser profiles,
 *    absolute filesystem.deny paths, root-only system secrets (/etc/shadow, SSH host keys) when the
 *    server runs as root, and
 *    with display access off the display's cookie and socket files wherever they are.
 *
 * Paths are resolved when each command is planned (a ~/.aws created after start is hidden from
 * the next command on), entries that change nothing are dropped, and the folders between a
 * writable entry and a hidden or read-only one inside it are pinned (pinAncestors).
 */
import nodePath from 'node:path';
import type { Config } from '../config/schema.js';
import { adapterError } from '../../adapter/errors.js';
import type { PolicyPort } from '../../adapter/policy-port.js';
import type { SandboxAccess, SandboxEntry, SandboxPlan, SandboxSupport } from '../../adapter/process/sandbox/sandbox-plan.js';
import type { FilesystemPolicy } from './filesystem.js';
import {
  describeChoice,
  resolveSandbox,
  type DisplayInside,
  type MechanismName,
  type NetworkMode,
  type SandboxChoice,
  type SandboxMode,
} from './sandbox-mode.js';
import { BUILT_IN_SECRET_PATTERNS } from './secret-patterns.js';

const posix = nodePath.posix;
const op = 'shell.exec';

/** The server cannot run commands as the config asks: it refuses to start, naming the key. */
export class SandboxUnavailableError extends Error {
  override readonly name = 'SandboxUnavailableError';
  constructor(
    message: string,
    readonly key: readonly ['shell', 'sandbox' | 'network'],
  ) {
    super(message);
  }
}

/** What system.info and the settings window say about the sandbox. */
export interface SandboxSummary {
  mode: SandboxMode;
  mechanism: MechanismName | null;
  /** The mechanism's version as it reports it (bubblewrap 0.8.0), once probed. */
  version: string | null;
  network: NetworkMode;
  display: DisplayInside;
  /** Where commands may write. */
  writable: string[];
  /** What commands never see. */
  hidden: string[];
  /** The facts above in sentences. */
  notes: string[];
}

/** Browser profiles: their cookies are logins to every site. Relative to the home folder. */
const BROWSER_PROFILES: Record<'linux' | 'darwin', readonly string[]> = {
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
};

/**
 * Readable by root only: hidden when the server runs as root (its commands keep uid 0, and own
 * these files): password hashes, sudo rules, and the well-known homes of system private keys
 * and network secrets (TLS keys, Let's Encrypt, Wi-Fi and VPN credentials, Kerberos, PPP, IPsec).
 */
const ROOT_ONLY_FILES = [
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
];
/** Repositories looked for one level below a writable root (the rest of a large folder is not searched). */
const MAX_REPOS_PER_ROOT = 256;
/** Entries under .git/modules looked at per plan; past it the whole folder is read-only. */
const MAX_MODULE_ENTRIES = 256;
/** Real paths of hidden entries remembered across plans. */
const MAX_HIDDEN_REMEMBERED = 512;
/** Under /run, kept visible: NixOS's system profile (PATH lives there) and its drivers. */
const RUN_SYSTEM_LINKS = ['/run/current-system', '/run/booted-system', '/run/opengl-driver', '/run/wrappers'];

interface Candidate {
  path: string;
  access: SandboxAccess;
  pinned?: boolean;
  /** Kept even when nothing is there yet, as this kind (its mount point is created). */
  absent?: 'directory' | 'file';
  /** A home of another user: dropped when it holds the owner's own home. */
  otherHome?: boolean;
  /** Hidden for what it holds (this app's files, secrets, deny paths): its real path stays hidden in later plans. */
  remember?: boolean;
}

type Port = Pick<PolicyPort, 'platform' | 'realpath' | 'lstat' | 'locateAll' | 'listNames' | 'baseEnvironment' | 'sandboxSupport' | 'ownProcess'>;

export class SandboxPolicy {
  readonly choice: SandboxChoice;
  private readonly support: Extract<SandboxSupport, { usable: true }> | null = null;
  private readonly platform: 'linux' | 'darwin';
  private readonly base: Readonly<Record<string, string>>;
  private readonly protectedFiles: readonly string[];
  /** The real paths earlier plans hid (at most MAX_HIDDEN_REMEMBERED); what no longer exists drops out by itself. */
  private readonly hiddenBefore = new Set<string>();
  /** Root's commands keep uid 0 inside (no capabilities, but file ownership): root-only files must be hidden too. */
  private readonly asRoot: boolean;
  private programChecked: Promise<void> | null = null;

  constructor(
    private readonly config: Readonly<Pick<Config, 'shell' | 'desktop' | 'filesystem'>>,
    private readonly files: FilesystemPolicy,
    private readonly port: Port,
    options: { protectedFiles?: readonly string[] } = {},
  ) {
    this.choice = resolveSandbox(config.shell, config.desktop.hostDisplayAccess, port.platform);
    this.platform = port.platform === 'darwin' ? 'darwin' : 'linux';
    this.base = port.baseEnvironment();
    this.protectedFiles = options.protectedFiles ?? [];
    this.asRoot = this.platform === 'linux' && port.ownProcess().uid === 0;
    // Without commands nothing is sandboxed, so nothing is probed or refused.
    if (!config.shell.enabled) return;
    if (this.choice.problem) throw new SandboxUnavailableError(this.choice.problem.message, ['shell', this.choice.problem.key]);
    if (this.choice.mode === 'off') return;
    const support = port.sandboxSupport();
    if (!support.usable) throw new SandboxUnavailableError(unavailableMessage(this.config.shell.sandbox, this.choice, support), ['shell', 'sandbox']);
    this.support = support;
  }

  /** Commands run sandboxed. */
  get active(): boolean {
    return this.support !== null;
  }

  describe(): SandboxSummary {
    const { mode, mechanism, network, display } = this.choice;
    const sandboxed = mode !== 'off';
    const roots = this.config.filesystem.roots.map((r) => (typeof r === 'string' ? { path: r, readOnly: false } : r));
    const writableRoots = mode === 'workspace' && this.config.filesystem.write ? roots.filter((r) => !r.readOnly).map((r) => r.path) : [];
    const temp = this.platform === 'linux' ? 'a private temp folder (/tmp, /var/tmp)' : `the temp folder (${this.base.TMPDIR ?? '/tmp'}, /tmp)`;
    const hidden = sandboxed
      ? [
          "this app's config and folders",
          ...(this.config.filesystem.protectSecrets ? homeSecrets(this.platform).map((p) => `~/${p}`) : []),
          this.platform === 'linux' ? "other users' homes (/home/*, /root)" : "other users' homes (/Users/*)",
          ...(this.platform === 'linux'
            ? ['/run (system and session sockets), except DNS files with the network on', 'other processes (own pid namespace)']
            : []),
          ...absoluteDenyPaths(this.config.filesystem.deny),
          ...(this.asRoot ? ROOT_ONLY_FILES.concat('/etc/ssh/ssh_host_*_key') : []),
          ...(display === 'visible' ? [] : ['the display (X11 and Wayland sockets, session bus, display variables)']),
        ]
      : [];
    return {
      mode,
      mechanism: sandboxed ? mechanism : null,
      version: this.support?.version ?? null,
      network,
      display,
      writable: sandboxed ? [...writableRoots, temp] : ['everything your account can write'],
      hidden,
      notes: describeChoice(this.choice, this.port.platform),
    };
  }

  /** The sandbox for one command, or undefined when commands are not sandboxed. */
  async plan(target: { file: string; found: string; cwd: string | undefined }): Promise<SandboxPlan | undefined> {
    const support = this.support;
    if (!support) return undefined;
    await (this.programChecked ??= this.checkProgram(support.program));
    const candidates = await this.candidates(target);
    const writableRoots = this.choice.mode === 'workspace' ? (await this.files.usableRoots()).filter((root) => root.writable).map((root) => root.path) : [];
    const entries = pinAncestors(prune(withinWritableRoots(await this.resolveAll(candidates), writableRoots)));
    return {
      mechanism: support.mechanism,
      program: support.program,
      userNamespace: support.userNamespace,
      mode: this.choice.mode === 'read-only' ? 'read-only' : 'workspace',
      network: this.choice.network,
      display: this.config.desktop.hostDisplayAccess,
      entries,
      tempDir: await this.tempDir(),
    };
  }

  /** bwrap (or sandbox-exec) found where tools could replace it would run anything: refused like any such program. */
  private async checkProgram(program: string): Promise<void> {
    const writable = await this.files.resolve(program, 'write', op).then(
      () => true,
      () => false,
    );
    if (writable) {
      this.programChecked = null;
      throw adapterError(
        'COMMAND_NOT_ALLOWED',
        op,
        `the sandbox program ${program} is inside a writable root, so tools could replace it; no command runs until it is not (or shell.sandbox is "off")`,
      );
    }
  }

  private async candidates(target: { file: string; found: string; cwd: string | undefined }): Promise<Candidate[]> {
    const env = this.base;
    const home = env.HOME && posix.isAbsolute(env.HOME) ? env.HOME : undefined;
    const linux = this.platform === 'linux';
    const display = this.config.desktop.hostDisplayAccess;
    const list: Candidate[] = [];
    const addAs = (how: Omit<Candidate, 'path'>, ...paths: Array<string | undefined>) => {
      for (const path of paths) if (path && posix.isAbsolute(path)) list.push({ path: posix.normalize(path), ...how });
    };
    const add = (access: SandboxAccess, ...paths: Array<string | undefined>) => addAs({ access }, ...paths);
    const secret = (...paths: Array<string | undefined>) => addAs({ access: 'hidden', remember: true }, ...paths);

    add('temp', ...(linux ? ['/tmp', '/var/tmp'] : [env.TMPDIR, '/tmp']));
    if (linux) add('hidden', '/run');
    for (const dir of linux ? ['/home'] : ['/Users']) {
      for (const name of (await this.port.listNames(dir)) ?? [])
        if (name !== 'Shared') list.push({ path: posix.join(dir, name), access: 'hidden', otherHome: true });
    }
    list.push({ path: linux ? '/root' : '/var/root', access: 'hidden', otherHome: true });

    add('read', home, target.cwd, target.file, target.found);
    if (linux) add('read', ...RUN_SYSTEM_LINKS);
    if (linux && this.choice.network === 'on') add('read', await this.dnsFolder(), '/run/systemd/resolve');
    const session = sessionSockets(env);
    if (display) add('read', ...session);

    const roots = (await this.files.usableRoots()).sort((a, b) => depth(a.path) - depth(b.path));
    for (const root of roots) add(root.writable && this.choice.mode === 'workspace' ? 'write' : 'read', root.path);
    if (this.choice.mode === 'workspace' && !this.config.filesystem.allowGitHookWrites) list.push(...(await this.gitCode(roots)));

    secret(...this.protectedFiles);
    if (home && this.config.filesystem.protectSecrets) secret(...homeSecrets(this.platform).map((p) => posix.join(home, p)));
    secret(...absoluteDenyPaths(this.config.filesystem.deny));
    if (this.asRoot) {
      secret(...ROOT_ONLY_FILES);
      const keys = ((await this.port.listNames('/etc/ssh')) ?? []).filter((name) => /^ssh_host_.*_key$/.test(name));
      secret(...keys.map((name) => `/etc/ssh/${name}`));
    }
    // Where those really were in earlier plans: a link in their spelling that a command pointed
    // elsewhere (root/lnk -> real, for --config root/lnk/config.json) must not uncover them.
    secret(...this.hiddenBefore);
    if (!display) add('hidden', ...session, home && posix.join(home, '.Xauthority'));
    return list;
  }

  /**
   * Where git runs code from on the owner's next git command, outside any sandbox: the hooks and
   * the config of the repositories at the top of each writable root and one level below. As for
   * the fs tools (filesystem.allowGitHookWrites), they stay read-only; `.git` itself is pinned so
   * a command cannot rename it away and put a writable one in its place. Objects and refs stay
   * writable: git commit works.
   *
   * Only a real `.git` folder counts, and only where the deepest root holding it is writable. Its
   * entry is a writable mount after the roots, so a `.git` that a command made a link (to the
   * root itself, to a read-only root nested in it) would otherwise make that place writable,
   * covering the hooks and roots before it; and a read-only root's own `.git` stays read-only.
   */
  private async gitCode(roots: ReadonlyArray<{ path: string; writable: boolean }>): Promise<Candidate[]> {
    const writableRoots = roots.filter((root) => root.writable).map((root) => root.path);
    const repos: string[] = [];
    for (const root of writableRoots) {
      repos.push(root);
      const names = ((await this.port.listNames(root)) ?? []).filter((name) => !name.startsWith('.')).slice(0, MAX_REPOS_PER_ROOT);
      repos.push(...names.map((name) => posix.join(root, name)));
    }
    const dotGits = repos.map((repo) => posix.join(repo, '.git'));
    const located = await this.port.locateAll(dotGits);
    const tops: string[] = [];
    for (const [i, git] of located.entries()) {
      if (git?.type !== 'directory' || posix.basename(git.real) !== '.git') continue;
      if ((await this.port.lstat(dotGits[i]!))?.type !== 'directory') continue;
      // Roots are sorted shallow first: the last one holding it decides. Out of every root (a
      // link to /etc, say) it is read-only anyway; covering its missing hooks would make bwrap
      // create a mount point on a read-only folder.
      const holder = roots.filter((root) => inside(git.real, root.path)).at(-1);
      if (holder?.writable) tops.push(git.real);
    }
    const candidates: Candidate[] = [];
    for (const top of tops) {
      const modules = await this.submoduleGits(top);
      const gits = [top, ...(modules === 'sealed' ? [] : modules)];
      const parts = await this.port.locateAll(gits.flatMap((git) => [posix.join(git, 'hooks'), posix.join(git, 'config')]));
      // Submodules' git folders, and those on the way to them, are pinned by pinAncestors: their hooks and config lie in .git.
      candidates.push({ path: top, access: 'write', pinned: true });
      gits.forEach((git, i) =>
        candidates.push(
          // A missing one gets an empty read-only one in its place, so none can be created either.
          parts[2 * i] ? { path: posix.join(git, 'hooks'), access: 'read' } : { path: posix.join(git, 'hooks'), access: 'hidden', absent: 'directory' },
          parts[2 * i + 1] ? { path: posix.join(git, 'config'), access: 'read' } : { path: posix.join(git, 'config'), access: 'hidden', absent: 'file' },
        ),
      );
      if (modules === 'sealed') candidates.push({ path: posix.join(top, 'modules'), access: 'read' });
    }
    return candidates;
  }

  /**
   * The git folders of submodules under a repository's .git/modules (nested ones under theirs):
   * git runs their hooks and config too, on a `git status` or `git submodule update` in the outer
   * repository. A module's name may hold slashes, so a folder without a HEAD is looked into; links
   * are not followed. Past MAX_MODULE_ENTRIES (a command can make any number of folders there)
   * the answer is 'sealed': the whole .git/modules is then read-only.
   */
  private async submoduleGits(top: string): Promise<string[] | 'sealed'> {
    const found: string[] = [];
    const queue = [posix.join(top, 'modules')];
    let seen = 0;
    while (queue.length > 0) {
      const dir = queue.shift()!;
      if ((await this.port.lstat(dir))?.type !== 'directory') continue;
      const names = (await this.port.listNames(dir)) ?? [];
      seen += names.length;
      if (seen > MAX_MODULE_ENTRIES) return 'sealed';
      for (const name of names) {
        const child = posix.join(dir, name);
        if ((await this.port.lstat(child))?.type !== 'directory') continue;
        const isGit = ((await this.port.listNames(child)) ?? []).includes('HEAD');
        if (isGit) found.push(child);
        queue.push(isGit ? posix.join(child, 'modules') : child);
      }
    }
    return found;
  }

  /** /etc/resolv.conf often links into /run (systemd-resolved, NetworkManager, resolvconf). */
  private async dnsFolder(): Promise<string | undefined> {
    const real = await this.port.realpath('/etc/resolv.conf').catch(() => undefined);
    return real && inside(real, '/run') ? posix.dirname(real) : undefined;
  }

  private async tempDir(): Promise<string> {
    if (this.platform === 'linux') return '/tmp';
    const tmp = this.base.TMPDIR;
    return (tmp && (await this.port.realpath(tmp).catch(() => undefined))) ?? '/private/tmp';
  }

  /** Real paths and kinds; what does not exist is left out (there is nothing to see or hide). */
  private async resolveAll(candidates: Candidate[]): Promise<SandboxEntry[]> {
    const home = this.base.HOME;
    const [homeReal, ...located] = await this.port.locateAll([home ?? '', ...candidates.map((c) => c.path)]);
    const entries: SandboxEntry[] = [];
    candidates.forEach((candidate, i) => {
      const found = located[i] ?? (candidate.absent ? { real: candidate.path, type: candidate.absent } : null);
      if (!found || !posix.isAbsolute(found.real)) return;
      if (candidate.otherHome && home && homeReal && inside(homeReal.real, found.real)) return;
      const entry: SandboxEntry = { path: posix.normalize(found.real), access: candidate.access, kind: found.type === 'directory' ? 'directory' : 'file' };
      if (candidate.remember && located[i] && this.hiddenBefore.size < MAX_HIDDEN_REMEMBERED) this.hiddenBefore.add(entry.path);
      entries.push(candidate.pinned ? { ...entry, pinned: true } : entry);
    });
    return entries;
  }
}

/** What the path shows at this point of the list: the last entry holding it decides. */
function effective(path: string, entries: readonly SandboxEntry[]): SandboxAccess {
  for (let i = entries.length - 1; i >= 0; i--) if (inside(path, entries[i]!.path)) return entries[i]!.access;
  return 'read';
}

/**
 * Drops entries that change nothing: a read entry where everything is readable anyway, a hidden
 * one where the real content is already out of sight, a root nested in another of the same
 * access, and whatever a kept hidden entry lies over. An entry with earlier ones below it is kept
 * (mounting it again would cover them).
 */
export function prune(entries: readonly SandboxEntry[]): SandboxEntry[] {
  let kept: SandboxEntry[] = [];
  for (const entry of entries) {
    const now = effective(entry.path, kept);
    const same = entry.access === 'temp' ? false : entry.access === 'hidden' ? now === 'hidden' || now === 'temp' : now === entry.access;
    const covers = kept.some((earlier) => earlier.path !== entry.path && inside(earlier.path, entry.path));
    if (same && !covers && !entry.pinned) continue;
    // Hidden, it hides whatever earlier entries put at or below its path, so they go: bwrap would
    // otherwise seal a hidden folder that is no longer there (deny ~/.config/** with a browser
    // profile in it) and refuse to start. Only a hidden entry does this: a read or write one over
    // earlier hidden ones would uncover them.
    if (entry.access === 'hidden') kept = kept.filter((earlier) => !inside(earlier.path, entry.path));
    kept.push(entry);
  }
  return kept;
}

/**
 * Write entries other than the writable roots (a repository's pinned .git, submodules' folders)
 * are kept only where their real path lies in a writable root: a `.git` or a module folder that a
 * command made a link to /etc must not make /etc writable.
 */
function withinWritableRoots(entries: readonly SandboxEntry[], writableRoots: readonly string[]): SandboxEntry[] {
  return entries.filter((entry) => entry.access !== 'write' || writableRoots.some((root) => inside(entry.path, root)));
}

/**
 * A hidden or read-only entry inside a writable one is a mount point, which a command can neither
 * rename nor remove; the folders between it and the writable entry are not. Renaming one (mv
 * root/conf root/conf2) would carry the cover along to a path the next command's plan, made by
 * path, no longer finds, and uncover what it held. So each of those folders is pinned too, right
 * after the writable entry, before anything mounted below it.
 */
export function pinAncestors(entries: readonly SandboxEntry[]): SandboxEntry[] {
  const pins = new Map<number, Set<string>>();
  entries.forEach((entry, i) => {
    if (entry.access !== 'hidden' && entry.access !== 'read') return;
    let holder = i - 1;
    while (holder >= 0 && !inside(entry.path, entries[holder]!.path)) holder--;
    if (holder < 0 || entries[holder]!.access !== 'write') return;
    const top = entries[holder]!.path;
    const folders = pins.get(holder) ?? new Set<string>();
    for (let folder = posix.dirname(entry.path); folder !== top && inside(folder, top); folder = posix.dirname(folder)) folders.add(folder);
    pins.set(holder, folders);
  });
  if (pins.size === 0) return [...entries];
  return entries.flatMap((entry, i) => {
    const folders = [...(pins.get(i) ?? [])].sort((a, b) => depth(a) - depth(b));
    return [entry, ...folders.map((path): SandboxEntry => ({ path, access: 'write', kind: 'directory', pinned: true }))];
  });
}

/** The secret list's entries that name one place (no glob): ~/.ssh, ~/.aws, ~/.netrc, ~/.kube/config... */
const LITERAL_SECRETS = BUILT_IN_SECRET_PATTERNS.filter((p) => !/[*?[]/.test(p)).map((p) => p.replace(/\/+$/, ''));

function homeSecrets(platform: 'linux' | 'darwin'): string[] {
  return [...LITERAL_SECRETS, ...BROWSER_PROFILES[platform]];
}

/** filesystem.deny entries that are absolute paths without globs (a trailing /** names the folder). */
function absoluteDenyPaths(deny: readonly string[]): string[] {
  return deny.map((p) => p.replace(/\/\*\*$/, '').replace(/\/+$/, '')).filter((p) => posix.isAbsolute(p) && !/[*?[]/.test(p) && p !== '');
}

/** Where the graphical session's sockets and cookie are, from the server's environment. */
function sessionSockets(env: Readonly<Record<string, string>>): string[] {
  const paths = ['/tmp/.X11-unix', env.XDG_RUNTIME_DIR, env.XAUTHORITY];
  const bus = /(?:^|;)unix:(?:[^;]*,)?path=([^,;]+)/.exec(env.DBUS_SESSION_BUS_ADDRESS ?? '')?.[1];
  if (bus) paths.push(decodeURIComponent(bus));
  if (env.WAYLAND_DISPLAY?.startsWith('/')) paths.push(env.WAYLAND_DISPLAY);
  return paths.filter((p): p is string => typeof p === 'string' && posix.isAbsolute(p));
}

function unavailableMessage(setting: string, choice: SandboxChoice, support: Extract<SandboxSupport, { usable: false }>): string {
  const asked =
    setting === 'auto'
      ? `commands run in a ${choice.mechanism} sandbox by default on this system (shell.sandbox "auto" means "${choice.mode}")`
      : `shell.sandbox is "${setting}"`;
  const fix = support.fix ? `: ${support.fix}` : '';
  return `${asked}, but ${support.problem}${fix}; or set shell.sandbox to "off" to run commands with your account's full rights`;
}

function inside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent === '/' ? '/' : `${parent}/`);
}

function depth(path: string): number {
  return path.split('/').filter(Boolean).length;
}
