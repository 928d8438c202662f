/**
 * The typed seam between the MCP tool layer and the computer. It speaks plain
 * TypeScript: no MCP, HTTP, zod or Electron types. Failures are thrown as the structural
 * ComputerAdapterError from ./errors.ts.
 *
 * One family of operations per field, so a caller (or a test) needs only the family it uses,
 * and `inspect` is the port through which the policy looks at the machine this adapter acts on.
 *
 * For an adapter author (a remote machine, a container): implement every family of this
 * interface from the files beside it, importing nothing but adapter/contract/. Every rule is the
 * policy's (main/policy/), decided before a call reaches you; you do what was asked within the
 * bounds the call names, and throw adapterError (errors.ts) for what fails. A new kind of
 * desktop session on this computer (Wayland) is not a new adapter: see desktop.ts.
 */
import type { AppOps } from './apps.js';
import type { BrowserOps } from './browser.js';
import type { DesktopOps } from './desktop.js';
import type { FileOps } from './files.js';
import type { GitOps } from './git.js';
import type { InventoryOps } from './inventory.js';
import type { NetOps } from './net.js';
import type { PolicyPort } from './policy-port.js';
import type { ProcessOps } from './processes.js';
import type { ServiceOps } from './services.js';

export interface SystemInfo {
  hostname: string;
  platform: string;
  arch: string;
  release: string;
  uptimeSeconds: number;
  cwd: string;
  nodeVersion: string;
}

export interface SystemOps {
  systemInfo(): Promise<SystemInfo>;
}

export interface ComputerAdapter {
  readonly system: SystemOps;
  readonly files: FileOps;
  readonly processes: ProcessOps;
  readonly desktop: DesktopOps;
  readonly apps: AppOps;
  readonly browser: BrowserOps;
  readonly services: ServiceOps;
  /** The git tools' operations; the policy plans every run. */
  readonly git: GitOps;
  /** Sockets, filesystems, network and the server's environment, read only. */
  readonly inventory: InventoryOps;
  /** Fetching a URL's body for fs.download; the policy vets every hop. */
  readonly net: NetOps;
  /** What the policy may look at (paths, executables, the base environment, processes). */
  readonly inspect: PolicyPort;
  /** Ends what the adapter keeps running (the desktop worker). */
  close(): Promise<void>;
}
