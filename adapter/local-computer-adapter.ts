/** The adapter that acts on this computer with Node built-ins; per-OS pieces are chosen at runtime. */
import os from 'node:os';
import type { DesktopAppOps } from './apps/app-ops.js';
import { localDesktopAppOps } from './apps/local-app-ops.js';
import type { ComputerAdapter, SystemInfo } from './computer-adapter.js';
import type { FileOps } from './fs/file-ops.js';
import { localFileOps } from './fs/local-file-ops.js';
import { createProcessOps, type ProcessOps } from './process/process-ops.js';

// The class gains each family's methods by delegation (declaration merging types them).
export interface LocalComputerAdapter extends FileOps, ProcessOps, DesktopAppOps {}

export class LocalComputerAdapter implements ComputerAdapter {
  constructor(platform: NodeJS.Platform = process.platform) {
    Object.assign(this, localFileOps, createProcessOps(platform), localDesktopAppOps);
  }

  async systemInfo(): Promise<SystemInfo> {
    return {
      hostname: os.hostname(),
      platform: process.platform,
      arch: process.arch,
      release: os.release(),
      uptimeSeconds: Math.round(os.uptime()),
      cwd: process.cwd(),
      nodeVersion: process.version,
    };
  }
}
