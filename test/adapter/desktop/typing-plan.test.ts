import { describe, expect, test } from 'vitest';
import { parseKeyCombo } from '../../../adapter/desktop/keys.js';
import { planTyping, usKeystroke, type TypingStep } from '../../../adapter/desktop/typing-plan.js';

const PRINTABLE_ASCII = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));

/** What a US keyboard produces for a key and Shift state: the reference the plan must agree with. */
const US_ROWS: Array<[string, string]> = [
  ['`1234567890-=', '~!@#$%^&*()_+'],
  ['qwertyuiop[]\\', 'QWERTYUIOP{}|'],
  ["asdfghjkl;'", 'ASDFGHJKL:"'],
  ['zxcvbnm,./', 'ZXCVBNM<>?'],
];
const KEY_NAME: Record<string, string> = {
  '`': 'backquote',
  '-': 'minus',
  '=': 'equal',
  '[': 'bracketleft',
  ']': 'bracketright',
  '\\': 'backslash',
  ';': 'semicolon',
  "'": 'quote',
  ',': 'comma',
  '.': 'period',
  '/': 'slash',
};

function usOutput(key: string, shift: boolean): string {
  if (key === 'space') return ' ';
  for (const [plain, shifted] of US_ROWS) {
    const index = [...plain].findIndex((c) => (KEY_NAME[c] ?? c) === key);
    if (index >= 0) return (shift ? shifted : plain)[index]!;
  }
  throw new Error(`no US key ${key}`);
}

describe('usKeystroke', () => {
  test.each(PRINTABLE_ASCII.map((c) => [c]))('%j is typed by a key that produces it on a US layout', (char) => {
    const { key, shift } = usKeystroke(char);
    expect(parseKeyCombo(key).key).toBe(key); // a real key name
    expect(usOutput(key, shift)).toBe(char);
  });

  test('the upstream bug cases need Shift', () => {
    for (const char of '!@#$%^&*()_+{}|:"<>?~') expect(usKeystroke(char).shift, char).toBe(true);
  });
});

describe('planTyping on X11', () => {
  const keys = (steps: TypingStep[]) => steps.map((s) => (s.kind === 'key' ? `${s.shift ? 'S-' : ''}${s.key}` : `${s.kind}:${s.text}`));

  test('the reported string is all keystrokes', () => {
    const text = 'Hello, World! 123 @#$%^&*()_+{}|:"<>?~`';
    const plan = planTyping(text, 'linux');
    expect(plan.steps.every((s) => s.kind === 'key')).toBe(true);
    expect(plan.steps.map((s) => (s.kind === 'key' ? usOutput(s.key, s.shift) : '')).join('')).toBe(text);
    expect(plan).toMatchObject({ typedChars: text.length, pastedChars: 0 });
  });

  test('newlines and tabs are keys; CRLF is one Enter', () => {
    expect(keys(planTyping('a\nb\r\nc\rd\te', 'linux').steps)).toEqual(['a', 'enter', 'b', 'enter', 'c', 'enter', 'd', 'tab', 'e']);
  });

  test('one paste per line, from its first non-ASCII character to its last; ASCII around it is typed', () => {
    const plan = planTyping('Café 日本語 ok ✓!', 'linux');
    expect(keys(plan.steps)).toEqual(['S-c', 'a', 'f', 'paste:é 日本語 ok ✓', 'S-1']);
    expect(plan).toMatchObject({ typedChars: 14, pastedChars: 10 });
  });

  test('Enter and Tab end a paste: each line has its own', () => {
    const plan = planTyping('ä1\nö2 ü\tx ß', 'linux');
    expect(keys(plan.steps)).toEqual(['paste:ä', '1', 'enter', 'paste:ö2 ü', 'tab', 'x', 'space', 'paste:ß']);
    expect(plan.pastedChars).toBe(6);
  });

  test('astral characters count once', () => {
    expect(planTyping('👍🏽', 'linux')).toMatchObject({ typedChars: 2, pastedChars: 2, steps: [{ kind: 'paste', text: '👍🏽' }] });
  });
});

describe('planTyping on macOS and Windows', () => {
  test.each(['darwin', 'win32'] as const)('%s types Unicode text directly, newline and tab as keys', (platform) => {
    const plan = planTyping('Hi! é\nnext\tcol', platform);
    expect(plan.steps).toEqual([
      { kind: 'text', text: 'Hi! é' },
      { kind: 'key', key: 'enter', shift: false },
      { kind: 'text', text: 'next' },
      { kind: 'key', key: 'tab', shift: false },
      { kind: 'text', text: 'col' },
    ]);
    expect(plan.pastedChars).toBe(0);
  });
});

describe('planTyping refuses', () => {
  test.each([
    ['', 'text is empty'],
    ['a\u0007b', 'control character U+0007 at position 1'],
    ['\u001b[A', 'U+001B'],
    ['x\u007f', 'U+007F'],
    ['\u0085', 'U+0085'],
    ['\u0000', 'U+0000'],
  ])('%j: %s', (text, fragment) => {
    expect(() => planTyping(text, 'linux')).toThrow(fragment);
    try {
      planTyping(text, 'linux');
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_INPUT', operation: 'input.type' });
    }
  });
});
