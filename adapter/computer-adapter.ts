/**
 * The typed seam between the MCP tool layer and the computer. It speaks plain
 * TypeScript: no MCP, HTTP, zod or Electron types. Failures are thrown as the structural
 * ComputerAdapterError from ./errors.ts.
 *
 * One family of operations per field, so a caller (or a test) needs only the family it uses,
 * and `inspect` is the port through which the policy looks at the machine this adapter acts on.
 */
import type { AppOps } from './apps/app-ops.js';
import type { BrowserOps } from './browser/browser-ops.js';
import type { DesktopOps } from './desktop/desktop-ops.js';
import type { FileOps } from './fs/file-ops.js';
import type { PolicyPort } from './policy-port.js';
import type { ProcessOps } from './process/process-ops.js';
import type { ServiceOps } from './services/service-ops.js';

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
  /** What the policy may look at (paths, executables, the base environment, processes). */
  readonly inspect: PolicyPort;
  /** Ends what the adapter keeps running (the desktop worker). */
  close(): Promise<void>;
}
