/**
 * window.*: the owner's top-level windows, listed and arranged through the window manager. Under
 * their own grant (desktop.windows); titles only with desktop.windowTitles, since a title tells
 * what the owner is reading or writing.
 */
import * as z from 'zod';
import type { WindowAction, WindowActionResult, WindowInfo } from '../../../adapter/contract/desktop.js';
import { adapterError } from '../../../adapter/contract/errors.js';
import type { Config } from '../../config/schema.js';
import { defineTool, DESTRUCTIVE, IDEMPOTENT_WRITE, READ_ONLY } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { bounds } from './desktop-schemas.js';

const windowSchema = z.object({
  id: z.string().describe('Pass to the other window.* tools'),
  title: z.string().nullable().describe('null: window titles are not granted (desktop.windowTitles)'),
  app: z.string(),
  pid: z.number().int().nullable(),
  bounds: bounds.nullable().describe('Physical desktop pixels'),
  focused: z.boolean(),
  minimized: z.boolean(),
  maximized: z.boolean(),
  display: z.number().int().nullable(),
});

const TITLES_OFF = 'titles are hidden (the owner has not granted desktop.windowTitles)';

/** The window as this owner lets a model see it. */
function shown(window: WindowInfo, config: Readonly<Config>): z.output<typeof windowSchema> {
  return { ...window, title: config.desktop.windowTitles ? window.title : null };
}

function line(w: z.output<typeof windowSchema>): string {
  const b = w.bounds ? ` ${w.bounds.width}x${w.bounds.height} at ${w.bounds.x},${w.bounds.y}` : '';
  const flags = [w.focused && 'focused', w.minimized && 'minimized', w.maximized && 'maximized'].filter(Boolean);
  const title = w.title === null ? '' : ` ${JSON.stringify(w.title)}`;
  return `${w.id} ${w.app || '(no app name)'}${title}${w.pid === null ? '' : ` pid ${w.pid}`}${b}${w.display === null ? '' : ` display ${w.display}`}${flags.length ? ` (${flags.join(', ')})` : ''}`;
}

export const windowList = defineTool({
  name: 'window.list',
  title: 'List the windows',
  description:
    'Lists the top-level windows the window manager knows: id, title (when the owner granted window titles), app, pid, bounds in physical ' +
    'desktop pixels, which display, and whether it is focused, minimized or maximized. Pass an id to window.focus, window.move_resize, ' +
    'window.minimize, window.maximize, window.restore or window.close.',
  input: z.object({}),
  output: z.object({ windows: z.array(windowSchema), titles: z.boolean() }),
  annotations: READ_ONLY,
  grant: GRANT.windows,
  async run(_args, { adapter, config }) {
    const windows = (await adapter.desktop.listWindows()).map((w) => shown(w, config));
    const head = `${windows.length} window(s)${config.desktop.windowTitles ? '' : `; ${TITLES_OFF}`}:`;
    return { structured: { windows, titles: config.desktop.windowTitles }, text: [head, ...windows.map(line)].join('\n') };
  },
});

const idInput = z.object({ id: z.string().min(1).max(64).describe('A window id from window.list') });
const actionOutput = z.object({
  id: z.string(),
  action: z.string(),
  window: windowSchema.nullable().describe('The window afterwards; null once it is gone'),
  done: z.boolean().describe('Whether the window shows it done: false when the window manager ignored or refused the request'),
});

function answer(result: WindowActionResult, config: Readonly<Config>, done: string, asked: string) {
  const window = result.window ? shown(result.window, config) : null;
  const why =
    result.action === 'close'
      ? 'it is still open: the app may be asking to save first'
      : 'the window manager did not do it (it may not support this, or refused)';
  const what = result.done ? done : `${asked}, but ${why}`;
  return {
    structured: { id: result.id, action: result.action, window, done: result.done },
    text: `${what}. ${window ? `Now: ${line(window)}` : 'The window is gone.'}`,
  };
}

const PAST: Record<WindowAction, string> = { focus: 'Focused', minimize: 'Minimized', maximize: 'Maximized', restore: 'Restored', close: 'Asked to close' };

const actionTool = (action: WindowAction, title: string, description: string) =>
  defineTool({
    name: `window.${action}`,
    title,
    description: `${description} The window manager does it (it may refuse); the result shows the window afterwards.`,
    input: idInput,
    output: actionOutput,
    annotations: action === 'close' ? DESTRUCTIVE : IDEMPOTENT_WRITE,
    grant: GRANT.windows,
    target: (args) => ({ id: args.id }),
    async run(args, { adapter, config }) {
      return answer(await adapter.desktop.windowAction(args.id, action), config, `${PAST[action]} window ${args.id}`, `Asked window ${args.id} to ${action}`);
    },
  });

export const windowFocus = actionTool('focus', 'Focus a window', 'Raises a window and gives it the keyboard focus (un-minimizing it).');
export const windowMinimize = actionTool('minimize', 'Minimize a window', 'Minimizes (iconifies) a window.');
export const windowMaximize = actionTool('maximize', 'Maximize a window', 'Maximizes a window.');
export const windowRestore = actionTool('restore', 'Restore a window', 'Un-maximizes and un-minimizes a window, and focuses it.');
export const windowClose = actionTool('close', 'Close a window', 'Asks a window to close, as its close button does: the app may ask to save first.');

export const windowMoveResize = defineTool({
  name: 'window.move_resize',
  title: 'Move or resize a window',
  description: 'Moves a window (x, y: its top-left in physical desktop pixels) and/or resizes it (width, height); what is omitted stays.',
  input: idInput.extend({
    x: z.number().int().min(-16_384).max(16_384).optional(),
    y: z.number().int().min(-16_384).max(16_384).optional(),
    width: z.number().int().min(1).max(16_384).optional(),
    height: z.number().int().min(1).max(16_384).optional(),
  }),
  output: actionOutput,
  annotations: IDEMPOTENT_WRITE,
  grant: GRANT.windows,
  target: (args) => ({ id: args.id }),
  async run({ id, ...placement }, { adapter, config }) {
    if (Object.values(placement).every((v) => v === undefined)) throw adapterError('INVALID_INPUT', 'window.move_resize', 'give x, y, width or height');
    return answer(await adapter.desktop.moveResizeWindow(id, placement), config, `Moved/resized window ${id}`, `Asked to move/resize window ${id}`);
  },
});

export const windowTools = [windowList, windowFocus, windowMoveResize, windowMinimize, windowMaximize, windowRestore, windowClose];
