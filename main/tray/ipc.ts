/**
 * Registers the settings window's IPC handlers behind two gates: the sender must be the
 * settings window's own main frame on the page we loaded, and the arguments must match the
 * channel's zod schema. A refused call rejects in the window and runs nothing.
 */
import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent } from 'electron';
import { INVOKE, SEND, type InvokeChannel, type SendChannel } from './ipc-channels.js';
import { parseInvokeArgs, parseSendArgs, type InvokeArgs, type SendArgs } from './ipc-contract.js';
import { isTrustedSender, type ExpectedSender, type SenderInfo } from './sender-check.js';

export type InvokeHandlers = { [C in InvokeChannel]: (...args: InvokeArgs<C>) => unknown };
export type SendHandlers = { [C in SendChannel]: (...args: SendArgs<C>) => void };

export interface IpcOptions {
  expectedSender: () => ExpectedSender | null;
  invoke: InvokeHandlers;
  send: SendHandlers;
  /** Told about refused messages (never their payloads). */
  onRefused?: (channel: string, reason: string) => void;
}

export const REFUSED_SENDER = 'Refused: this message did not come from the settings window.';

export function registerIpc(ipcMain: IpcMain, options: IpcOptions): () => void {
  const refuse = options.onRefused ?? (() => {});
  for (const channel of Object.values(INVOKE)) {
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, ...args: unknown[]) => {
      if (!isTrustedSender(senderInfo(event), options.expectedSender())) {
        refuse(channel, 'sender');
        throw new Error(REFUSED_SENDER);
      }
      let parsed;
      try {
        parsed = parseInvokeArgs(channel, args);
      } catch (error) {
        refuse(channel, 'payload');
        throw error;
      }
      const handler = options.invoke[channel] as (...a: unknown[]) => unknown;
      return handler(...(parsed as unknown[]));
    });
  }
  const listeners = Object.values(SEND).map((channel) => {
    const listener = (event: IpcMainEvent, ...args: unknown[]) => {
      if (!isTrustedSender(senderInfo(event), options.expectedSender())) return refuse(channel, 'sender');
      let parsed;
      try {
        parsed = parseSendArgs(channel, args);
      } catch {
        return refuse(channel, 'payload');
      }
      (options.send[channel] as (...a: unknown[]) => void)(...(parsed as unknown[]));
    };
    ipcMain.on(channel, listener);
    return [channel, listener] as const;
  });
  return () => {
    for (const channel of Object.values(INVOKE)) ipcMain.removeHandler(channel);
    for (const [channel, listener] of listeners) ipcMain.removeListener(channel, listener);
  };
}

function senderInfo(event: IpcMainEvent | IpcMainInvokeEvent): SenderInfo {
  try {
    const frame = event.senderFrame;
    return { webContentsId: event.sender.id, frameUrl: frame?.url ?? null, isMainFrame: frame !== null && frame.parent === null };
  } catch {
    // The frame was navigated away or destroyed while the message was in flight.
    return { webContentsId: -1, frameUrl: null, isMainFrame: false };
  }
}
