/**
 * The macOS provider: its parser on a written sample of its script's output; on macOS (the
 * workflow's runner, when it grants Accessibility access) the real script pressing a real button.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test, vi } from 'vitest';
import { AxWindows } from '../../../../adapter/desktop/darwin/ax-windows.js';
import type { NativeNode } from '../../../../adapter/desktop/ui/accessibility-provider.js';
import { AX_SCRIPT, AxProvider, axRole, parseAxOutput } from '../../../../adapter/desktop/ui/ax-jxa.js';
import { jxaDefinesRun } from '../../../helpers/jxa-script.js';
import { runInMacWorld, type MacElement, type MacWorld } from '../../../helpers/jxa-world.js';
import { useMacWindow } from '../../../helpers/mac-window.js';
import { shapeTree } from '../../../../adapter/desktop/ui/ui-tree.js';

const sample = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/ax-sample.json'), 'utf8');

test('the AX script parses as JXA and defines run', () => {
  expect(jxaDefinesRun(AX_SCRIPT)).toBe(true);
});

describe('parseAxOutput', () => {
  test('roles, names, values, states and bounds in physical pixels (2x density)', () => {
    const parsed = parseAxOutput(sample, 2);
    expect(parsed).toMatchObject({ app: 'TextEdit', pid: 4242 });
    const window = parsed.roots[0]!;
    expect(window).toMatchObject({ role: 'window', name: 'Untitled', states: ['focused', 'enabled'], bounds: { x: 200, y: 100, width: 1200, height: 800 } });
    expect(window.unfetchedChildren).toBe(2);
    const [toolbar, scroll, password, hidden] = window.children;
    expect(toolbar!.children.map((c) => [c.role, c.name, c.value, c.states])).toEqual([
      ['button', 'Bold', undefined, ['enabled']],
      ['checkbox', 'Wrap', '1', ['enabled', 'checked']],
      ['combobox', 'Font', 'Helvetica', ['enabled']],
    ]);
    expect(scroll!.children[0]).toMatchObject({ role: 'textbox', value: 'Dear reader', states: ['focused', 'enabled'] });
    // a secure text field never reports its value
    expect(password).toMatchObject({ role: 'password', name: 'Password' });
    expect(password!.value).toBeUndefined();
    expect(hidden!.showing).toBe(false);
    expect(JSON.parse(toolbar!.children[0]!.ref)).toEqual({ pid: 4242, path: [0, 0, 0], role: 'AXButton' });
  });

  test('shaped like every provider: groups flattened, hidden dropped, unfetched counted', () => {
    const { roots } = parseAxOutput(sample, 1);
    const shaped = shapeTree(roots, { maxDepth: 10, maxNodes: 100 });
    expect(shaped.roots[0]!.children.map((c) => c.role)).toEqual(['button', 'checkbox', 'combobox', 'textbox', 'password']);
    expect(shaped.byCount).toBe(2);
  });

  test('an error reported by the script is thrown; unknown AX roles keep a readable name', () => {
    expect(() => parseAxOutput(JSON.stringify({ pid: 1, app: 'x', windows: [], error: 'no window' }), 1)).toThrow('no window');
    expect(axRole('AXColorWell')).toBe('colorwell');
    expect(axRole('AXGroup')).toBe('generic');
  });
});

describe("the AX script's own logic, against a stand-in for System Events", () => {
  const el = (role: string, name: string, more: Partial<MacElement> = {}): MacElement => ({
    name,
    attributes: { AXRole: role, AXEnabled: true, ...more.attributes },
    position: [110, 60],
    size: [40, 20],
    ...more,
  });
  const world = (): MacWorld => ({
    frontPid: 10,
    cg: [],
    log: [],
    processes: [
      {
        pid: 10,
        name: 'TextEdit',
        windows: [
          el('AXWindow', 'Untitled', {
            position: [100, 50],
            size: [600, 400],
            attributes: { AXRole: 'AXWindow', AXFocused: true },
            children: [
              el('AXToolbar', '', {
                children: [el('AXButton', 'Bold', { actions: ['AXPress', 'AXShowMenu'] }), el('AXCheckBox', 'Wrap', { value: 1, actions: ['AXPress'] })],
              }),
              el('AXTextArea', 'Body', { value: 'Dear reader', attributes: { AXRole: 'AXTextArea', AXFocused: true } }),
              el('AXGroup', 'Off screen', { position: undefined, size: undefined }),
            ],
          }),
          el('AXWindow', 'Other'),
        ],
      },
      { pid: 20, name: 'Preview', windows: [el('AXWindow', 'Doc')] },
    ],
  });
  const snapshot = (request: Record<string, unknown>, w = world()) => parseAxOutput(runInMacWorld(AX_SCRIPT, request, w), 2);

  test("walks the front app's window: roles, names, values, states, bounds, paths", () => {
    const { app, pid, roots } = snapshot({ scope: 'window', depth: 10, nodes: 100 });
    expect([app, pid, roots.length]).toEqual(['TextEdit', 10, 1]);
    const [toolbar, body, offscreen] = roots[0]!.children;
    expect(roots[0]).toMatchObject({ role: 'window', name: 'Untitled', states: ['focused'], bounds: { x: 200, y: 100, width: 1200, height: 800 } });
    expect(toolbar!.children.map((c) => [c.role, c.name, c.value, c.states, JSON.parse(c.ref)])).toEqual([
      ['button', 'Bold', undefined, ['enabled'], { pid: 10, path: [0, 0, 0], role: 'AXButton' }],
      ['checkbox', 'Wrap', '1', ['enabled', 'checked'], { pid: 10, path: [0, 0, 1], role: 'AXCheckBox' }],
    ]);
    expect(body).toMatchObject({ role: 'textbox', value: 'Dear reader', states: ['focused'] });
    expect(offscreen).toMatchObject({ name: 'Off screen', bounds: null });
    expect(snapshot({ scope: 'display', depth: 10, nodes: 100 }).roots.map((r) => r.name)).toEqual(['Untitled', 'Other']);
  });

  test('stops at its node budget and depth, counting what it left', () => {
    const few = snapshot({ scope: 'window', depth: 10, nodes: 3 }).roots[0]!;
    expect([few.unfetchedChildren, few.children.map((c) => c.unfetchedChildren)]).toEqual([2, [1]]);
    const shallow = snapshot({ scope: 'window', depth: 1, nodes: 100 }).roots[0]!;
    expect(shallow.children.map((c) => [c.name, c.children.length, c.unfetchedChildren])).toEqual([
      ['', 0, 2],
      ['Body', 0, undefined],
      ['Off screen', 0, undefined],
    ]);
  });

  test('finds one element by its app and path, and runs its action by AX name or short name, or none it lacks', () => {
    expect(snapshot({ pid: 10, path: [0, 0, 1] }).roots.map((r) => [r.role, r.name, r.children.length])).toEqual([['checkbox', 'Wrap', 0]]);
    const w = world();
    const invoke = (action: string) => JSON.parse(runInMacWorld(AX_SCRIPT, { pid: 10, path: [0, 0, 0], invoke: true, action }, w)) as unknown;
    expect(invoke('press')).toMatchObject({ role: 'AXButton', actions: ['AXPress', 'AXShowMenu'], done: 'AXPress' });
    expect(invoke('AXShowMenu')).toMatchObject({ done: 'AXShowMenu' });
    expect(invoke('')).toMatchObject({ done: 'AXPress' });
    expect(invoke('increment')).toMatchObject({ done: null });
    expect(w.log).toEqual(['Bold:AXPress', 'Bold:AXShowMenu', 'Bold:AXPress']);
  });
});

describe.runIf(process.platform === 'darwin')('AX on macOS', () => {
  const mac = useMacWindow(`chatgpt-mcp ax test ${process.pid}`);
  const find = (nodes: NativeNode[], name: string): NativeNode | undefined =>
    nodes.map((node) => (node.name === name ? node : find(node.children, name))).find(Boolean);

  test('presses a button through AXPress ("press" names it)', { timeout: 180_000 }, async (context) => {
    if (mac.problem) {
      console.warn(`AX not tried: System Events cannot be driven on this runner (${mac.problem})`);
      context.skip();
    }
    const windows = new AxWindows(async () => 1);
    const ours = async () => (await windows.list('window.list')).find((w) => w.title === `chatgpt-mcp ax test ${process.pid}`);
    await vi.waitFor(async () => expect(await ours()).toBeDefined(), { timeout: 60_000, interval: 1000 });
    await windows.act((await ours())!.id, 'focus', 'window.focus'); // the provider reads the frontmost app
    const provider = new AxProvider();
    const snapshot = await provider.snapshot({ scope: 'window', fetchDepth: 8, fetchNodes: 500 }, 'ui.snapshot');
    const button = find(snapshot.roots, 'Press me');
    expect(button?.role).toBe('button');
    const invoked = await provider.invoke(button!.ref, 'press', 'ui.invoke');
    expect(invoked.done).toBe('AXPress');
    expect(invoked.actions).toContain('AXPress');
    await vi.waitFor(() => expect(fs.readFileSync(mac.mark, 'utf8')).toBe('pressed'), { timeout: 10_000 });
  });
});
