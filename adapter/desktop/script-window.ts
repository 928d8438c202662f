/**
 * A window as the window scripts print it (user32-script.ts on Windows, ax-windows.ts on macOS):
 * short keys, bounds as [x, y, width, height] in the OS's units (pixels on Windows, points on
 * macOS), null while minimized.
 */
import { adapterError } from '../contract/errors.js';
import type { BackendWindow } from './desktop-backend.js';

export interface ScriptWindow {
  id: number | string;
  pid: number;
  app: string;
  title: string;
  b: [number, number, number, number] | null;
  fg: boolean;
  min: boolean;
  max: boolean;
}

/** `density`: physical pixels per unit of the script's bounds. */
export function fromScriptWindow(raw: ScriptWindow, density = 1): BackendWindow {
  const px = (n: number) => Math.round(n * density);
  return {
    id: String(raw.id),
    app: raw.app,
    title: raw.title,
    pid: raw.pid || null,
    bounds: raw.b ? { x: px(raw.b[0]), y: px(raw.b[1]), width: px(raw.b[2]), height: px(raw.b[3]) } : null,
    focused: raw.fg,
    minimized: raw.min,
    maximized: raw.max,
  };
}

/** A script's answer line: the windows, or ok, or an error ("NOT_FOUND" for a window not listed). */
export interface ScriptAnswer {
  windows?: ScriptWindow[];
  ok?: boolean;
  error?: string;
  message?: string;
}

/** Parses an answer; its errors become adapter errors (`id`: the window the request named). */
export function readScriptAnswer(text: string, id: string | undefined, operation: string): ScriptAnswer {
  let answer: ScriptAnswer;
  try {
    answer = JSON.parse(text) as ScriptAnswer;
  } catch {
    throw adapterError('OS_ERROR', operation, `the window tools answered something unreadable: ${text.slice(0, 120)}`);
  }
  if (answer.error === 'NOT_FOUND') throw adapterError('NOT_FOUND', operation, `no window ${id} (it closed, or never was): window.list names the windows`);
  if (answer.error) throw adapterError('OS_ERROR', operation, `the window tools failed: ${String(answer.message ?? answer.error).slice(0, 200)}`);
  return answer;
}
