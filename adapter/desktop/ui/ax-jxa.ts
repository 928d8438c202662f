/**
 * macOS accessibility: the AX API through System Events in JXA (`osascript -l JavaScript`),
 * which needs the same Accessibility grant input already needs. One osascript run per snapshot,
 * element lookup or action (AXPress and the others the element offers; "press" names AXPress);
 * the script prints JSON that parseAxOutput turns into NativeNodes. AX coordinates are points;
 * they are converted to physical pixels with the display density.
 *
 * NOT TESTED ON A REAL MAC: the parser is unit-tested on written sample output only.
 */
import { adapterError } from '../../contract/errors.js';
import type { ScreenRect } from '../../contract/geometry.js';
import type { AccessibilityProvider, NativeNode, NativeSnapshot, NativeSnapshotRequest } from './accessibility-provider.js';
import type { NativeWindow, UiState } from '../../contract/ui.js';
import { GENERIC_ROLE } from './ui-tree.js';
import { runJxa } from '../darwin/jxa.js';

const TIMEOUT_MS = 20_000;

/** What the script prints per element: role, name, value, states, bounds in points, children, path of child indexes. */
export interface AxRaw {
  r: string;
  n?: string;
  v?: string | number | boolean | null;
  s?: string[];
  b?: [number, number, number, number] | null;
  c?: AxRaw[];
  /** Children beyond the fetch limit. */
  u?: number;
  p: number[];
}

export interface AxOutput {
  pid: number;
  app: string;
  windows: AxRaw[];
  error?: string;
}

const ROLES: Record<string, string> = {
  AXButton: 'button',
  AXDisclosureTriangle: 'button',
  AXMenuButton: 'button',
  AXTextField: 'textbox',
  AXTextArea: 'textbox',
  AXSearchField: 'searchbox',
  AXSecureTextField: 'password',
  AXStaticText: 'text',
  AXCheckBox: 'checkbox',
  AXRadioButton: 'radio',
  AXSlider: 'slider',
  AXIncrementor: 'spinbutton',
  AXPopUpButton: 'combobox',
  AXComboBox: 'combobox',
  AXMenuBar: 'menubar',
  AXMenuBarItem: 'menuitem',
  AXMenu: 'menu',
  AXMenuItem: 'menuitem',
  AXLink: 'link',
  AXImage: 'image',
  AXToolbar: 'toolbar',
  AXTabGroup: 'tablist',
  AXTable: 'table',
  AXOutline: 'tree',
  AXRow: 'row',
  AXCell: 'cell',
  AXList: 'list',
  AXWindow: 'window',
  AXSheet: 'dialog',
  AXWebArea: 'document',
  AXHeading: 'heading',
  AXProgressIndicator: 'progressbar',
  AXScrollBar: 'scrollbar',
  AXGroup: GENERIC_ROLE,
  AXScrollArea: GENERIC_ROLE,
  AXSplitGroup: GENERIC_ROLE,
  AXLayoutArea: GENERIC_ROLE,
  AXUnknown: GENERIC_ROLE,
};

export function axRole(role: string): string {
  return ROLES[role] ?? role.replace(/^AX/, '').toLowerCase();
}

const STATE_NAMES = new Set<string>(['focused', 'enabled', 'checked', 'mixed', 'selected', 'expanded', 'editable']);

/** Script output -> NativeNodes in physical pixels (`density` pixels per point). Refs carry pid, path and role for re-checking. */
export function parseAxOutput(stdout: string, density: number): { app: string; pid: number; roots: NativeNode[] } {
  const out = JSON.parse(stdout) as AxOutput;
  if (out.error) throw new Error(out.error);
  const convert = (raw: AxRaw): NativeNode => {
    const role = axRole(raw.r);
    const b = raw.b;
    const node: NativeNode = {
      ref: JSON.stringify({ pid: out.pid, path: raw.p, role: raw.r }),
      role,
      name: (raw.n ?? '').trim(),
      states: (raw.s ?? []).filter((s): s is UiState => STATE_NAMES.has(s)),
      bounds: b
        ? { x: Math.round(b[0] * density), y: Math.round(b[1] * density), width: Math.round(b[2] * density), height: Math.round(b[3] * density) }
        : null,
      showing: !b || (b[2] > 0 && b[3] > 0),
      children: (raw.c ?? []).map(convert),
    };
    if (raw.u) node.unfetchedChildren = raw.u;
    if (role !== 'password' && raw.v !== undefined && raw.v !== null && raw.v !== '') node.value = String(raw.v).slice(0, 500);
    return node;
  };
  return { app: out.app, pid: out.pid, roots: out.windows.map(convert) };
}

/** Walks the frontmost process's windows (or one element path, for bounds) and prints JSON. */
export const AX_SCRIPT = String.raw`
function run(argv) {
  var req = JSON.parse(argv[0]);
  var se = Application('System Events');
  var proc = req.pid ? se.processes.whose({ unixId: req.pid })[0] : se.processes.whose({ frontmost: true })[0];
  var out = { pid: proc.unixId(), app: proc.name(), windows: [] };
  var left = req.nodes;
  function attr(el, name) { try { return el.attributes.byName(name).value(); } catch (e) { return undefined; } }
  function node(el, path, depth) {
    left--;
    var n = { r: String(attr(el, 'AXRole') || 'AXUnknown'), p: path, s: [] };
    try { n.n = el.name() || attr(el, 'AXDescription') || attr(el, 'AXTitle') || ''; } catch (e) { n.n = ''; }
    try { var v = el.value(); if (v !== null && typeof v !== 'object') n.v = v; } catch (e) {}
    try { var pos = el.position(), size = el.size(); n.b = [pos[0], pos[1], size[0], size[1]]; } catch (e) { n.b = null; }
    if (attr(el, 'AXFocused')) n.s.push('focused');
    if (attr(el, 'AXEnabled')) n.s.push('enabled');
    if (attr(el, 'AXSelected')) n.s.push('selected');
    if (attr(el, 'AXExpanded')) n.s.push('expanded');
    if (n.r === 'AXCheckBox' || n.r === 'AXRadioButton') { if (n.v === 1) n.s.push('checked'); if (n.v === 2) n.s.push('mixed'); }
    if (req.path) return n;
    var kids = [];
    try { kids = el.uiElements(); } catch (e) {}
    n.c = [];
    for (var i = 0; i < kids.length; i++) {
      if (depth >= req.depth || left <= 0) { n.u = kids.length - i; break; }
      n.c.push(node(kids[i], path.concat([i]), depth + 1));
    }
    return n;
  }
  if (req.path) {
    var el = proc.windows[req.path[0]];
    for (var j = 1; j < req.path.length; j++) el = el.uiElements[req.path[j]];
    if (req.invoke) {
      var names = [];
      try { names = el.actions().map(function (a) { return a.name(); }); } catch (e) {}
      var want = req.action ? (names.indexOf(req.action) >= 0 ? req.action : 'AX' + req.action.charAt(0).toUpperCase() + req.action.slice(1)) : names[0];
      out.role = String(attr(el, 'AXRole') || 'AXUnknown');
      out.actions = names;
      out.done = null;
      if (want && names.indexOf(want) >= 0) {
        try { el.actions.byName(want).perform(); out.done = want; } catch (e) { out.failed = String(e).slice(0, 200); }
      }
      return answer(out);
    }
    out.windows.push(node(el, req.path, 0));
    return answer(out);
  }
  var wins = proc.windows();
  for (var w = 0; w < wins.length && left > 0; w++) {
    out.windows.push(node(wins[w], [w], 0));
    if (req.scope === 'window') break;
  }
  return answer(out);
}`;

function runScript(request: Record<string, unknown>, operation: string): Promise<string> {
  return runJxa(AX_SCRIPT, request, operation, 'reading the accessibility tree', TIMEOUT_MS);
}

export class AxProvider implements AccessibilityProvider {
  constructor(private readonly density: () => Promise<number> = async () => 1) {}

  async snapshot(request: NativeSnapshotRequest, operation: string): Promise<NativeSnapshot> {
    const stdout = await runScript({ scope: request.scope, depth: request.fetchDepth, nodes: request.fetchNodes }, operation);
    const parsed = parseAxOutput(stdout, await this.density());
    const windows: NativeWindow[] = parsed.roots.map((root) => ({
      app: parsed.app,
      name: root.name,
      bounds: root.bounds,
      chosenBy: request.scope === 'display' ? 'display' : 'active',
    }));
    return { windows, roots: parsed.roots, unfetched: 0 };
  }

  async bounds(ref: string, operation: string): Promise<ScreenRect> {
    const { pid, path, role } = JSON.parse(ref) as { pid: number; path: number[]; role: string };
    let parsed;
    try {
      parsed = parseAxOutput(await runScript({ pid, path }, operation), await this.density());
    } catch {
      throw adapterError('NOT_FOUND', operation, 'the element is gone (its window or application closed); take a new ui.snapshot');
    }
    const node = parsed.roots[0];
    if (!node || node.role !== axRole(role)) throw adapterError('NOT_FOUND', operation, 'the element is gone (the window changed); take a new ui.snapshot');
    if (!node.bounds || node.bounds.width <= 0 || node.bounds.height <= 0)
      throw adapterError('NOT_FOUND', operation, 'the element is no longer on screen; take a new ui.snapshot');
    return node.bounds;
  }

  async invoke(ref: string, action: string | undefined, operation: string): Promise<{ done: string | undefined; actions: string[] }> {
    const { pid, path, role } = JSON.parse(ref) as { pid: number; path: number[]; role: string };
    let out: AxInvokeOutput;
    try {
      out = JSON.parse(await runScript({ pid, path, invoke: true, action: action ?? '' }, operation)) as AxInvokeOutput;
    } catch (error) {
      if ((error as { code?: string }).code === 'PRECONDITION_FAILED') throw error;
      throw adapterError('NOT_FOUND', operation, 'the element is gone (its window or application closed); take a new ui.snapshot');
    }
    // The path now leads to another kind of element: the UI changed, and it must not be pressed.
    if (out.role !== role) throw adapterError('NOT_FOUND', operation, 'the element is gone (the window changed); take a new ui.snapshot');
    if (out.failed) throw adapterError('OS_ERROR', operation, `the element's action failed: ${out.failed}`);
    return { done: out.done ?? undefined, actions: out.actions ?? [] };
  }

  close(): void {}
}

interface AxInvokeOutput {
  role: string;
  actions?: string[];
  done?: string | null;
  failed?: string;
}
