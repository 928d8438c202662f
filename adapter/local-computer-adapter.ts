/**
 * The adapter that acts on this computer with Node built-ins; per-OS pieces are chosen at
 * runtime. Only the composition roots (main/cli.ts, main/tray/app-main.ts, tests and benches)
 * build it; everything else sees the ComputerAdapter interface.
 */
import os from 'node:os';
import { closeApp } from './apps/close-app.js';
import { launchApp } from './apps/launch-app.js';
import { openUrl } from './browser/open-url.js';
import type { ComputerAdapter, SystemInfo } from './contract/computer-adapter.js';
import { DesktopClient, type DesktopClientOptions } from './desktop/desktop-client.js';
import { localFileOps } from './fs/local-file-ops.js';
import { localGitOps } from './git/local-git-ops.js';
import { createInventoryOps } from './inventory/local-inventory-ops.js';
import { fetchBody } from './net/fetch-body.js';
import { localPolicyPort } from './local-policy-port.js';
import { createProcessOps } from './process/local-process-ops.js';
import { serviceControl, serviceStatus } from './services/service-manager.js';

export interface LocalAdapterOptions {
  platform?: NodeJS.Platform;
  /** How the desktop worker (nut-js, isolated) is spawned: a Node child by default, a utility process in Electron. */
  desktop?: DesktopClientOptions;
  /** The environment children are derived from; defaults to this process's. */
  env?: NodeJS.ProcessEnv;
}

export function createLocalAdapter(options: LocalAdapterOptions = {}): ComputerAdapter {
  const platform = options.platform ?? process.platform;
  const processes = createProcessOps(platform);
  const desktop = new DesktopClient(options.desktop);
  return {
    system: { systemInfo: async () => localSystemInfo() },
    files: localFileOps,
    processes,
    desktop,
    apps: { launchApp, closeApp },
    browser: { openUrl },
    services: { serviceStatus, serviceControl },
    git: localGitOps,
    inventory: createInventoryOps(platform, options.env ?? process.env),
    net: { fetchBody },
    inspect: localPolicyPort(processes, platform, options.env ?? process.env),
    close: async () => {
      await Promise.all([desktop.close(), processes.closeProcesses()]);
    },
  };
}

function localSystemInfo(): SystemInfo {
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
