/**
 * The Windows provider: its parser on a written sample of its script's output; on Windows (the
 * workflow's runner) the real script against a real window's controls.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import type { NativeNode } from '../../../../adapter/desktop/ui/accessibility-provider.js';
import { parseUiaInvoke, parseUiaOutput, UIA_SCRIPT, UiaProvider, uiaRole } from '../../../../adapter/desktop/ui/uia-powershell.js';
import { addTypeSources, compileCSharp } from '../../../helpers/csharp.js';
import { powershellSyntaxErrors } from '../../../helpers/powershell-syntax.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';
import { showForm } from '../../../helpers/windows-form.js';
import { shapeTree } from '../../../../adapter/desktop/ui/ui-tree.js';

const sample = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/uia-sample.json'), 'utf8');

describe('parseUiaOutput', () => {
  test('a single window (ConvertTo-Json unwraps one-element arrays) with roles, values and states', () => {
    const parsed = parseUiaOutput(sample);
    expect(parsed.windows).toEqual([{ app: 'notepad', name: 'Untitled - Notepad', bounds: { x: 200, y: 100, width: 800, height: 600 }, chosenBy: 'active' }]);
    const root = parsed.roots[0]!;
    expect(root.unfetchedChildren).toBe(3);
    const [doc, pane, offscreen] = root.children;
    expect(doc).toMatchObject({ role: 'document', name: 'Text editor', value: 'hello world', states: ['focused', 'focusable', 'enabled'] });
    expect(pane!.children.map((c) => [c.role, c.name, c.states])).toEqual([
      ['button', 'Save', ['focusable', 'enabled']],
      ['checkbox', 'Word wrap', ['focusable', 'enabled', 'checked']],
      ['password', 'PIN', ['focusable', 'enabled']],
    ]);
    expect(pane!.children[2]!.value).toBeUndefined();
    expect(offscreen).toMatchObject({ showing: false, bounds: null });
    expect(JSON.parse(pane!.children[0]!.ref)).toEqual({ hwnd: 197890, id: '42.1.7.1' });
  });

  test('shaped: the pane is flattened and the offscreen item dropped', () => {
    const shaped = shapeTree(parseUiaOutput(sample).roots, { maxDepth: 10, maxNodes: 100 });
    expect(shaped.roots[0]!.children.map((c) => c.name)).toEqual(['Text editor', 'Save', 'Word wrap', 'PIN']);
  });

  test('control type names', () => {
    expect(uiaRole('ControlType.Edit')).toBe('textbox');
    expect(uiaRole('ControlType.Hyperlink')).toBe('link');
    expect(uiaRole('ControlType.Calendar')).toBe('calendar');
    expect(() => parseUiaOutput('{"windows":[],"error":"Access is denied"}')).toThrow('Access is denied');
  });
});

describe('parseUiaInvoke', () => {
  test('the pattern used and the ones offered, however ConvertTo-Json wrote the list', () => {
    expect(parseUiaInvoke('{"done":"toggle","actions":["toggle","select"]}')).toEqual({ done: 'toggle', actions: ['toggle', 'select'] });
    expect(parseUiaInvoke('{"done":"invoke","actions":"invoke"}')).toEqual({ done: 'invoke', actions: ['invoke'] });
    expect(parseUiaInvoke('{"done":null,"actions":[]}')).toEqual({ done: undefined, actions: [] });
    expect(parseUiaInvoke('{"done":null,"actions":null}')).toEqual({ done: undefined, actions: [] });
  });
});

test('the UIA script parses as PowerShell', async () => {
  expect(await powershellSyntaxErrors(UIA_SCRIPT)).toEqual([]);
});

describe.runIf(process.platform === 'linux')("the UIA script's C# (its user32 members)", () => {
  test('compiles as C# 5, wrapped as Add-Type wraps -MemberDefinition', () => {
    const dir = makeTempDir('uia-cs-');
    try {
      const sources = addTypeSources(UIA_SCRIPT);
      expect(sources).toEqual([expect.stringContaining('namespace U { public class W {')]);
      expect(compileCSharp(dir, 'uia', sources)).toMatch(/uia\.dll$/);
    } finally {
      removeDir(dir);
    }
  });
});

describe.runIf(process.platform === 'win32')('UI Automation on Windows', () => {
  let dir: string;
  let form: ChildProcess;
  const provider = new UiaProvider();
  // not ASCII: the script's JSON must carry any name through the console's code page
  const title = `chatgpt-mcp uia tést ✓ ${process.pid}`;
  beforeAll(() => {
    dir = makeTempDir('uia-');
    form = showForm(title, path.join(dir, 'mark'));
  });
  afterAll(() => {
    form.kill();
    removeDir(dir);
  });

  const find = (nodes: NativeNode[], name: string): NativeNode | undefined => {
    for (const node of nodes) {
      if (node.name === name) return node;
      const inside = find(node.children, name);
      if (inside) return inside;
    }
    return undefined;
  };
  const control = async (name: string) => {
    const snapshot = await provider.snapshot(
      { scope: 'display', displayRect: { x: 0, y: 0, width: 4000, height: 3000 }, fetchDepth: 8, fetchNodes: 2000 },
      'ui.snapshot',
    );
    // only inside our form: another test's window may be on screen too
    const node = find(
      snapshot.roots.filter((root) => root.name === title),
      name,
    );
    expect(node, `${name} in ${JSON.stringify(snapshot.windows)}`).toBeDefined();
    return node!;
  };

  test('presses a button and ticks a check box through their patterns, and names what an element offers', { timeout: 180_000 }, async () => {
    await vi.waitFor(() => control('Press me'), { timeout: 60_000, interval: 1000 });
    const button = await control('Press me');
    expect(button.role).toBe('button');
    expect(await provider.invoke(button.ref, undefined, 'ui.invoke')).toEqual({ done: 'invoke', actions: ['invoke'] });
    await vi.waitFor(() => expect(fs.readFileSync(path.join(dir, 'mark'), 'utf8').trim()).toBe('pressed'), { timeout: 10_000 });
    expect(await provider.invoke(button.ref, 'expand', 'ui.invoke')).toEqual({ done: undefined, actions: ['invoke'] });

    const box = await control('Check me');
    expect(box.states).not.toContain('checked');
    expect((await provider.invoke(box.ref, 'toggle', 'ui.invoke')).done).toBe('toggle');
    expect((await control('Check me')).states).toContain('checked');

    form.kill();
    await expect(provider.invoke(button.ref, undefined, 'ui.invoke')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
