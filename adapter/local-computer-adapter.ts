/** The adapter that acts on this computer with Node built-ins. */
import os from 'node:os';
import type { ComputerAdapter, SystemInfo } from './computer-adapter.js';

export class LocalComputerAdapter implements ComputerAdapter {
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
