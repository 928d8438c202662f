/** The Windows provider's parser on a written sample of its script's output (no Windows here: untested on real machines). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parseUiaOutput, uiaRole } from '../../../../adapter/desktop/ui/uia-powershell.js';
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
