/**
 * Entry point of the desktop worker process: the only process that loads the desktop backend's
 * native code (nut-js). It answers WorkerRequests one at a time, in order (input events must
 * not interleave), over the Node IPC channel (child_process.fork) or Electron's parentPort
 * (utilityProcess.fork).
 */
import { DesktopSession } from './desktop-session.js';
import { onOwnerWait } from './owner-wait.js';
import { isWorkerRequest, OPERATION_NAMES, toWireError, type WorkerOwnerWait, type WorkerRequest, type WorkerResponse } from './worker-protocol.js';

interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

const parentPort = (process as { parentPort?: ParentPort }).parentPort;

const send = (response: WorkerResponse | WorkerOwnerWait): void => {
  if (parentPort) parentPort.postMessage(response);
  else process.send?.(response);
};
onOwnerWait((ms) => send({ ownerWaitMs: ms }));

let desktop: DesktopSession | undefined;
let queue: Promise<void> = Promise.resolve();

async function handle(request: WorkerRequest): Promise<void> {
  try {
    desktop ??= await DesktopSession.load(); // first use: loads the backend, which opens the display
    const method = desktop[request.op] as (...args: unknown[]) => Promise<unknown>;
    const result = await method.apply(desktop, request.args);
    send({ id: request.id, ok: true, result });
  } catch (error) {
    send({ id: request.id, ok: false, error: toWireError(error, OPERATION_NAMES[request.op]) });
  }
}

function receive(message: unknown): void {
  if (!isWorkerRequest(message)) return;
  queue = queue.then(() => handle(message));
}

if (parentPort) parentPort.on('message', (event) => receive(event.data));
else {
  process.on('message', receive);
  // The server is gone: nothing left to serve.
  process.on('disconnect', () => process.exit(0));
}
