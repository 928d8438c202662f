/** The adapter that acts on this computer with Node built-ins; per-OS pieces are chosen at runtime. */
import os from 'node:os';
import type { DesktopAppOps } from './apps/app-ops.js';
import { localDesktopAppOps } from './apps/local-app-ops.js';
import type { ComputerAdapter, SystemInfo } from './computer-adapter.js';
import { DesktopClient, type DesktopClientOptions } from './desktop/desktop-client.js';
import type { CaptureOptions, ClickOptions, PointerTarget } from './desktop/desktop-ops.js';
import type { FileOps } from './fs/file-ops.js';
import { localFileOps } from './fs/local-file-ops.js';
import { createProcessOps, type ProcessOps } from './process/process-ops.js';

export interface LocalAdapterOptions {
  platform?: NodeJS.Platform;
  /** How the desktop worker (nut-js, isolated) is spawned: a Node child by default, a utility process in Electron. */
  desktop?: DesktopClientOptions;
}

// The class gains the stateless families' methods by delegation (declaration merging types them).
export interface LocalComputerAdapter extends FileOps, ProcessOps, DesktopAppOps {}

export class LocalComputerAdapter implements ComputerAdapter {
  private readonly desktop: DesktopClient;

  constructor(options: LocalAdapterOptions = {}) {
    Object.assign(this, localFileOps, createProcessOps(options.platform ?? process.platform), localDesktopAppOps);
    this.desktop = new DesktopClient(options.desktop);
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

  captureScreen(options: CaptureOptions) {
    return this.desktop.captureScreen(options);
  }
  moveMouse(target: PointerTarget) {
    return this.desktop.moveMouse(target);
  }
  click(options: ClickOptions) {
    return this.desktop.click(options);
  }
  typeText(text: string) {
    return this.desktop.typeText(text);
  }
  pressKeys(combo: string) {
    return this.desktop.pressKeys(combo);
  }
  screenSize(display?: number) {
    return this.desktop.screenSize(display);
  }

  /** Stops the desktop worker, if one runs. */
  close(): Promise<void> {
    return this.desktop.close();
  }
}
