/**
 * ProcessOps on this computer: one real implementation per OS (linux, darwin, win32), chosen at
 * runtime, with one process registry per adapter for the handles.
 */
import type { ProcessOps } from '../contract/processes.js';
import { findExecutable } from './find-executable.js';
import { listProcesses } from './list.js';
import { PeerSet } from './peer-process.js';
import { ProcessRegistry } from './process-registry.js';
import { runCommand } from './run-command.js';
import { killProcess } from './signals.js';

export function createProcessOps(platform: NodeJS.Platform = process.platform): ProcessOps {
  const registry = new ProcessRegistry(platform);
  const peers = new PeerSet(platform);
  return {
    runCommand: (request) => runCommand(request, { platform, registry }),
    startProcess: (request) => registry.start(request),
    startPeer: (request) => peers.start(request),
    readProcessOutput: (handle, options) => registry.read(handle, options),
    writeProcessInput: (handle, data, close) => registry.write(handle, data, close),
    stopProcess: (handle, options) => registry.stop(handle, options),
    processStatus: (handle) => registry.status(handle),
    closeProcesses: async () => void (await Promise.all([registry.closeAll(), peers.closeAll()])),
    findExecutable: (name, searchPath, cwd) => findExecutable(name, searchPath, cwd, platform),
    listProcesses: () => listProcesses(platform),
    killProcess: (pid, signal) => killProcess(pid, signal, platform),
  };
}
