/**
 * What `shell.sandbox` and `shell.network` mean on each OS, as pure rules: the server's sandbox
 * policy (sandbox.ts) decides with them, and the settings window shows the same words before the
 * owner saves. No Node imports: the renderer bundles this module.
 *
 * - Linux: bubblewrap (mount, pid, IPC and network namespaces). "auto" is "private-home":
 *   "workspace" with the owner's home folder hidden as well, except the roots, the toolchain
 *   folders below and what the owner adds (shell.homeVisible). Node and npm, pyenv's python,
 *   cargo, go and git were measured to run in it exactly as in "workspace"
 *   (test/e2e/sandbox-private-home.test.ts).
 * - macOS: sandbox-exec with a generated Seatbelt profile. Opt-in: "auto" is "off" there, because
 *   the profile has not been run on a real Mac by this project yet.
 * - Windows: no sandbox in this version. "auto" is "off"; "workspace" and "read-only" are refused
 *   at start rather than pretended.
 */
import type { NetworkSetting, SandboxSetting } from '../config/schema.js';

export type SandboxMode = 'private-home' | 'workspace' | 'read-only' | 'off';
export type NetworkMode = 'on' | 'off' | 'loopback';
export type MechanismName = 'bubblewrap' | 'seatbelt';
/** What a command can reach of the graphical session: all of it, nothing, or its abstract sockets only (X11, dbus-launch's bus). */
export type DisplayInside = 'visible' | 'hidden' | 'abstract-sockets-reachable';

export interface SandboxChoice {
  mode: SandboxMode;
  /** "on" whenever commands are not sandboxed: nothing else can be enforced then. */
  network: NetworkMode;
  /** The OS mechanism that enforces `mode`, or null when commands are not sandboxed. */
  mechanism: MechanismName | null;
  display: DisplayInside;
  /** Why this choice cannot run on this OS (the server refuses to start), or null. */
  problem: { key: 'sandbox' | 'network'; message: string } | null;
}

/**
 * What "private-home" leaves readable of the home folder besides the roots: where the common
 * toolchains keep their programs, versions and caches (rustup and cargo, npm and nvm, pyenv,
 * pip's and go's caches, user-installed programs).
 */
/** Read-only in the private-home sandbox: toolchains, and git's own settings (the author name and email a commit needs). */
export const TOOLCHAIN_FOLDERS = [
  '~/.cargo',
  '~/.rustup',
  '~/.npm',
  '~/.nvm',
  '~/.pyenv',
  '~/.cache',
  '~/.local/bin',
  '~/.gitconfig',
  '~/.config/git',
] as const;

/** Commands may write in the writable roots (not only the temp folder). */
export function writesRoots(mode: SandboxMode): boolean {
  return mode === 'workspace' || mode === 'private-home';
}

/** The mechanism this OS has, if any. */
export function mechanismFor(platform: string): MechanismName | null {
  if (platform === 'linux') return 'bubblewrap';
  if (platform === 'darwin') return 'seatbelt';
  return null;
}

/** The mode "auto" stands for on this OS. */
export function defaultSandboxMode(platform: string): SandboxMode {
  return platform === 'linux' ? 'private-home' : 'off';
}

export function resolveSandbox(shell: { sandbox: SandboxSetting; network: NetworkSetting }, hostDisplayAccess: boolean, platform: string): SandboxChoice {
  const mode = shell.sandbox === 'auto' ? defaultSandboxMode(platform) : shell.sandbox;
  const mechanism = mode === 'off' ? null : mechanismFor(platform);
  let problem: SandboxChoice['problem'] = null;
  if (mode !== 'off' && mechanism === null) {
    problem = {
      key: 'sandbox',
      message: `shell.sandbox is "${mode}", but commands cannot be sandboxed on ${platformName(platform)} in this version; set shell.sandbox to "off" (commands then run with your account's full rights)`,
    };
  }
  const sandboxed = mode !== 'off' && mechanism !== null;
  const network: NetworkMode = shell.network === 'auto' ? (sandboxed ? 'off' : 'on') : shell.network;
  if (!problem && !sandboxed && network !== 'on') {
    problem = {
      key: 'network',
      message: `shell.network is "${network}", but only the sandbox can take the network away from commands and shell.sandbox is "off"; set shell.network to "on" or "auto", or turn the sandbox on`,
    };
  }
  if (!problem && mechanism === 'bubblewrap' && network === 'loopback') {
    problem = {
      key: 'network',
      message:
        'shell.network "loopback" (this computer\'s loopback services only) is not available with bubblewrap, which can share the whole network or none of it; choose "off" (a private network with only the command\'s own loopback) or "on"',
    };
  }
  return { mode, network, mechanism, display: displayInside(mechanism, network, hostDisplayAccess), problem };
}

function displayInside(mechanism: MechanismName | null, network: NetworkMode, hostDisplayAccess: boolean): DisplayInside {
  if (hostDisplayAccess || mechanism === null) return 'visible';
  // X servers also listen on an abstract socket (@/tmp/.X11-unix/X0), and dbus-launch's session
  // buses only on one: abstract sockets live in the network namespace, so no file mount hides
  // them, only a private network does.
  if (mechanism === 'bubblewrap' && network === 'on') return 'abstract-sockets-reachable';
  return 'hidden';
}

/** One line per fact, for system.info, the settings window and start messages. */
export function describeChoice(choice: SandboxChoice, platform: string): string[] {
  if (choice.problem) return [choice.problem.message];
  if (choice.mode === 'off') {
    const why = mechanismFor(platform) === null ? ` (${platformName(platform)} has no sandbox for commands in this version)` : '';
    return [`Commands are not sandboxed${why}: an allowed program runs with your account's full rights.`];
  }
  const lines = [
    choice.mode === 'read-only'
      ? `Commands run in a ${mechanismLabel(choice.mechanism)} sandbox, read-only: they can write only in a private temp folder.`
      : `Commands run in a ${mechanismLabel(choice.mechanism)} sandbox: they can write only in writable shared folders and a private temp folder, and read the rest of the system except hidden places.`,
    ...(choice.mode === 'private-home'
      ? [
          `Your home folder is hidden from commands, except the shared folders and the toolchain folders (${TOOLCHAIN_FOLDERS.join(', ')}, and shell.homeVisible).`,
        ]
      : []),
    `Hidden inside: this app's folders and config, secret folders in your home (~/.ssh, ~/.aws, ~/.gnupg, ...), other users' homes${
      choice.mechanism === 'bubblewrap' ? ', /run (system sockets), other processes, devices' : ''
    }.`,
    describeNetwork(choice),
  ];
  if (choice.display === 'hidden') lines.push('The display is hidden: no X11 or Wayland socket, session bus or display variable inside.');
  else if (choice.display === 'abstract-sockets-reachable') {
    lines.push(
      'The display is hidden except for abstract sockets (X11\'s, and a D-Bus session bus started by dbus-launch), which the shared network exposes where the kernel cannot keep them out (Linux before 6.12, whose Landlock lacks the scope): with shell.network "off" it is hidden completely.',
    );
  } else lines.push('The display is visible (desktop.hostDisplayAccess is on).');
  return lines;
}

function describeNetwork(choice: SandboxChoice): string {
  if (choice.network === 'on') return "Network: this computer's network.";
  if (choice.network === 'loopback') return "Network: this computer's loopback services only (localhost).";
  return choice.mechanism === 'bubblewrap'
    ? "Network: none (a private network namespace: a command can reach only its own loopback, never this computer's services)."
    : 'Network: none, loopback included.';
}

export function mechanismLabel(mechanism: MechanismName | null): string {
  return mechanism === 'bubblewrap' ? 'bubblewrap' : mechanism === 'seatbelt' ? 'Seatbelt (sandbox-exec)' : 'no';
}

function platformName(platform: string): string {
  return platform === 'win32' ? 'Windows' : platform === 'darwin' ? 'macOS' : platform === 'linux' ? 'Linux' : platform;
}
