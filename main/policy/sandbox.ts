/**
 * The command sandbox's plan (OS isolation for shell.exec and process handles): what a
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
 *    step above hid them (only strictly inside what it hid); the DNS files under /run with the
 *    network on; NixOS's system links; with display access on, the X11, Wayland and session bus
 *    sockets;
 * 4. the roots, shallow first so a nested root's own access wins: writable ones are `write` in
 *    "workspace" (when filesystem.write is on), everything else `read`; in writable roots, the
 *    hooks and config of git repositories stay `read` (filesystem.allowGitHookWrites). A root
 *    above a folder of steps 1 and 2 (at /, /home, /var) comes before it, so it does not uncover
 *    it (layered); the sandbox's own /dev and /proc stay whatever the roots say;
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
import { adapterError } from '../../adapter/contract/errors.js';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import type { SandboxAccess, SandboxEntry, SandboxPlan, SandboxSupport } from '../../adapter/contract/sandbox.js';
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

/**
 * Where a candidate stands in the plan: steps 1 and 2 ('system'), 3 ('exposed'), 4 ('root' and
 * the roots' 'git' code), 5 ('after'); the last two in the order made.
 */
type Layer = 'system' | 'exposed' | 'root' | 'git' | 'after';

interface Candidate {
  path: string;
  access: SandboxAccess;
  layer: Layer;
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
    const placed = await this.resolveAll(await this.candidates(target));
    if (this.choice.mode === 'workspace' && !this.config.filesystem.allowGitHookWrites) placed.push(...(await this.resolveAll(await this.gitCode(placed))));
    const writableRoots = placed.filter((p) => p.layer === 'root' && p.entry.access === 'write').map((p) => p.entry.path);
    // Linux's temp folders are private and empty; macOS's are the shared ones, with what is in them.
    const privateTemp = this.platform === 'linux';
    const layers = layered(placed, privateTemp);
    const entries = pinAncestors(prune(withinWritableRoots(privateTemp ? ownDevicesAndProcesses(layers) : layers, writableRoots), privateTemp));
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
    const add = (access: SandboxAccess, ...paths: Array<string | undefined>) => addAs({ access, layer: 'after' }, ...paths);
    const expose = (...paths: Array<string | undefined>) => addAs({ access: 'read', layer: 'exposed' }, ...paths);
    const secret = (...paths: Array<string | undefined>) => addAs({ access: 'hidden', layer: 'after', remember: true }, ...paths);

    addAs({ access: 'temp', layer: 'system' }, ...(linux ? ['/tmp', '/var/tmp'] : [env.TMPDIR, '/tmp']));
    if (linux) addAs({ access: 'hidden', layer: 'system' }, '/run');
    for (const dir of linux ? ['/home'] : ['/Users']) {
      for (const name of (await this.port.listNames(dir)) ?? [])
        if (name !== 'Shared') list.push({ path: posix.join(dir, name), access: 'hidden', layer: 'system', otherHome: true });
    }
    list.push({ path: linux ? '/root' : '/var/root', access: 'hidden', layer: 'system', otherHome: true });

    expose(home, target.cwd, target.file, target.found);
    if (linux) expose(...RUN_SYSTEM_LINKS);
    if (linux && this.choice.network === 'on') expose(await this.dnsFolder(), '/run/systemd/resolve');
    const session = sessionSockets(env);
    if (display) expose(...session);

    const roots = (await this.files.usableRoots()).sort((a, b) => depth(a.path) - depth(b.path));
    for (const root of roots) addAs({ access: root.writable && this.choice.mode === 'workspace' ? 'write' : 'read', layer: 'root' }, root.path);

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
   * Only a real `.git` folder counts, and only where a writable root decides its path (see
   * layered). Its entry is a writable mount after the roots, so a `.git` that a command made a
   * link (to the root itself, to a read-only root nested in it) would otherwise make that place
   * writable, covering the hooks and roots before it; a read-only root's own `.git` stays
   * read-only, and another user's repository in a root at /home stays hidden.
   */
  private async gitCode(placed: readonly Placed[]): Promise<Candidate[]> {
    const base = placed.filter(isBase);
    const writableRoots = base.filter((p) => p.layer === 'root' && p.entry.access === 'write').map((p) => p.entry.path);
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
      // Out of every root (a link to /etc, say) it is read-only anyway; covering its missing
      // hooks would make bwrap create a mount point on a read-only folder.
      const holder = decider(base, git.real);
      if (holder?.layer === 'root' && holder.entry.access === 'write') tops.push(git.real);
    }
    const candidates: Candidate[] = [];
    for (const top of tops) {
      const modules = await this.submoduleGits(top);
      const gits = [top, ...(modules === 'sealed' ? [] : modules)];
      const parts = await this.port.locateAll(gits.flatMap((git) => [posix.join(git, 'hooks'), posix.join(git, 'config')]));
      // Submodules' git folders, and those on the way to them, are pinned by pinAncestors: their hooks and config lie in .git.
      candidates.push({ path: top, access: 'write', layer: 'git', pinned: true });
      gits.forEach((git, i) =>
        candidates.push(
          // A missing one gets an empty read-only one in its place, so none can be created either.
          { path: posix.join(git, 'hooks'), layer: 'git', ...(parts[2 * i] ? { access: 'read' } : { access: 'hidden', absent: 'directory' }) },
          { path: posix.join(git, 'config'), layer: 'git', ...(parts[2 * i + 1] ? { access: 'read' } : { access: 'hidden', absent: 'file' }) },
        ),
      );
      if (modules === 'sealed') candidates.push({ path: posix.join(top, 'modules'), access: 'read', layer: 'git' });
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
  private async resolveAll(candidates: Candidate[]): Promise<Placed[]> {
    const home = this.base.HOME;
    const [homeReal, ...located] = await this.port.locateAll([home ?? '', ...candidates.map((c) => c.path)]);
    const entries: Placed[] = [];
    candidates.forEach((candidate, i) => {
      const found = located[i] ?? (candidate.absent ? { real: candidate.path, type: candidate.absent } : null);
      if (!found || !posix.isAbsolute(found.real)) return;
      if (candidate.otherHome && home && homeReal && inside(homeReal.real, found.real)) return;
      const entry: SandboxEntry = { path: posix.normalize(found.real), access: candidate.access, kind: found.type === 'directory' ? 'directory' : 'file' };
      if (candidate.remember && located[i] && this.hiddenBefore.size < MAX_HIDDEN_REMEMBERED) this.hiddenBefore.add(entry.path);
      entries.push({ entry: candidate.pinned ? { ...entry, pinned: true } : entry, layer: candidate.layer });
    });
    return entries;
  }
}

interface Placed {
  entry: SandboxEntry;
  layer: Layer;
}

/**
 * Steps 1 to 4 in the order they are mounted: shallow first, so the deeper of a system folder
 * and a root decides what lies below it. A root inside /tmp, /run/media or another user's home
 * shows through; a root at /, /home or /var does not uncover the private temp folder, /run or
 * the other homes; at the same path the root wins. A re-exposure is kept only strictly inside
 * the hidden or (private) temp folder that decides its path: anywhere else (HOME=/, a working folder in
 * a root) it would cover what it lies over. A repository's pinned .git goes the same way, so a
 * root inside it keeps its own access. What comes after keeps its order.
 */
function layered(placed: readonly Placed[], privateTemp: boolean): SandboxEntry[] {
  const base = placed.filter(isBase);
  const needed = (p: Placed) => {
    if (p.layer !== 'exposed') return isBase(p);
    const holder = decider(base, p.entry.path);
    return holder?.layer === 'system' && holder.entry.path !== p.entry.path && (holder.entry.access === 'hidden' || privateTemp);
  };
  // Each goes before the first one already placed inside it; otherwise the order stays. At the
  // same path they come in the order of the steps, so the root is last.
  const pinnedGit = (p: Placed) => p.layer === 'git' && p.entry.pinned === true;
  const ordered: Placed[] = [];
  for (const p of placed.filter((p) => needed(p) || pinnedGit(p))) {
    const below = ordered.findIndex((q) => q.entry.path !== p.entry.path && inside(q.entry.path, p.entry.path));
    ordered.splice(below < 0 ? ordered.length : below, 0, p);
  }
  const rest = (layer: Layer) => placed.filter((p) => p.layer === layer && !pinnedGit(p));
  return [...ordered, ...rest('git'), ...rest('after')].map((p) => p.entry);
}

function isBase(p: Placed): boolean {
  return p.layer === 'system' || p.layer === 'root';
}

/** Of the system folders and roots holding a path, the deepest; at the same path, the root. */
function decider(base: readonly Placed[], path: string): Placed | undefined {
  return base.reduce<Placed | undefined>((best, p) => {
    if (!inside(path, p.entry.path)) return best;
    const deeper = best ? depth(p.entry.path) - depth(best.entry.path) : 1;
    return deeper > 0 || (deeper === 0 && p.layer === 'root') ? p : best;
  }, undefined);
}

/**
 * The sandbox's own /dev and /proc stay: a root or a re-exposure at or inside them would bring
 * back the host's devices and every process (their environment, their open files).
 */
function ownDevicesAndProcesses(entries: readonly SandboxEntry[]): SandboxEntry[] {
  return entries.filter((entry) => entry.access === 'hidden' || !['/dev', '/proc'].some((system) => inside(entry.path, system)));
}

/** What the path shows at this point of the list: the last entry holding it decides. */
function effective(path: string, entries: readonly SandboxEntry[]): SandboxAccess {
  for (let i = entries.length - 1; i >= 0; i--) if (inside(path, entries[i]!.path)) return entries[i]!.access;
  return 'read';
}

/**
 * Drops entries that change nothing: a read entry where everything is readable anyway, a hidden
 * one where the real content is already out of sight (hidden, or in a private temp folder: not
 * macOS's, which is the shared one), a root nested in another of the same
 * access, and whatever a kept hidden entry lies over. An entry with earlier ones below it is kept
 * (mounting it again would cover them).
 */
export function prune(entries: readonly SandboxEntry[], privateTemp = true): SandboxEntry[] {
  let kept: SandboxEntry[] = [];
  for (const entry of entries) {
    const now = effective(entry.path, kept);
    const same = entry.access === 'temp' ? false : entry.access === 'hidden' ? now === 'hidden' || (now === 'temp' && privateTemp) : now === entry.access;
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
