/**
 * Starts the desktop worker (adapter/desktop/desktop-worker.ts, the only code that loads
 * nut-js) as an Electron utility process instead of a Node child process, so a native crash
 * takes down only that process. Plugs into the adapter's WorkerSpawner seam; adapter/ itself
 * never imports electron. Messages travel by structured clone: Buffers arrive as Uint8Array.
 */
import { utilityProcess } from 'electron';
import { exitLatch, stderrTail, type WorkerHandle, type WorkerSpawner } from '../../adapter/desktop/worker-process.js';

export const utilityProcessSpawner: WorkerSpawner = (modulePath, env) => {
  const child = utilityProcess.fork(modulePath, [], {
    env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string')),
    serviceName: 'ChatGPT Computer MCP desktop worker',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const tail = stderrTail(child.stderr);
  const exit = exitLatch();
  child.once('exit', (code) => exit.finish({ code, signal: null }));
  const handle: WorkerHandle = {
    get pid() {
      return child.pid;
    },
    send: (message) => child.postMessage(message),
    onMessage: (listener) => void child.on('message', listener),
    onExit: exit.onExit,
    kill: () => void child.kill(),
    stderrTail: tail,
  };
  return handle;
};
