/**
 * The typed seam between the MCP tool layer and the computer (spec 5.1). It speaks plain
 * TypeScript: no MCP, HTTP, zod or Electron types. Failures are thrown as the structural
 * ComputerAdapterError from ./errors.ts. Each family of operations lives in its own module.
 */
import type { DesktopAppOps } from './apps/app-ops.js';
import type { DesktopOps } from './desktop/desktop-ops.js';
import type { FileOps } from './fs/file-ops.js';
import type { ProcessOps } from './process/process-ops.js';

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

export interface ComputerAdapter extends SystemOps, FileOps, ProcessOps, DesktopOps, DesktopAppOps {}
