/**
 * ui.snapshot and ui.find: the accessibility tree of the focused window (or of a display) with
 * element ids, so a model can act on elements instead of guessing pixels. Read-only, under the
 * screen grant; acting on an element is input.* or ui.invoke under the input grant.
 */
import * as z from 'zod';
import type { UiElement } from '../../../adapter/contract/ui.js';
import { defineTool, DESTRUCTIVE, READ_ONLY } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { bounds } from './desktop-schemas.js';

export const DEFAULT_MAX_NODES = 300;
const MAX_NODES = 2000;

const states = z
  .array(z.string())
  .describe('Present states: focused, focusable, enabled, checked, mixed, selected, expanded, collapsed, pressed, editable, readonly, ...');

const flatElement = z.object({
  id: z.string(),
  role: z.string(),
  name: z.string(),
  value: z.string().optional(),
  states,
  bounds: bounds.nullable().describe('Physical desktop pixels'),
});

const element = flatElement.extend({
  get children(): z.ZodOptional<z.ZodArray<typeof element>> {
    return z.array(element).optional();
  },
});

const windowInfo = z.object({
  app: z.string(),
  name: z.string(),
  bounds: bounds.nullable(),
  chosenBy: z.enum(['active', 'pointer', 'largest', 'display']).describe('active: the OS focus; pointer/largest: no window was active'),
});

const scope = {
  scope: z.enum(['window', 'display']).default('window').describe('window: the focused window; display: every window on a display'),
  display: z.number().int().min(0).optional().describe('With scope "display": its index (default 0)'),
};

const HANDLE_NOTE =
  'Act on an element with input.click / input.type / input.scroll {element: "<id>", snapshotHandle}: they use its bounds at that moment and fail if it is gone.';

export const uiSnapshot = defineTool({
  name: 'ui.snapshot',
  title: 'Read the accessibility tree',
  description:
    'Returns the UI of the focused window (or of every window on a display) as a tree of elements: role, name, value, states and bounds in ' +
    'physical desktop pixels, each with an id. Hidden elements and nameless layout containers are left out; maxDepth and maxNodes bound the ' +
    `tree (truncated says how many were cut); text keeps only elements whose role, name or value contains it, with their ancestors. ${HANDLE_NOTE}`,
  input: z.object({
    ...scope,
    maxDepth: z.number().int().min(1).max(100).default(30),
    maxNodes: z.number().int().min(1).max(MAX_NODES).default(DEFAULT_MAX_NODES),
    text: z.string().min(1).max(200).optional(),
  }),
  output: z.object({
    snapshotHandle: z.string(),
    scope: z.enum(['window', 'display']),
    windows: z.array(windowInfo),
    elements: z.array(element),
    nodeCount: z.number().int(),
    truncated: z.object({ byDepth: z.number().int(), byCount: z.number().int() }),
    filteredOut: z.number().int(),
    hint: z.string().optional(),
  }),
  payload: ['elements'],
  annotations: READ_ONLY,
  grant: GRANT.screen,
  target: (args) => ({ scope: args.scope, display: args.display ?? null, filtered: args.text !== undefined }),
  async run(args, { adapter }) {
    const snapshot = await adapter.desktop.uiSnapshot({
      scope: args.scope,
      display: args.display,
      maxDepth: args.maxDepth,
      maxNodes: args.maxNodes,
      text: args.text,
    });
    const cut = snapshot.truncated.byDepth + snapshot.truncated.byCount;
    const head =
      `${snapshot.nodeCount} elements of ${snapshot.windows.map((w) => `"${w.name}" (${w.app}, ${w.chosenBy})`).join(', ') || 'no window'}; ` +
      `snapshotHandle ${snapshot.snapshotHandle}` +
      (cut ? `; cut: ${snapshot.truncated.byDepth} by depth, ${snapshot.truncated.byCount} by count` : '') +
      (snapshot.hint ? `. ${snapshot.hint}` : '');
    return { structured: snapshot, text: [head, ...outline(snapshot.elements)].join('\n') };
  },
});

export const uiFind = defineTool({
  name: 'ui.find',
  title: 'Find UI elements',
  description:
    'Finds elements of the focused window (or of a display) by role (exact, e.g. "button", "textbox", "checkbox", "link", "slider") and/or name ' +
    `(case-insensitive substring), and returns them with ids and bounds under a new snapshotHandle. ${HANDLE_NOTE}`,
  input: z.object({
    role: z.string().min(1).max(64).optional(),
    name: z.string().min(1).max(200).optional(),
    ...scope,
    maxResults: z.number().int().min(1).max(200).default(20),
  }),
  output: z.object({
    snapshotHandle: z.string(),
    windows: z.array(windowInfo),
    matches: z.array(flatElement),
    truncated: z.boolean(),
    searched: z.number().int(),
    hint: z.string().optional(),
  }),
  payload: ['matches'],
  annotations: READ_ONLY,
  grant: GRANT.screen,
  target: (args) => ({ role: args.role ?? null, scope: args.scope }),
  async run(args, { adapter }) {
    const found = await adapter.desktop.uiFind({ role: args.role, name: args.name, scope: args.scope, display: args.display, maxResults: args.maxResults });
    const head = `${found.matches.length} match(es)${found.truncated ? ' (more exist)' : ''} among ${found.searched} elements; snapshotHandle ${found.snapshotHandle}${found.hint ? `. ${found.hint}` : ''}`;
    return { structured: found, text: [head, ...outline(found.matches)].join('\n') };
  },
});

export const uiInvoke = defineTool({
  name: 'ui.invoke',
  title: 'Invoke a UI element',
  description:
    'Presses, toggles or activates an element from ui.snapshot / ui.find through the accessibility API (AT-SPI actions on Linux), so the ' +
    'owner\'s pointer and focus stay where they are. action names one of the element\'s actions ("press", "click", "toggle", "activate"...); ' +
    'omitted, its default one. An element without such an action is refused, or clicked at its centre when allowClick is true (that moves the pointer).',
  input: z.object({
    element: z.string().min(1).max(32).describe('An element id from ui.snapshot / ui.find'),
    snapshotHandle: z.string().min(1).max(64),
    action: z.string().min(1).max(64).optional(),
    allowClick: z.boolean().default(false).describe('Fall back to a pointer click when the element has no such action'),
  }),
  output: z.object({
    element: z.object({ id: z.string(), bounds: bounds.nullable() }),
    method: z.enum(['action', 'click']).describe('action: the accessibility API ran it, the pointer did not move; click: it was clicked'),
    action: z.string(),
    actions: z.array(z.string()).describe('The actions the element offers'),
  }),
  annotations: DESTRUCTIVE,
  grant: GRANT.input,
  target: (args) => ({ element: args.element, action: args.action ?? null, allowClick: args.allowClick }),
  async run(args, { adapter }) {
    const result = await adapter.desktop.uiInvoke({
      target: { element: args.element, snapshotHandle: args.snapshotHandle },
      action: args.action,
      allowClick: args.allowClick,
    });
    const how = result.method === 'action' ? `ran its "${result.action}" action (the pointer did not move)` : 'clicked it (it has no such action)';
    return { structured: result, text: `Element ${result.element.id}: ${how}.` };
  },
});

/** One line per element, indented by depth: what a model reads when a host shows only text. */
function outline(elements: UiElement[], depth = 0): string[] {
  return elements.flatMap((e) => {
    const b = e.bounds ? ` [${e.bounds.x},${e.bounds.y} ${e.bounds.width}x${e.bounds.height}]` : '';
    const value = e.value !== undefined ? ` = ${JSON.stringify(e.value)}` : '';
    const flags = e.states.filter((s) => s !== 'enabled' && s !== 'focusable');
    const line = `${'  '.repeat(depth)}${e.id} ${e.role} ${JSON.stringify(e.name)}${value}${b}${flags.length ? ` (${flags.join(', ')})` : ''}`;
    return [line, ...outline(e.children ?? [], depth + 1)];
  });
}

export const uiTools = [uiSnapshot, uiFind, uiInvoke];
