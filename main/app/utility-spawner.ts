/**
 * Starts the desktop worker (adapter/desktop/desktop-worker.ts, the only code that loads
 * nut-js) as an Electron utility process instead of a Node child process, so a native crash
 * takes down only that process. Plugs into the adapter's WorkerSpawner seam; adapter/ itself
 * never imports electron. Messages travel by structured clone: Buffers arrive as Uint8Array.
 */
import { utilityProcess } from 'electron';
import type { WorkerExit, WorkerHandle, WorkerSpawner } from '../../adapter/desktop/worker-process.js';

const STDERR_TAIL_BYTES = 4096;

export const utilityProcessSpawner: WorkerSpawner = (modulePath, env) => {
  const child = utilityProcess.fork(modulePath, [], {
    env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string')),
    serviceName: 'ChatGPT Computer MCP desktop worker',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let tail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-STDERR_TAIL_BYTES);
  });
  let exited: WorkerExit | undefined;
  const exitListeners: Array<(exit: WorkerExit) => void> = [];
  child.once('exit', (code) => {
    exited = { code, signal: null };
    for (const listener of exitListeners) listener(exited);
  });
  const handle: WorkerHandle = {
    get pid() {
      return child.pid;
    },
    send: (message) => child.postMessage(message),
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => (exited ? listener(exited) : void exitListeners.push(listener)),
    kill: () => void child.kill(),
    stderrTail: () => tail,
  };
  return handle;
};
