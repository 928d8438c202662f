/**
 * Windows on sway (and i3-compatible IPC), over its IPC socket (SWAYSOCK): GET_TREE lists the
 * views, RUN_COMMAND acts on one by its container id. Sway tiles, so its words differ from a
 * stacking window manager's: minimize moves the window to the scratchpad (restore shows it
 * again, tiled), maximize is fullscreen, and moving or resizing a window makes it floating
 * first (a tiled window's place and size are the layout's). Only containers of the tree are acted on, by number: no
 * text of the caller reaches a sway command.
 */
import net from 'node:net';
import { adapterError } from '../../contract/errors.js';
import type { ScreenRect } from '../../contract/geometry.js';
import type { BackendWindow, WindowBackend } from '../desktop-backend.js';
import { actionDone, knownWindow, placementDone, settle } from '../window-settle.js';

const MAGIC = Buffer.from('i3-ipc', 'latin1');
const RUN_COMMAND = 0;
const GET_TREE = 4;
const IPC_TIMEOUT_MS = 5000;
const MAX_REPLY_BYTES = 16 * 1024 * 1024;
const SCRATCHPAD = '__i3_scratch';

interface SwayNode {
  id: number;
  type: string;
  name: string | null;
  pid?: number;
  app_id?: string | null;
  window_properties?: { class?: string };
  focused: boolean;
  fullscreen_mode?: number;
  rect: ScreenRect;
  nodes?: SwayNode[];
  floating_nodes?: SwayNode[];
}

/** One IPC message and its reply, on a connection of its own (sway answers in order; a call is short). */
function ipc(socketPath: string, type: number, payload: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ path: socketPath });
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(new Error(`sway did not answer within ${IPC_TIMEOUT_MS} ms`)), IPC_TIMEOUT_MS);
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('connect', () => {
      const body = Buffer.from(payload, 'utf8');
      const header = Buffer.alloc(14);
      MAGIC.copy(header, 0);
      header.writeUInt32LE(body.length, 6);
      header.writeUInt32LE(type, 10);
      socket.write(Buffer.concat([header, body]));
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 14) return;
      const length = received.readUInt32LE(6);
      if (length > MAX_REPLY_BYTES) return socket.destroy(new Error(`sway sent a reply of ${length} bytes`));
      if (received.length < 14 + length) return;
      clearTimeout(timer);
      socket.end();
      try {
        resolve(JSON.parse(received.toString('utf8', 14, 14 + length)));
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

export function swayWindows(socketPath: string): WindowBackend {
  const failed = (operation: string, error: unknown) => adapterError('OS_ERROR', operation, `sway's IPC failed: ${(error as Error).message}`);
  const list = async (operation: string): Promise<BackendWindow[]> => {
    let tree: SwayNode;
    try {
      tree = (await ipc(socketPath, GET_TREE, '')) as SwayNode;
    } catch (error) {
      throw failed(operation, error);
    }
    const windows: BackendWindow[] = [];
    const walk = (node: SwayNode, workspace: string | undefined) => {
      const here = node.type === 'workspace' ? (node.name ?? undefined) : workspace;
      const children = [...(node.nodes ?? []), ...(node.floating_nodes ?? [])];
      if ((node.type === 'con' || node.type === 'floating_con') && children.length === 0 && node.pid !== undefined) {
        windows.push({
          id: String(node.id),
          title: node.name ?? '',
          app: node.app_id ?? node.window_properties?.class ?? '',
          pid: node.pid ?? null,
          bounds: node.rect,
          focused: node.focused,
          minimized: here === SCRATCHPAD,
          maximized: (node.fullscreen_mode ?? 0) > 0,
        });
      }
      for (const child of children) walk(child, here);
    };
    walk(tree, undefined);
    return windows;
  };
  const run = async (command: string, operation: string) => {
    let replies: Array<{ success: boolean; error?: string }>;
    try {
      replies = (await ipc(socketPath, RUN_COMMAND, command)) as typeof replies;
    } catch (error) {
      throw failed(operation, error);
    }
    const refused = replies.find((r) => !r.success);
    if (refused) throw adapterError('OS_ERROR', operation, `sway refused: ${String(refused.error ?? 'no reason given').slice(0, 200)}`);
  };
  return {
    list,
    async act(id, action, operation) {
      const window = await knownWindow(list, id, operation);
      const con = `[con_id=${Number(window.id)}]`;
      const commands = {
        focus: window.minimized ? `${con} scratchpad show, floating disable, focus` : `${con} focus`,
        minimize: `${con} move scratchpad`,
        maximize: `${con} fullscreen enable`,
        restore: window.minimized ? `${con} scratchpad show, floating disable, focus` : `${con} fullscreen disable, focus`,
        close: `${con} kill`,
      };
      await run(commands[action], operation);
      await settle(list, id, operation, (w) => actionDone(action, w));
    },
    async moveResize(id, placement, operation) {
      const window = await knownWindow(list, id, operation);
      const con = `[con_id=${Number(window.id)}]`;
      // floating first, then the size, then the place: sway keeps a floating window's centre when it resizes it
      const parts = ['floating enable'];
      if (placement.width !== undefined || placement.height !== undefined) {
        const width = Math.round(placement.width ?? window.bounds?.width ?? 1);
        const height = Math.round(placement.height ?? window.bounds?.height ?? 1);
        parts.push(`resize set width ${width} px height ${height} px`);
      }
      if (placement.x !== undefined || placement.y !== undefined) {
        const x = Math.round(placement.x ?? window.bounds?.x ?? 0);
        const y = Math.round(placement.y ?? window.bounds?.y ?? 0);
        parts.push(`move absolute position ${x} px ${y} px`);
      }
      await run(`${con} ${parts.join(', ')}`, operation);
      await settle(list, id, operation, (w) => placementDone(placement, w));
    },
  };
}
