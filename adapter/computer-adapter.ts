/**
 * The typed seam between the MCP tool layer and the computer (spec 5.1). It speaks plain
 * TypeScript: no MCP, HTTP, zod or Electron types. Failures are thrown as the structural
 * ComputerAdapterError from ./errors.ts.
 */

export interface SystemInfo {
  hostname: string;
  platform: string;
  arch: string;
  release: string;
  uptimeSeconds: number;
  cwd: string;
  nodeVersion: string;
}

export interface ComputerAdapter {
  systemInfo(): Promise<SystemInfo>;
}
