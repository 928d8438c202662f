/**
 * Windows accessibility: UI Automation (System.Windows.Automation) through one PowerShell run
 * per snapshot, element lookup or action. The script walks the control view of the foreground
 * window (or every top-level window on a display) and prints JSON that parseUiaOutput turns
 * into NativeNodes. UIA reports physical pixels for a DPI-aware caller. An element's action is
 * its control pattern's: Invoke, Toggle, SelectionItem.Select, ExpandCollapse.Expand/Collapse
 * (named invoke, toggle, select, expand, collapse), so the pointer never moves.
 *
 * Tested on Windows only on the workflow's runner (test/adapter/desktop/ui/uia-powershell.test.ts:
 * a Windows Forms button pressed and a check box ticked); here, the parser on written samples.
 */
import { adapterError } from '../../contract/errors.js';
import type { ScreenRect } from '../../contract/geometry.js';
import type { AccessibilityProvider, NativeNode, NativeSnapshot, NativeSnapshotRequest } from './accessibility-provider.js';
import type { NativeWindow, UiState } from '../../contract/ui.js';
import { GENERIC_ROLE } from './ui-tree.js';
import { runPowerShell } from '../../os/powershell-session.js';

const TIMEOUT_MS = 30_000;

export interface UiaRaw {
  /** ControlType.ProgrammaticName, e.g. "ControlType.Button". */
  t: string;
  n?: string;
  v?: string | null;
  s?: string[];
  /** Left, top, width, height; null for an empty rectangle. */
  b?: [number, number, number, number] | null;
  off?: boolean;
  /** RuntimeId joined with dots. */
  id: string;
  c?: UiaRaw[];
  u?: number;
}

export interface UiaOutput {
  windows: Array<{ hwnd: number; app: string; active: boolean; root: UiaRaw }>;
  error?: string;
}

const ROLES: Record<string, string> = {
  Button: 'button',
  SplitButton: 'button',
  Edit: 'textbox',
  Document: 'document',
  Text: 'text',
  CheckBox: 'checkbox',
  RadioButton: 'radio',
  Slider: 'slider',
  Spinner: 'spinbutton',
  ComboBox: 'combobox',
  Hyperlink: 'link',
  Image: 'image',
  List: 'list',
  ListItem: 'listitem',
  Menu: 'menu',
  MenuBar: 'menubar',
  MenuItem: 'menuitem',
  ProgressBar: 'progressbar',
  ScrollBar: 'scrollbar',
  StatusBar: 'status',
  Tab: 'tablist',
  TabItem: 'tab',
  Table: 'table',
  DataGrid: 'table',
  DataItem: 'row',
  Tree: 'tree',
  TreeItem: 'treeitem',
  ToolBar: 'toolbar',
  ToolTip: 'tooltip',
  Window: 'window',
  Header: 'row',
  HeaderItem: 'columnheader',
  TitleBar: 'titlebar',
  Group: 'group',
  Pane: GENERIC_ROLE,
  Custom: GENERIC_ROLE,
  Thumb: 'thumb',
  Separator: 'separator',
};

export function uiaRole(controlType: string): string {
  const name = controlType.replace(/^ControlType\./, '');
  return ROLES[name] ?? name.toLowerCase();
}

const STATE_NAMES = new Set<string>(['focused', 'focusable', 'enabled', 'checked', 'mixed', 'selected', 'expanded', 'collapsed', 'readonly', 'password']);

export function parseUiaOutput(stdout: string): { windows: NativeWindow[]; roots: NativeNode[]; actives: boolean[] } {
  const out = JSON.parse(stdout) as UiaOutput;
  if (out.error) throw new Error(out.error);
  const list = Array.isArray(out.windows) ? out.windows : [out.windows];
  const roots: NativeNode[] = [];
  const windows: NativeWindow[] = [];
  for (const w of list) {
    const convert = (raw: UiaRaw): NativeNode => {
      const password = raw.s?.includes('password') ?? false;
      const role = password ? 'password' : uiaRole(raw.t);
      const b = raw.b;
      const node: NativeNode = {
        ref: JSON.stringify({ hwnd: w.hwnd, id: raw.id }),
        role,
        name: (raw.n ?? '').trim(),
        states: (raw.s ?? []).filter((s): s is UiState => STATE_NAMES.has(s) && s !== 'password'),
        bounds: b ? { x: Math.round(b[0]), y: Math.round(b[1]), width: Math.round(b[2]), height: Math.round(b[3]) } : null,
        showing: raw.off !== true,
        children: (Array.isArray(raw.c) ? raw.c : raw.c ? [raw.c] : []).map(convert),
      };
      if (raw.u) node.unfetchedChildren = raw.u;
      if (!password && typeof raw.v === 'string' && raw.v !== '') node.value = raw.v.slice(0, 500);
      return node;
    };
    const root = convert(w.root);
    roots.push(root);
    windows.push({ app: w.app, name: root.name, bounds: root.bounds, chosenBy: w.active ? 'active' : 'display' });
  }
  return { windows, roots, actives: list.map((w) => w.active) };
}

/** $req: scope, depth, nodes, display rect (x,y,w,h) or hwnd+id for one element's bounds. */
export const UIA_SCRIPT = String.raw`
$ErrorActionPreference = 'Stop'
Add-Type -AssemblyName 'UIAutomationClient', 'UIAutomationTypes'
Add-Type -Namespace U -Name W -MemberDefinition '[DllImport("user32.dll")] public static extern IntPtr GetForegroundWindow(); [DllImport("user32.dll")] public static extern bool SetProcessDPIAware();'
[void][U.W]::SetProcessDPIAware()
$req = $env:CHATGPT_MCP_UIA_REQUEST | ConvertFrom-Json
$A = [System.Windows.Automation.AutomationElement]
$walker = [System.Windows.Automation.TreeWalker]::ControlViewWalker
$script:left = [int]$req.nodes
function Node($el, $depth) {
  $script:left--
  $c = $el.Current
  $n = @{ t = $c.ControlType.ProgrammaticName; n = $c.Name; id = ($el.GetRuntimeId() -join '.'); off = $c.IsOffscreen; s = @() }
  $r = $c.BoundingRectangle
  if ($r.IsEmpty) { $n.b = $null } else { $n.b = @($r.Left, $r.Top, $r.Width, $r.Height) }
  if ($c.HasKeyboardFocus) { $n.s += 'focused' }
  if ($c.IsKeyboardFocusable) { $n.s += 'focusable' }
  if ($c.IsEnabled) { $n.s += 'enabled' }
  if ($c.IsPassword) { $n.s += 'password' }
  $p = $null
  if (-not $c.IsPassword -and $el.TryGetCurrentPattern([System.Windows.Automation.ValuePattern]::Pattern, [ref]$p)) { $n.v = $p.Current.Value; if ($p.Current.IsReadOnly) { $n.s += 'readonly' } }
  if ($el.TryGetCurrentPattern([System.Windows.Automation.TogglePattern]::Pattern, [ref]$p)) { if ($p.Current.ToggleState -eq 'On') { $n.s += 'checked' } elseif ($p.Current.ToggleState -eq 'Indeterminate') { $n.s += 'mixed' } }
  if ($el.TryGetCurrentPattern([System.Windows.Automation.SelectionItemPattern]::Pattern, [ref]$p)) { if ($p.Current.IsSelected) { $n.s += 'selected' } }
  if ($el.TryGetCurrentPattern([System.Windows.Automation.ExpandCollapsePattern]::Pattern, [ref]$p)) { if ($p.Current.ExpandCollapseState -eq 'Expanded') { $n.s += 'expanded' } elseif ($p.Current.ExpandCollapseState -eq 'Collapsed') { $n.s += 'collapsed' } }
  if ($req.id) { return $n }
  $kids = @()
  $child = $walker.GetFirstChild($el)
  $skipped = 0
  while ($child -ne $null) {
    if ($depth -ge $req.depth -or $script:left -le 0) { $skipped++ } else { $kids += ,(Node $child ($depth + 1)) }
    $child = $walker.GetNextSibling($child)
  }
  $n.c = $kids
  if ($skipped) { $n.u = $skipped }
  return $n
}
function Find() {
  try { $top = $A::FromHandle([IntPtr][long]$req.hwnd) } catch { throw 'element not found' } # the window is gone
  $ids = [int[]]($req.id -split '\.')
  $cond = New-Object System.Windows.Automation.PropertyCondition($A::RuntimeIdProperty, $ids)
  $el = $top.FindFirst([System.Windows.Automation.TreeScope]::Subtree, $cond)
  if ($el -eq $null) { throw 'element not found' }
  return $el
}
$AP = @{ invoke = [System.Windows.Automation.InvokePattern]::Pattern; toggle = [System.Windows.Automation.TogglePattern]::Pattern; select = [System.Windows.Automation.SelectionItemPattern]::Pattern; expand = [System.Windows.Automation.ExpandCollapsePattern]::Pattern; collapse = [System.Windows.Automation.ExpandCollapsePattern]::Pattern }
if ($req.invoke) {
  $el = Find
  $acts = @()
  $p = $null
  foreach ($name in 'invoke', 'toggle', 'select') { if ($el.TryGetCurrentPattern($AP[$name], [ref]$p)) { $acts += $name } }
  if ($el.TryGetCurrentPattern($AP.expand, [ref]$p)) { if ($p.Current.ExpandCollapseState -eq 'Expanded') { $acts += 'collapse' } else { $acts += 'expand' } }
  $want = if ($req.action) { $req.action } elseif ($acts.Count) { $acts[0] } else { '' }
  $done = $null
  if ($want -and ($acts -contains $want)) {
    $pattern = $el.GetCurrentPattern($AP[$want])
    switch ($want) { 'invoke' { $pattern.Invoke() } 'toggle' { $pattern.Toggle() } 'select' { $pattern.Select() } 'expand' { $pattern.Expand() } 'collapse' { $pattern.Collapse() } }
    $done = $want
  }
  ConvertTo-AsciiJson @{ done = $done; actions = $acts }
  return
}
$fg = [U.W]::GetForegroundWindow()
$wins = @()
if ($req.id) {
  $wins += @{ hwnd = [long]$req.hwnd; app = ''; active = $false; root = (Node (Find) 0) }
} elseif ($req.scope -eq 'window') {
  $el = $A::FromHandle($fg)
  $wins += @{ hwnd = [long]$fg; app = (Get-Process -Id $el.Current.ProcessId).ProcessName; active = $true; root = (Node $el 0) }
} else {
  foreach ($el in $A::RootElement.FindAll([System.Windows.Automation.TreeScope]::Children, [System.Windows.Automation.Condition]::TrueCondition)) {
    $r = $el.Current.BoundingRectangle
    if ($r.IsEmpty -or $r.Right -le $req.x -or $r.Left -ge ($req.x + $req.w) -or $r.Bottom -le $req.y -or $r.Top -ge ($req.y + $req.h)) { continue }
    if ($script:left -le 0) { break }
    $h = [long]$el.Current.NativeWindowHandle
    $wins += @{ hwnd = $h; app = (Get-Process -Id $el.Current.ProcessId).ProcessName; active = ($h -eq [long]$fg); root = (Node $el 0) }
  }
}
ConvertTo-AsciiJson @{ windows = $wins } 100
`;

function runScript(request: Record<string, unknown>, operation: string): Promise<string> {
  return runPowerShell(
    UIA_SCRIPT,
    { vars: { CHATGPT_MCP_UIA_REQUEST: JSON.stringify(request) }, timeoutMs: TIMEOUT_MS },
    operation,
    'reading the accessibility tree',
  );
}

export class UiaProvider implements AccessibilityProvider {
  async snapshot(request: NativeSnapshotRequest, operation: string): Promise<NativeSnapshot> {
    const r = request.displayRect;
    const stdout = await runScript(
      { scope: request.scope, depth: request.fetchDepth, nodes: request.fetchNodes, ...(r ? { x: r.x, y: r.y, w: r.width, h: r.height } : {}) },
      operation,
    );
    const parsed = parseUiaOutput(stdout);
    return { windows: parsed.windows, roots: parsed.roots, unfetched: 0 };
  }

  async bounds(ref: string, operation: string): Promise<ScreenRect> {
    const { hwnd, id } = JSON.parse(ref) as { hwnd: number; id: string };
    let parsed;
    try {
      parsed = parseUiaOutput(await runScript({ hwnd, id }, operation));
    } catch {
      throw adapterError('NOT_FOUND', operation, 'the element is gone (its window closed or the UI changed); take a new ui.snapshot');
    }
    const node = parsed.roots[0];
    if (!node || !node.showing || !node.bounds || node.bounds.width <= 0 || node.bounds.height <= 0) {
      throw adapterError('NOT_FOUND', operation, 'the element is no longer on screen; take a new ui.snapshot');
    }
    return node.bounds;
  }

  async invoke(ref: string, action: string | undefined, operation: string): Promise<{ done: string | undefined; actions: string[] }> {
    const { hwnd, id } = JSON.parse(ref) as { hwnd: number; id: string };
    let stdout: string;
    try {
      stdout = await runScript({ hwnd, id, invoke: true, action: action ?? '' }, operation);
    } catch (error) {
      if (/element not found/.test((error as Error).message))
        throw adapterError('NOT_FOUND', operation, 'the element is gone (its window closed or the UI changed); take a new ui.snapshot');
      throw error;
    }
    return parseUiaInvoke(stdout);
  }

  close(): void {}
}

/** The invoke run's answer: the pattern used (null when none matched) and the ones the element offers. */
export function parseUiaInvoke(stdout: string): { done: string | undefined; actions: string[] } {
  const out = JSON.parse(stdout) as { done?: string | null; actions?: string[] | string | null };
  const actions = Array.isArray(out.actions) ? out.actions : out.actions ? [out.actions] : [];
  return { done: out.done ?? undefined, actions };
}
