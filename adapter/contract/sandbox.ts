/**
 * The sandbox a command runs in, as the policy decided it (main/policy/sandbox.ts) and the
 * mechanism enforces it (adapter/process/sandbox/: bubblewrap on Linux, Seatbelt on macOS). Types
 * only: the policy builds the plan, the adapter never decides what is visible.
 *
 * For an adapter author: ProcessOps.runCommand and startProcess run a request with a `sandbox`
 * inside exactly this plan, or refuse it; PolicyPort.sandboxSupport says which mechanism the
 * computer offers (an adapter without one answers `usable: false` with the problem).
 */

/**
 * What a command may do with a path and everything below it:
 * - `read`: see it as it is, read-only;
 * - `write`: see it and change it;
 * - `hidden`: an empty read-only folder (or an empty file) in its place;
 * - `temp`: a fresh empty folder the command may write, gone when it ends (Linux; on macOS the
 *   folder itself, shared with the owner's other programs).
 */
export type SandboxAccess = 'read' | 'write' | 'hidden' | 'temp';

export interface SandboxEntry {
  /** Absolute real path (symlinks resolved), so mounts and Seatbelt rules name what is really there. */
  path: string;
  access: SandboxAccess;
  /** What the path is now: a hidden directory becomes an empty folder, anything else an empty file. */
  kind: 'directory' | 'file';
  /**
   * The path itself can be neither renamed nor removed (on Linux it gets a mount of its own), so
   * what later entries say below it cannot be carried away with it: a repository's `.git`,
   * whose hooks and config stay read-only.
   */
  pinned?: boolean;
}

export type SandboxMechanism = 'bubblewrap' | 'seatbelt';

export interface SandboxPlan {
  mechanism: SandboxMechanism;
  /** Absolute path of bwrap or sandbox-exec (checked to be outside every root). */
  program: string;
  /** bubblewrap: unprivileged user namespaces work here (then nested ones are disabled inside). */
  userNamespace: boolean;
  mode: 'workspace' | 'read-only';
  network: 'on' | 'off' | 'loopback';
  /** The graphical session stays reachable (desktop.hostDisplayAccess is on). */
  display: boolean;
  /**
   * bubblewrap: keep the command from abstract Unix sockets made outside it (Landlock's scope,
   * applied as it starts): the X server's, which a shared network would otherwise leave reachable.
   */
  scopeAbstractSockets?: boolean;
  /**
   * In order: each entry decides for its path and everything below it, over what earlier entries
   * said; before the first entry the whole filesystem is readable and nothing is writable.
   */
  entries: SandboxEntry[];
  /** TMPDIR, TMP and TEMP inside point here. */
  tempDir: string;
}

/** What this computer offers, probed once. */
export type SandboxSupport =
  /**
   * `abstractSocketScope`: commands can be kept from abstract sockets made outside (Linux 6.12's
   * Landlock, a bwrap that is not setuid). `guarded: false`: bubblewrap's guard, which checks every
   * mount is where the plan put it before a command runs, was not built here.
   */
  | { mechanism: SandboxMechanism; usable: true; program: string; version: string; userNamespace: boolean; abstractSocketScope?: boolean; guarded?: boolean }
  | { mechanism: SandboxMechanism | null; usable: false; problem: string; fix: string | null };
