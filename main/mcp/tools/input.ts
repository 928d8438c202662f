/**
 * input.*: the pointer and keyboard of the desktop. Points are physical desktop pixels or in a
 * `space` (from screen.capture); click, type and scroll can instead name an element of a
 * ui.snapshot / ui.find, and then act at that element's current bounds.
 */
import * as z from 'zod';
import { adapterError } from '../../../adapter/contract/errors.js';
import type { CoordinateSpace, PointerResult, PointerTarget, Target } from '../../../adapter/contract/desktop.js';
import { defineTool, DESTRUCTIVE, READ_ONLY } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { elementFields, pointerResult, spaceSchema } from './desktop-schemas.js';

export const MAX_TYPE_CHARS = 5000;
export const MAX_WAIT_MS = 30_000;
export const MAX_HOLD_MS = 10_000;
const MAX_DRAG_POINTS = 200;

const COORDINATES =
  'x and y are physical desktop pixels (0,0 = top left of the virtual desktop, see screen.displays), or coordinates in `space` when given ' +
  '(the `space` a screen.capture returned). Points outside are refused.';
const ELEMENT = 'Or give element + snapshotHandle (from ui.snapshot / ui.find) to act at the centre of that element where it is now.';

const button = z.enum(['left', 'right', 'middle']);
const modifier = z.enum(['ctrl', 'alt', 'shift', 'cmd']);
const point = { x: z.number().optional(), y: z.number().optional(), space: spaceSchema.optional() };

interface TargetArgs {
  x?: number;
  y?: number;
  space?: PointerTarget['space'];
  element?: string;
  snapshotHandle?: string;
}

/** A point, an element, or nothing (where the pointer is); both or half of one is a clear error. */
function targetOf(args: TargetArgs, operation: string): Target | undefined {
  const hasPoint = args.x !== undefined || args.y !== undefined;
  const hasElement = args.element !== undefined || args.snapshotHandle !== undefined;
  if (hasPoint && hasElement) throw adapterError('INVALID_INPUT', operation, 'give either x and y or element and snapshotHandle, not both');
  if (hasElement) {
    if (args.element === undefined || args.snapshotHandle === undefined) throw adapterError('INVALID_INPUT', operation, 'give both element and snapshotHandle');
    return { element: args.element, snapshotHandle: args.snapshotHandle };
  }
  if (hasPoint) {
    if (args.x === undefined || args.y === undefined)
      throw adapterError('INVALID_INPUT', operation, 'give both x and y, or neither to act where the pointer is');
    return { x: args.x, y: args.y, space: args.space };
  }
  if (args.space) throw adapterError('INVALID_INPUT', operation, 'space needs x and y');
  return undefined;
}

const at = (r: { x: number; y: number; display: number; element?: { id: string } }) =>
  `${r.x},${r.y} on display ${r.display}${r.element ? ` (element ${r.element.id})` : ''}`;

export const inputMove = defineTool({
  name: 'input.move',
  title: 'Move the pointer',
  description: `Moves the mouse pointer. ${COORDINATES} Returns the physical point reached and its display.`,
  input: z.object({ x: z.number(), y: z.number(), space: spaceSchema.optional() }),
  output: pointerResult,
  annotations: DESTRUCTIVE,
  grant: GRANT.input,
  target: (args) => ({ x: args.x, y: args.y, space: args.space ?? null }),
  async run(args, { adapter }) {
    return movedAnswer(await adapter.desktop.moveMouse(moveTarget(args)));
  },
});

/** input.move's target for its arguments, and its answer once the pointer got there (a batch's moves made together answer the same). */
export function moveTarget(args: { x: number; y: number; space?: CoordinateSpace | undefined }): PointerTarget {
  return { x: args.x, y: args.y, space: args.space };
}
export function movedAnswer(reached: PointerResult): { structured: PointerResult; text: string } {
  return { structured: reached, text: `Pointer at ${at(reached)}.` };
}

export const inputClick = defineTool({
  name: 'input.click',
  title: 'Click',
  description:
    `Clicks a mouse button once, twice (double-click) or three times (triple-click, e.g. to select a line), optionally with modifier keys held, ` +
    `at x,y, or where the pointer is when both are omitted. ${COORDINATES} ${ELEMENT}`,
  input: z.object({
    ...point,
    ...elementFields,
    button: button.default('left'),
    clicks: z
      .union([z.literal(1), z.literal(2), z.literal(3)])
      .optional()
      .describe('1 (default), 2 = double-click, 3 = triple-click'),
    double: z.boolean().optional().describe('Same as clicks: 2 (kept for older callers)'),
    modifiers: z.array(modifier).max(4).default([]).describe('Keys held during the click, e.g. ["ctrl"] or ["shift"]'),
  }),
  output: pointerResult.extend({ button, clicks: z.number().int(), modifiers: z.array(modifier) }),
  annotations: DESTRUCTIVE,
  grant: GRANT.input,
  target: (args) => ({
    x: args.x ?? null,
    y: args.y ?? null,
    element: args.element ?? null,
    button: args.button,
    clicks: args.clicks ?? (args.double ? 2 : 1),
  }),
  async run(args, { adapter }) {
    const clicks = args.clicks ?? (args.double ? 2 : 1);
    const modifiers = [...new Set(args.modifiers)];
    const result = await adapter.desktop.click({ target: targetOf(args, 'input.click'), button: args.button, clicks, modifiers });
    const what = ['Clicked', 'Double-clicked', 'Triple-clicked'][result.clicks - 1];
    const held = result.modifiers.length ? ` with ${result.modifiers.join('+')}` : '';
    return { structured: result, text: `${what} ${result.button}${held} at ${at(result)}.` };
  },
});

export const inputScroll = defineTool({
  name: 'input.scroll',
  title: 'Scroll',
  description:
    'Scrolls with the mouse wheel at x,y (the pointer moves there first) or where the pointer is. dy > 0 scrolls down, dx > 0 right. unit: ' +
    '"clicks" (wheel clicks, the default; most apps move 3 lines, browsers about 120 px per click), "lines" (3 per click) or "pixels" (120 per ' +
    `click); amounts are rounded to whole wheel clicks, at most 200 per axis. ${COORDINATES} ${ELEMENT}`,
  input: z.object({
    ...point,
    ...elementFields,
    dx: z.number().min(-20_000).max(20_000).default(0),
    dy: z.number().min(-20_000).max(20_000).default(0),
    unit: z.enum(['clicks', 'lines', 'pixels']).default('clicks'),
  }),
  output: pointerResult.extend({ clicks: z.object({ x: z.number().int(), y: z.number().int() }).describe('Wheel clicks sent (positive: right / down)') }),
  annotations: DESTRUCTIVE,
  grant: GRANT.input,
  target: (args) => ({ x: args.x ?? null, y: args.y ?? null, element: args.element ?? null, dx: args.dx, dy: args.dy, unit: args.unit }),
  async run(args, { adapter }) {
    const result = await adapter.desktop.scroll({ target: targetOf(args, 'input.scroll'), dx: args.dx, dy: args.dy, unit: args.unit });
    return { structured: result, text: `Scrolled ${result.clicks.y} click(s) down, ${result.clicks.x} right at ${at(result)}.` };
  },
});

export const inputDrag = defineTool({
  name: 'input.drag',
  title: 'Drag',
  description:
    'Presses a mouse button at the first point of `path`, moves through every point (in small steps, so apps see the motion) and releases at ' +
    `the last: drag a slider, select text, move a window. At least 2 and at most ${MAX_DRAG_POINTS} points, all in the same \`space\` when given. ${COORDINATES}`,
  input: z.object({
    path: z
      .array(z.object({ x: z.number(), y: z.number() }))
      .min(2)
      .max(MAX_DRAG_POINTS),
    space: spaceSchema.optional(),
    button: button.default('left'),
    stepDelayMs: z.number().int().min(0).max(1000).default(8).describe('Pause between moves (all pauses of one drag together at most 10 s)'),
  }),
  output: z.object({
    button,
    path: z.array(z.object({ x: z.number().int(), y: z.number().int() })).describe('The physical points passed through'),
    start: pointerResult,
    end: pointerResult,
  }),
  annotations: DESTRUCTIVE,
  grant: GRANT.input,
  target: (args) => ({ points: args.path.length, button: args.button }),
  async run(args, { adapter }) {
    const path = args.path.map((p) => ({ x: p.x, y: p.y, space: args.space }));
    const result = await adapter.desktop.drag({ path, button: args.button, stepDelayMs: args.stepDelayMs });
    return { structured: result, text: `Dragged ${result.button} from ${at(result.start)} to ${at(result.end)} through ${result.path.length} points.` };
  },
});

const buttonTool = (action: 'down' | 'up') =>
  defineTool({
    name: `input.${action}`,
    title: action === 'down' ? 'Press a mouse button' : 'Release a mouse button',
    description:
      `${action === 'down' ? 'Presses and holds' : 'Releases'} a mouse button at x,y (moving there first) or where the pointer is. ` +
      `Pair input.down with input.up (input.drag does both in one call). ${COORDINATES}`,
    input: z.object({ ...point, button: button.default('left') }),
    output: pointerResult.extend({ action: z.enum(['down', 'up']), button }),
    annotations: DESTRUCTIVE,
    grant: GRANT.input,
    target: (args) => ({ x: args.x ?? null, y: args.y ?? null, button: args.button }),
    async run(args, { adapter }) {
      const target = targetOf(args, `input.${action}`) as PointerTarget | undefined;
      const result = await adapter.desktop.mouseButton({ action, target, button: args.button });
      return { structured: result, text: `${action === 'down' ? 'Pressed' : 'Released'} ${result.button} at ${at(result)}.` };
    },
  });

export const inputDown = buttonTool('down');
export const inputUp = buttonTool('up');

export const inputType = defineTool({
  name: 'input.type',
  title: 'Type text',
  description:
    `Types text into the focused window (at most ${MAX_TYPE_CHARS} characters), or into an element (element + snapshotHandle: it is clicked first ` +
    'to focus it). Every printable ASCII character is typed as keystrokes; newline presses Enter and tab presses Tab. On Linux (X11), non-ASCII ' +
    'text is pasted through the clipboard, one paste per line from its first non-ASCII character to its last (it replaces the clipboard content, and ctrl+v must paste in the target app: if the app does not read it, the call fails saying how much was typed). Use input.key for shortcuts.',
  input: z.object({ text: z.string().min(1).max(MAX_TYPE_CHARS), ...elementFields }),
  output: z.object({
    typedChars: z.number().int(),
    pastedChars: z.number().int(),
    element: pointerResult.shape.element,
  }),
  annotations: DESTRUCTIVE,
  grant: GRANT.input,
  // never the text itself: it can be a password
  target: (args) => ({ chars: args.text.length, element: args.element ?? null }),
  async run(args, { adapter }) {
    const target = targetOf(args, 'input.type') as { element: string; snapshotHandle: string } | undefined;
    const result = await adapter.desktop.typeText(args.text, { target });
    const pasted = result.pastedChars ? ` (${result.pastedChars} pasted through the clipboard)` : '';
    const into = result.element ? ` into element ${result.element.id}` : '';
    return { structured: result, text: `Typed ${result.typedChars} characters${pasted}${into}.` };
  },
});

export const inputKey = defineTool({
  name: 'input.key',
  title: 'Press a key combination',
  description:
    'Presses one key, optionally with modifiers, and releases it: e.g. "enter", "ctrl+shift+t", "cmd+space", "alt+f4", "F5" (case-insensitive). ' +
    `holdMs keeps it pressed that long first (up to ${MAX_HOLD_MS} ms; the OS repeats a held key). ` +
    'Modifiers: ctrl, alt, shift, cmd (also meta/super/win). Keys: a-z, 0-9, f1-f24, enter, tab, space, backspace, delete, escape, ' +
    'home, end, pageup, pagedown, up, down, left, right, insert, punctuation names (minus, comma, slash...) and more; an unknown name lists them all.',
  input: z.object({ keys: z.string().min(1).max(100), holdMs: z.number().int().min(0).max(MAX_HOLD_MS).default(0) }),
  output: z.object({ keys: z.string(), heldMs: z.number().int() }),
  annotations: DESTRUCTIVE,
  grant: GRANT.input,
  target: (args) => ({ keys: args.keys, holdMs: args.holdMs }),
  async run(args, { adapter }) {
    const result = await adapter.desktop.pressKeys(args.keys, { holdMs: args.holdMs });
    return { structured: result, text: `Pressed ${result.keys}${result.heldMs ? ` for ${result.heldMs} ms` : ''}.` };
  },
});

export const inputWait = defineTool({
  name: 'input.wait',
  title: 'Wait',
  description: `Waits ms milliseconds (at most ${MAX_WAIT_MS}) so the UI can settle after an action, without a shell. Touches nothing.`,
  input: z.object({ ms: z.number().int().min(0).max(MAX_WAIT_MS) }),
  output: z.object({ waitedMs: z.number().int() }),
  annotations: READ_ONLY,
  grant: GRANT.input,
  target: (args) => ({ ms: args.ms }),
  async run(args, { adapter }, signal) {
    const result = await adapter.desktop.wait(args.ms, signal);
    return { structured: result, text: `Waited ${result.waitedMs} ms.` };
  },
});

export const inputCursor = defineTool({
  name: 'input.cursor',
  title: 'Where the pointer is',
  description: 'Returns the mouse pointer position in physical desktop pixels and the display it is on.',
  input: z.object({}),
  output: pointerResult,
  annotations: READ_ONLY,
  grant: GRANT.input,
  async run(_args, { adapter }) {
    const result = await adapter.desktop.cursor();
    return { structured: result, text: `Pointer at ${at(result)}.` };
  },
});

export const inputTools = [inputMove, inputClick, inputScroll, inputDrag, inputDown, inputUp, inputType, inputKey, inputWait, inputCursor];
