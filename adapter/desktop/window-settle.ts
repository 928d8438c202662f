/**
 * What every window backend shares: a window manager acts on its own time (and may ignore a
 * request), so after asking, the backend polls its list until the window shows the action,
 * for at most SETTLE_MS; and only a window of that list may be acted on.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { WindowAction, WindowPlacement } from '../contract/desktop.js';
import { adapterError } from '../contract/errors.js';
import type { BackendWindow } from './desktop-backend.js';

const SETTLE_MS = 1500;
/** Borders and size increments (a terminal's character cells) leave a window near, not at, what was asked. */
const NEAR_PX = 32;

type List = (operation: string) => Promise<BackendWindow[]>;

/** The window `id` names, or NOT_FOUND. */
export async function knownWindow(list: List, id: string, operation: string): Promise<BackendWindow> {
  const found = (await list(operation)).find((w) => w.id === id);
  if (!found) throw adapterError('NOT_FOUND', operation, `no window ${id} (it closed, or never was): window.list names the windows`);
  return found;
}

/** Whether the window, as listed now (undefined: gone), shows `action` done. */
export function actionDone(action: WindowAction, w: BackendWindow | undefined): boolean {
  if (action === 'close') return w === undefined;
  if (action === 'focus') return w?.focused === true;
  if (action === 'minimize') return w?.minimized === true;
  if (action === 'maximize') return w?.maximized === true;
  return w !== undefined && !w.minimized && !w.maximized;
}

export function placementDone(placement: WindowPlacement, w: BackendWindow | undefined): boolean {
  const fields = ['x', 'y', 'width', 'height'] as const;
  return !!w?.bounds && fields.every((f) => placement[f] === undefined || Math.abs(w.bounds![f] - placement[f]!) <= NEAR_PX);
}

/** Polls until `done` holds for the window, or SETTLE_MS passed. */
export async function settle(list: List, id: string, operation: string, done: (w: BackendWindow | undefined) => boolean): Promise<void> {
  for (const end = Date.now() + SETTLE_MS; Date.now() < end; await sleep(40)) {
    if (done((await list(operation)).find((w) => w.id === id))) return;
  }
}
