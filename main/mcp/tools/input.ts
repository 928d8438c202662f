/** input.move, input.click, input.type, input.key: the pointer and keyboard of the desktop. */
import * as z from 'zod';
import type { Config } from '../../config/schema.js';
import { defineTool, DESTRUCTIVE } from '../tool.js';

export const MAX_TYPE_CHARS = 5000;

const enabled = (config: Readonly<Config>) => config.desktop.hostDisplayAccess && config.desktop.input;

const space = z
  .object({ width: z.number().int().positive(), height: z.number().int().positive() })
  .describe('The coordinate space x and y are in, e.g. the width and height of a whole-desktop screen.capture; it is mapped onto the whole desktop');
const COORDINATES = 'x and y are physical desktop pixels (0,0 = top left), or coordinates in `space` when given. Points outside the desktop are refused.';

const point = z.object({ x: z.number(), y: z.number() });
const button = z.enum(['left', 'right', 'middle']);

export const inputMove = defineTool({
  name: 'input.move',
  title: 'Move the pointer',
  description: `Moves the mouse pointer. ${COORDINATES} Returns the physical point reached.`,
  input: z.object({ x: z.number(), y: z.number(), space: space.optional() }),
  output: point,
  annotations: DESTRUCTIVE,
  enabled,
  target: (args) => ({ x: args.x, y: args.y, space: args.space ?? null }),
  async run(args, { adapter }) {
    const reached = await adapter.desktop.moveMouse({ x: args.x, y: args.y, space: args.space });
    return { structured: reached, text: `Pointer at ${reached.x},${reached.y}.` };
  },
});

export const inputClick = defineTool({
  name: 'input.click',
  title: 'Click',
  description: `Clicks (or double-clicks) a mouse button at x,y, or where the pointer is when both are omitted. ${COORDINATES}`,
  input: z.object({
    x: z.number().optional(),
    y: z.number().optional(),
    space: space.optional(),
    button: button.default('left'),
    double: z.boolean().default(false),
  }),
  output: point.extend({ button, double: z.boolean() }),
  annotations: DESTRUCTIVE,
  enabled,
  target: (args) => ({ x: args.x ?? null, y: args.y ?? null, button: args.button, double: args.double }),
  async run(args, { adapter }) {
    const result = await adapter.desktop.click({ x: args.x, y: args.y, space: args.space, button: args.button, double: args.double });
    return { structured: result, text: `${result.double ? 'Double-clicked' : 'Clicked'} ${result.button} at ${result.x},${result.y}.` };
  },
});

export const inputType = defineTool({
  name: 'input.type',
  title: 'Type text',
  description:
    `Types text into the focused window (at most ${MAX_TYPE_CHARS} characters). Every printable ASCII character is typed as keystrokes; newline ` +
    'presses Enter and tab presses Tab. On Linux (X11), non-ASCII text is pasted through the clipboard (it replaces the clipboard content, and ' +
    'ctrl+v must paste in the target app). Use input.key for shortcuts and other keys.',
  input: z.object({ text: z.string().min(1).max(MAX_TYPE_CHARS) }),
  output: z.object({ typedChars: z.number().int(), pastedChars: z.number().int() }),
  annotations: DESTRUCTIVE,
  enabled,
  // never the text itself: it can be a password
  target: (args) => ({ chars: args.text.length }),
  async run(args, { adapter }) {
    const result = await adapter.desktop.typeText(args.text);
    const pasted = result.pastedChars ? ` (${result.pastedChars} pasted through the clipboard)` : '';
    return { structured: result, text: `Typed ${result.typedChars} characters${pasted}.` };
  },
});

export const inputKey = defineTool({
  name: 'input.key',
  title: 'Press a key combination',
  description:
    'Presses one key, optionally with modifiers, and releases it: e.g. "enter", "ctrl+shift+t", "cmd+space", "alt+f4", "F5" (case-insensitive). ' +
    'Modifiers: ctrl, alt, shift, cmd (also meta/super/win). Keys: a-z, 0-9, f1-f24, enter, tab, space, backspace, delete, escape, ' +
    'home, end, pageup, pagedown, up, down, left, right, insert, punctuation names (minus, comma, slash...) and more; an unknown name lists them all.',
  input: z.object({ keys: z.string().min(1).max(100) }),
  output: z.object({ keys: z.string() }),
  annotations: DESTRUCTIVE,
  enabled,
  target: (args) => ({ keys: args.keys }),
  async run(args, { adapter }) {
    const result = await adapter.desktop.pressKeys(args.keys);
    return { structured: result, text: `Pressed ${result.keys}.` };
  },
});

export const inputTools = [inputMove, inputClick, inputType, inputKey];
