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
 *    In "private-home", the owner's home too;
 * 3. read, re-exposed: the owner's home (in "private-home" only its toolchain folders and
 *    shell.homeVisible), the working directory and the program itself where a
 *    step above hid them (only strictly inside what it hid); the DNS files under /run with the
 *    network on; NixOS's system links; with display access on, the X11, Wayland and session bus
 *    sockets;
 * 4. the roots, shallow first so a nested root's own access wins: writable ones are `write` in
 *    "workspace" (when filesystem.write is on), everything else `read`; in writable roots, the
 *    hooks and config of git repositories stay `read` (filesystem.allowGitHookWrites). A root
 *    above a folder of steps 1 and 2 (at /, /home, /var) comes before it, so it does not uncover
 *    it (layered); the sandbox's own /dev and /proc stay whatever the roots say;
 * 5. hidden, always: the filesystem rules the tools apply too (fs-rules.ts: this app's config
 *    and folders, the secret list's entries in the home folder such as ~/.ssh and ~/.aws, browser
 *    profiles, filesystem.deny, root-only system secrets when the server runs as root), and with
 *    display access off the display's cookie and socket files wherever they are.
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
  TOOLCHAIN_FOLDERS,
  writesRoots,
} from './sandbox-mode.js';
import { mountablePlaces, type ActiveRule } from './fs-rules.js';
import { gitCode, movedWhilePlanning } from './sandbox-git.js';
import { RememberedRepositories } from './remembered-repos.js';
import { inHome } from './home-path.js';
import { sandboxNeeded } from './sandbox-clients.js';
import { depth, inside, layered, ownDevicesAndProcesses, pinAncestors, prune, withinWritableRoots, type Candidate, type Placed } from './sandbox-layers.js';

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

const UNGUARDED =
  "bubblewrap's guard was not built with this app (it needs a C compiler and a static C library): a folder the model moves while a command starts can leave a repository's hooks writable to that command (docs/SECURITY.md).";
/** Real paths of hidden entries remembered across plans. */
const MAX_HIDDEN_REMEMBERED = 512;
/** Under /run, kept visible: NixOS's system profile (PATH lives there) and its drivers. */
const RUN_SYSTEM_LINKS = ['/run/current-system', '/run/booted-system', '/run/opengl-driver', '/run/wrappers'];

/** What the sandbox policy asks of the computer. */
export type SandboxPort = Pick<
  PolicyPort,
  | 'platform'
  | 'realpath'
  | 'lstat'
  | 'locateAll'
  | 'listNames'
  | 'listFolders'
  | 'readStart'
  | 'holdPlace'
  | 'baseEnvironment'
  | 'sandboxSupport'
  | 'ownProcess'
>;

/**
 * A gateway upstream's world (main/policy/upstream.ts), narrower than a command's: the owner's
 * home is hidden too, but for its own folders (its roots) and the places its program lives in.
 */
export interface SandboxScope {
  expose: readonly string[];
}

export class SandboxPolicy {
  readonly choice: SandboxChoice;
  private readonly support: Extract<SandboxSupport, { usable: true }> | null = null;
  private readonly platform: 'linux' | 'darwin';
  private readonly base: Readonly<Record<string, string>>;
  /** The real paths earlier plans hid (at most MAX_HIDDEN_REMEMBERED); what no longer exists drops out by itself. */
  private readonly hiddenBefore = new Set<string>();
  /** The repositories in writable roots earlier plans found (sandbox-repos.ts). */
  private readonly reposBefore: RememberedRepositories;
  /** Root's commands keep uid 0 inside (no capabilities, but file ownership): root-only files must be hidden too. */
  private readonly asRoot: boolean;
  private programChecked: Promise<void> | null = null;

  constructor(
    private readonly config: Readonly<Pick<Config, 'shell' | 'desktop' | 'filesystem'>> & Partial<Readonly<Pick<Config, 'git' | 'checks'>>>,
    private readonly files: FilesystemPolicy,
    private readonly port: SandboxPort,
    private readonly scope?: SandboxScope,
  ) {
    this.choice = resolveSandbox(config.shell, config.desktop.hostDisplayAccess, port.platform);
    this.platform = port.platform === 'darwin' ? 'darwin' : 'linux';
    this.reposBefore = new RememberedRepositories((place) => port.holdPlace(place));
    this.base = port.baseEnvironment();
    this.asRoot = this.platform === 'linux' && port.ownProcess().uid === 0;
    // When nothing runs programs in it, nothing is probed or refused.
    if (!sandboxNeeded(config)) return;
    if (this.choice.problem) throw new SandboxUnavailableError(this.choice.problem.message, ['shell', this.choice.problem.key]);
    if (this.choice.mode === 'off') return;
    const support = port.sandboxSupport();
    if (!support.usable) throw new SandboxUnavailableError(unavailableMessage(this.config.shell.sandbox, this.choice, support), ['shell', 'sandbox']);
    this.support = support;
    // Where the kernel scopes abstract sockets, a shared network no longer leaves the display's in reach.
    if (this.choice.display === 'abstract-sockets-reachable' && support.abstractSocketScope) this.choice = { ...this.choice, display: 'hidden' };
  }

  /** Commands run sandboxed. */
  get active(): boolean {
    return this.support !== null;
  }

  describe(): SandboxSummary {
    const { mode, mechanism, network, display } = this.choice;
    const sandboxed = mode !== 'off';
    const roots = this.config.filesystem.roots.map((r) => (typeof r === 'string' ? { path: r, readOnly: false } : r));
    const writableRoots = writesRoots(mode) && this.config.filesystem.write ? roots.filter((r) => !r.readOnly).map((r) => r.path) : [];
    const temp = this.platform === 'linux' ? 'a private temp folder (/tmp, /var/tmp)' : `the temp folder (${this.base.TMPDIR ?? '/tmp'}, /tmp)`;
    const rules = (...ids: Array<ActiveRule['rule']['id']>) => this.hiddenRules().filter((r) => ids.includes(r.rule.id));
    const home = this.base.HOME;
    const shown = (place: string) => (home && inside(place, home) && place !== home ? `~/${posix.relative(home, place)}` : place);
    const hidden = sandboxed
      ? [
          ...(rules('app-files').length > 0 ? ["this app's config and folders"] : []),
          ...(mode === 'private-home' ? [`your home folder (~), except the shared folders, ${this.homeVisible().join(', ')}`] : []),
          ...rules('secrets', 'browser-profiles').flatMap((r) => mountablePlaces(r, home).map(shown)),
          this.platform === 'linux' ? "other users' homes (/home/*, /root)" : "other users' homes (/Users/*)",
          ...(this.platform === 'linux'
            ? ['/run (system and session sockets), except DNS files with the network on', 'other processes (own pid namespace)']
            : []),
          ...rules('deny-list', 'root-only').flatMap((r) => mountablePlaces(r, home)),
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
      notes: [...describeChoice(this.choice, this.port.platform), ...(this.support?.guarded === false ? [UNGUARDED] : [])],
    };
  }

  /**
   * The sandbox for one command, or undefined when commands are not sandboxed. `network: "on"`:
   * a helper whose grant is the network (git_push to an allowed remote) gets it whatever
   * shell.network says.
   */
  async plan(target: { file: string; found: string; cwd: string | undefined }, options: { network?: 'on' } = {}): Promise<SandboxPlan | undefined> {
    const support = this.support;
    if (!support) return undefined;
    await (this.programChecked ??= this.checkProgram(support.program));
    const network = options.network ?? this.choice.network;
    const placed = await this.resolveAll(await this.candidates(target, network));
    if (writesRoots(this.choice.mode) && this.files.rules.some((r) => r.rule.id === 'git-code'))
      placed.push(...(await this.resolveAll(await gitCode(this.port, placed, this.reposBefore, target.cwd))));
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
      network,
      display: this.config.desktop.hostDisplayAccess,
      ...(support.abstractSocketScope && !this.config.desktop.hostDisplayAccess ? { scopeAbstractSockets: true } : {}),
      entries,
      tempDir: await this.tempDir(),
    };
  }

  /**
   * A first plan when the server starts, before any tool call: the writable roots' repositories
   * it finds are remembered (sandbox-repos.ts) before a model could bury them under folders it
   * makes with the fs tools. What it cannot do now, the first command's plan says.
   */
  async rememberRepositories(): Promise<void> {
    await this.plan({ file: '', found: '', cwd: undefined }).catch(() => undefined);
  }

  /** Runs the fs tools' move of `from` to `to` (real paths): repositories remembered there go along (remembered-repos.ts). */
  move<T>(from: string, to: string, run: () => Promise<T>): Promise<T> {
    return this.reposBefore.move(from, to, run);
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

  /** What "private-home" leaves readable of the home folder besides the roots. */
  private homeVisible(): string[] {
    return [...TOOLCHAIN_FOLDERS, ...this.config.shell.homeVisible];
  }

  /** The filesystem rules a command must not see (git's code is kept read-only by gitCode instead). */
  private hiddenRules(): readonly ActiveRule[] {
    return this.files.rules.filter((r) => r.rule.sandbox === 'hide');
  }

  private async candidates(target: { file: string; found: string; cwd: string | undefined }, network: NetworkMode): Promise<Candidate[]> {
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

    const roots = (await this.files.usableRoots()).sort((a, b) => depth(a.path) - depth(b.path));
    // A root at or above the home shares all of it; HOME=/ would hide the whole system.
    const homeShared = !home || home === '/' || roots.some((root) => inside(home, root.path));
    if (this.scope) {
      // A gateway upstream: the home hidden but for its folders and its program's own files.
      addAs({ access: 'hidden', layer: 'system' }, home);
      expose(...this.scope.expose);
    } else if (this.choice.mode === 'private-home' && home && !homeShared) {
      // The home itself is hidden like another user's; only what is listed comes back.
      addAs({ access: 'hidden', layer: 'system' }, home);
      const places = this.homeVisible().map((place) => posix.normalize(inHome(place, home) ?? place));
      // Only folders of the home: the list never uncovers /run or another user's home.
      expose(...places.filter((place) => place !== home && inside(place, home)));
    } else expose(home);
    expose(target.cwd, target.file, target.found);
    if (linux) expose(...RUN_SYSTEM_LINKS);
    if (linux && network === 'on') expose(await this.dnsFolder(), '/run/systemd/resolve');
    const session = sessionSockets(env);
    if (display) expose(...session);

    for (const root of roots) addAs({ access: root.writable && writesRoots(this.choice.mode) ? 'write' : 'read', layer: 'root' }, root.path);

    // The filesystem rules the tools apply too (fs-rules.ts), where a path can name them.
    for (const rule of this.hiddenRules()) secret(...mountablePlaces(rule, home));
    // And where the tools found a deny path really is (a folder of it spelled in another case than on disk).
    secret(...(await this.files.deniedPlaces()));
    // Where those really were in earlier plans: a link in their spelling that a command pointed
    // elsewhere (root/lnk -> real, for --config root/lnk/config.json) must not uncover them.
    secret(...this.hiddenBefore);
    if (!display) add('hidden', ...session, home && posix.join(home, '.Xauthority'));
    return list;
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
      // git's code was found where it really is (gitCode): now elsewhere or gone, it was moved in
      // between, and a plan without it, or with it where it was, would leave it open.
      if (candidate.layer === 'git' && (located[i] ? located[i].real !== candidate.path : !candidate.absent)) throw movedWhilePlanning(candidate.path);
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

/**
 * Where the graphical session's sockets and cookie are, from the server's environment: X11's
 * sockets, the runtime folder (the Wayland socket, PipeWire, the compositor's IPC), every path
 * of the session bus address (the bus xdg-desktop-portal answers on), and a Wayland socket
 * named by path.
 */
function sessionSockets(env: Readonly<Record<string, string>>): string[] {
  const paths = ['/tmp/.X11-unix', env.XDG_RUNTIME_DIR, env.XAUTHORITY];
  for (const match of (env.DBUS_SESSION_BUS_ADDRESS ?? '').matchAll(/(?:^|;)unix:(?:[^;]*,)?path=([^,;]+)/g)) paths.push(decodeURIComponent(match[1]!));
  const wayland = env.WAYLAND_DISPLAY;
  if (wayland) paths.push(wayland.startsWith('/') ? wayland : env.XDG_RUNTIME_DIR && posix.join(env.XDG_RUNTIME_DIR, wayland));
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
