/**
 * How input.type enters a text, decided before any native call.
 *
 * X11 (Linux): libnut's typeString only adds Shift for A-Z, so `Hi! @#` arrives as `Hi1 23`
 * (nut-tree/nut.js #531, #618). Printable ASCII is therefore pressed key by key with an
 * explicit Shift where a US layout needs it, and non-ASCII text, which X11 cannot type without
 * remapping the keyboard, goes through the clipboard fallback (copy, then ctrl+v): one paste per
 * line (between Enter and Tab keys), from its first non-ASCII character to its last.
 * macOS and Windows: libnut types Unicode directly (CGEventKeyboardSetUnicodeString /
 * KEYEVENTF_UNICODE), independent of the layout, so text is passed through as is.
 * Everywhere: newline is the Enter key and tab the Tab key; other control characters are refused.
 */
import { adapterError } from '../contract/errors.js';

export type TypingStep = { kind: 'key'; key: string; shift: boolean } | { kind: 'text'; text: string } | { kind: 'paste'; text: string };

export interface TypingPlan {
  steps: TypingStep[];
  typedChars: number;
  pastedChars: number;
}

/** US layout: the unshifted key that produces each shifted symbol. */
const SHIFTED: Record<string, string> = {
  '!': '1',
  '@': '2',
  '#': '3',
  $: '4',
  '%': '5',
  '^': '6',
  '&': '7',
  '*': '8',
  '(': '9',
  ')': '0',
  _: 'minus',
  '+': 'equal',
  '{': 'bracketleft',
  '}': 'bracketright',
  '|': 'backslash',
  ':': 'semicolon',
  '"': 'quote',
  '<': 'comma',
  '>': 'period',
  '?': 'slash',
  '~': 'backquote',
};
const UNSHIFTED: Record<string, string> = {
  ' ': 'space',
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
  '`': 'backquote',
};

/** The key (canonical name from keys.ts) and Shift state that type one printable ASCII character on a US layout. */
export function usKeystroke(char: string): { key: string; shift: boolean } {
  if (/^[a-z0-9]$/.test(char)) return { key: char, shift: false };
  if (/^[A-Z]$/.test(char)) return { key: char.toLowerCase(), shift: true };
  const plain = UNSHIFTED[char];
  if (plain) return { key: plain, shift: false };
  const shifted = SHIFTED[char];
  if (shifted) return { key: shifted, shift: true };
  throw new Error(`not a printable ASCII character: U+${codePoint(char)}`);
}

const isPrintableAscii = (c: string) => c >= ' ' && c <= '~';
const codePoint = (c: string) => (c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
/** C0 controls, DEL and C1 controls: nothing a keyboard types as text. */
const isControl = (c: string) => /^[\u0000-\u001f\u007f-\u009f]$/u.test(c);

export function planTyping(text: string, platform: NodeJS.Platform, operation = 'input.type'): TypingPlan {
  const chars = [...text];
  if (chars.length === 0) throw adapterError('INVALID_INPUT', operation, 'text is empty');
  const x11 = platform !== 'darwin' && platform !== 'win32';
  const steps: TypingStep[] = [];
  let pastedChars = 0;
  let segment: string[] = []; // the printable characters since the last Enter or Tab

  // One paste per segment, from its first non-ASCII character to its last (the ASCII between
  // included): every paste after another must wait until the app surely finished the one before.
  const flush = () => {
    if (segment.length === 0) return;
    const first = x11 ? segment.findIndex((c) => !isPrintableAscii(c)) : -1;
    const last = first < 0 ? -1 : segment.findLastIndex((c) => !isPrintableAscii(c));
    const keys = (part: string[]) => part.forEach((c) => steps.push({ kind: 'key', ...usKeystroke(c) }));
    if (!x11) steps.push({ kind: 'text', text: segment.join('') });
    else if (first < 0) keys(segment);
    else {
      keys(segment.slice(0, first));
      steps.push({ kind: 'paste', text: segment.slice(first, last + 1).join('') });
      pastedChars += last + 1 - first;
      keys(segment.slice(last + 1));
    }
    segment = [];
  };
  const key = (name: string) => {
    flush();
    steps.push({ kind: 'key', key: name, shift: false });
  };

  chars.forEach((char, index) => {
    if (char === '\n' && chars[index - 1] === '\r') return; // CRLF is one Enter
    if (char === '\n' || char === '\r') return key('enter');
    if (char === '\t') return key('tab');
    if (isControl(char)) {
      throw adapterError(
        'INVALID_INPUT',
        operation,
        `text contains the control character U+${codePoint(char)} at position ${index}; only tab and newline are typed (use input.key for other keys)`,
      );
    }
    segment.push(char);
  });
  flush();
  return { steps, typedChars: chars.length, pastedChars };
}
