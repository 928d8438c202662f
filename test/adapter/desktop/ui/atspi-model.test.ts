/** AT-SPI decoding on values read from a real Chromium (see the Xvfb tests) and the window choice. */
import { describe, expect, test } from 'vitest';
import { chooseWindows } from '../../../../adapter/desktop/ui/atspi.js';
import { commonRole, decodeStates } from '../../../../adapter/desktop/ui/atspi-model.js';
import type { NativeNode } from '../../../../adapter/desktop/ui/accessibility-provider.js';

describe('decodeStates', () => {
  test.each([
    // a push button: ENABLED FOCUSABLE SENSITIVE SHOWING VISIBLE
    [[1124075776, 0], ['focusable', 'enabled'], true, false],
    // a frame that is not active
    [[1124073728, 0], ['enabled'], true, false],
    // an entry: ENABLED EDITABLE FOCUSABLE ... SINGLE_LINE, SELECTABLE_TEXT in the second word
    [[1191184768, 64], ['focusable', 'enabled', 'editable'], true, false],
    // hidden: ENABLED SENSITIVE only
    [[16777472, 0], ['enabled'], false, false],
    // active and focused, checked, and READ_ONLY (bit 43) + REQUIRED (bit 33)
    [[(1 << 1) | (1 << 4) | (1 << 12) | (1 << 25) | (1 << 30), (1 << 11) | (1 << 1)], ['focused', 'checked', 'readonly', 'required'], true, true],
  ])('%j', (words, states, showing, active) => {
    const decoded = decodeStates(words);
    expect([...decoded.states].sort()).toEqual([...states].sort());
    expect(decoded.showing).toBe(showing);
    expect(decoded.active).toBe(active);
  });

  test('defunct is bit 6', () => {
    expect(decodeStates([1 << 6, 0]).defunct).toBe(true);
  });
});

test('role names map to the common vocabulary', () => {
  expect(commonRole('push button')).toBe('button');
  expect(commonRole('entry')).toBe('textbox');
  expect(commonRole('password text')).toBe('password');
  expect(commonRole('document web')).toBe('document');
  expect(commonRole('panel')).toBe('generic');
  expect(commonRole('Color Chooser')).toBe('colorchooser');
});

describe('chooseWindows', () => {
  const win = (name: string, bounds: NativeNode['bounds'], active = false) => ({
    app: 'app',
    active,
    node: { ref: name, role: 'window', name, states: [], bounds, showing: true, children: [] } as NativeNode,
  });
  const big = win('big', { x: 0, y: 0, width: 1000, height: 800 });
  const popup = win('popup', { x: 100, y: 20, width: 900, height: 90 });
  const right = win('right', { x: 1280, y: 0, width: 600, height: 600 });

  test('the active window wins; else the largest under the pointer; else the largest', () => {
    expect(chooseWindows([big, popup, win('act', { x: 5, y: 5, width: 10, height: 10 }, true)], { scope: 'window' })[0]!.window).toMatchObject({
      name: 'act',
      chosenBy: 'active',
    });
    expect(chooseWindows([popup, big, right], { scope: 'window', pointer: { x: 150, y: 50 } })[0]!.window).toMatchObject({ name: 'big', chosenBy: 'pointer' });
    expect(chooseWindows([popup, right, big], { scope: 'window', pointer: { x: 1300, y: 10 } })[0]!.window).toMatchObject({
      name: 'right',
      chosenBy: 'pointer',
    });
    expect(chooseWindows([popup, big], { scope: 'window', pointer: { x: 5000, y: 10 } })[0]!.window).toMatchObject({ name: 'big', chosenBy: 'largest' });
    expect(chooseWindows([win('empty', { x: 0, y: 0, width: 0, height: 0 })], { scope: 'window' })).toEqual([]);
  });

  test('a display takes every window that intersects it', () => {
    const chosen = chooseWindows([big, popup, right], { scope: 'display', displayRect: { x: 1280, y: 0, width: 1280, height: 1600 } });
    expect(chosen.map((c) => c.window)).toEqual([{ app: 'app', name: 'right', bounds: right.node.bounds, chosenBy: 'display' }]);
  });
});
