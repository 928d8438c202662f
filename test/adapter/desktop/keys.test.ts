import { describe, expect, test } from 'vitest';
import { nutKeyName, parseKeyCombo } from '../../../adapter/desktop/keys.js';
import { isComputerAdapterError } from '../../../adapter/contract/errors.js';

// [input, canonical]
const valid: Array<[string, string]> = [
  ['enter', 'enter'],
  ['Enter', 'enter'],
  ['return', 'enter'],
  ['F5', 'f5'],
  ['f24', 'f24'],
  ['ctrl+shift+t', 'ctrl+shift+t'],
  ['Shift+Ctrl+T', 'ctrl+shift+t'],
  ['ctrl + a', 'ctrl+a'],
  ['control+alt+delete', 'ctrl+alt+delete'],
  ['cmd+space', 'cmd+space'],
  ['command+space', 'cmd+space'],
  ['meta+l', 'cmd+l'],
  ['super+e', 'cmd+e'],
  ['win+r', 'cmd+r'],
  ['option+left', 'alt+left'],
  ['alt+f4', 'alt+f4'],
  ['esc', 'escape'],
  ['del', 'delete'],
  ['pgup', 'pageup'],
  ['ArrowDown', 'down'],
  ['backspace', 'backspace'],
  ['ctrl+-', 'ctrl+minus'],
  ['ctrl+=', 'ctrl+equal'],
  ['ctrl+/', 'ctrl+slash'],
  ['ctrl+\\', 'ctrl+backslash'],
  ['ctrl+[', 'ctrl+bracketleft'],
  ['`', 'backquote'],
  ['shift', 'shift'],
  ['ctrl+shift', 'ctrl+shift'],
  ['shift+ctrl', 'shift+ctrl'],
  ['ctrl+ctrl+a', 'ctrl+a'],
  ['numpad7', 'numpad7'],
  ['volumeup', 'volumeup'],
  ['0', '0'],
  ['ctrl+9', 'ctrl+9'],
];

// [input, message fragment]
const invalid: Array<[string, string]> = [
  ['', 'keys is empty'],
  ['   ', 'keys is empty'],
  ['ctrl+foo', 'unknown key "foo" in "ctrl+foo"'],
  ['hyper+a', 'unknown key "hyper"'],
  ['ctrl+', 'has an empty key name'],
  ['ctrl++', 'has an empty key name'],
  ['a+b', 'more than one non-modifier key (a, b)'],
  ['ctrl+a+enter', 'more than one non-modifier key'],
  ['!', 'unknown key "!"'],
  ['f25', 'unknown key "f25"'],
  ['menu', 'unknown key "menu"'],
];

describe('parseKeyCombo', () => {
  test.each(valid)('%j -> %s', (input, canonical) => {
    expect(parseKeyCombo(input).canonical).toBe(canonical);
  });

  test.each(invalid)('%j is refused: %s', (input, fragment) => {
    let caught: unknown;
    try {
      parseKeyCombo(input);
    } catch (error) {
      caught = error;
    }
    expect(isComputerAdapterError(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'INVALID_INPUT', operation: 'input.key' });
    expect((caught as Error).message).toContain(fragment);
  });

  test('an unknown key lists the valid names', () => {
    expect(() => parseKeyCombo('ctrl+foo')).toThrow(/Modifiers: ctrl, alt, shift, cmd.*Keys: a-z, 0-9, f1-f24, enter, tab/);
  });

  test('only modifiers: the last is the key, the rest are held', () => {
    expect(parseKeyCombo('ctrl+shift')).toMatchObject({ modifiers: ['ctrl'], key: 'shift' });
  });

  test('modifiers come in a fixed order', () => {
    expect(parseKeyCombo('cmd+shift+alt+ctrl+x')).toMatchObject({ modifiers: ['ctrl', 'alt', 'shift', 'cmd'], key: 'x' });
  });
});

describe('nutKeyName', () => {
  test('enter is the main Return key, not the keypad Enter', () => {
    expect(nutKeyName('enter', 'linux')).toBe('Return');
  });

  test('cmd is Command on macOS, Windows key on Windows, Super on Linux', () => {
    expect(nutKeyName('cmd', 'darwin')).toBe('LeftCmd');
    expect(nutKeyName('cmd', 'win32')).toBe('LeftWin');
    expect(nutKeyName('cmd', 'linux')).toBe('LeftSuper');
  });

  test('every canonical name a combo can produce has a nut-js key', async () => {
    const { Key } = await import('@nut-tree-fork/shared');
    const names = [
      ...'abcdefghijklmnopqrstuvwxyz0123456789',
      ...Array.from({ length: 24 }, (_, i) => `f${i + 1}`),
      ...Array.from({ length: 10 }, (_, i) => `numpad${i}`),
      'enter',
      'tab',
      'space',
      'backspace',
      'delete',
      'escape',
      'insert',
      'home',
      'end',
      'pageup',
      'pagedown',
      'up',
      'down',
      'left',
      'right',
      'capslock',
      'numlock',
      'scrolllock',
      'printscreen',
      'minus',
      'equal',
      'comma',
      'period',
      'slash',
      'backslash',
      'semicolon',
      'quote',
      'backquote',
      'bracketleft',
      'bracketright',
      'volumemute',
      'volumeup',
      'volumedown',
      'mediaplay',
      'mediastop',
      'medianext',
      'mediaprev',
      'ctrl',
      'alt',
      'shift',
      'cmd',
    ];
    for (const name of names) {
      expect(parseKeyCombo(name).key).toBe(name);
      for (const platform of ['linux', 'darwin', 'win32'] as const) {
        expect(Key[nutKeyName(name, platform) as keyof typeof Key], `${name} on ${platform}`).toBeTypeOf('number');
      }
    }
  });
});
