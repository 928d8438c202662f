/**
 * Key names for input.key and input.type: parsing "ctrl+shift+t" style combinations into
 * canonical names, and the nut-js `Key` enum member each name presses. Pure data, no nut-js
 * import, so the server validates before any worker or native code is involved.
 */
import { adapterError } from '../contract/errors.js';

export const MODIFIERS = ['ctrl', 'alt', 'shift', 'cmd'] as const;
export type Modifier = (typeof MODIFIERS)[number];

/** Canonical key name -> nut-js `Key` enum member (modifiers are resolved per platform below). */
const KEY_TABLE: Record<string, string> = {
  enter: 'Return', // libnut's "enter" is the keypad Enter; "return" is the main one
  tab: 'Tab',
  space: 'Space',
  backspace: 'Backspace',
  delete: 'Delete',
  escape: 'Escape',
  insert: 'Insert',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  capslock: 'CapsLock',
  numlock: 'NumLock',
  scrolllock: 'ScrollLock',
  printscreen: 'Print',
  minus: 'Minus',
  equal: 'Equal',
  comma: 'Comma',
  period: 'Period',
  slash: 'Slash',
  backslash: 'Backslash',
  semicolon: 'Semicolon',
  quote: 'Quote',
  backquote: 'Grave',
  bracketleft: 'LeftBracket',
  bracketright: 'RightBracket',
  volumemute: 'AudioMute',
  volumeup: 'AudioVolUp',
  volumedown: 'AudioVolDown',
  mediaplay: 'AudioPlay',
  mediastop: 'AudioStop',
  medianext: 'AudioNext',
  mediaprev: 'AudioPrev',
};
for (let c = 97; c <= 122; c++) KEY_TABLE[String.fromCharCode(c)] = String.fromCharCode(c - 32);
for (let d = 0; d <= 9; d++) {
  KEY_TABLE[String(d)] = `Num${d}`;
  KEY_TABLE[`numpad${d}`] = `NumPad${d}`;
}
for (let f = 1; f <= 24; f++) KEY_TABLE[`f${f}`] = `F${f}`;

const ALIASES: Record<string, string> = {
  control: 'ctrl',
  option: 'alt',
  opt: 'alt',
  command: 'cmd',
  meta: 'cmd',
  super: 'cmd',
  win: 'cmd',
  windows: 'cmd',
  return: 'enter',
  esc: 'escape',
  del: 'delete',
  ins: 'insert',
  pgup: 'pageup',
  pgdn: 'pagedown',
  arrowup: 'up',
  arrowdown: 'down',
  arrowleft: 'left',
  arrowright: 'right',
  print: 'printscreen',
  prtsc: 'printscreen',
  equals: 'equal',
  dot: 'period',
  apostrophe: 'quote',
  grave: 'backquote',
  backtick: 'backquote',
  mute: 'volumemute',
  playpause: 'mediaplay',
  '-': 'minus',
  '=': 'equal',
  ',': 'comma',
  '.': 'period',
  '/': 'slash',
  '\\': 'backslash',
  ';': 'semicolon',
  "'": 'quote',
  '`': 'backquote',
  '[': 'bracketleft',
  ']': 'bracketright',
};

export const VALID_KEYS_HELP =
  'Modifiers: ctrl, alt, shift, cmd (aliases control, option, command, meta, super, win; cmd is the Windows/Super key outside macOS). ' +
  'Keys: a-z, 0-9, f1-f24, enter, tab, space, backspace, delete, escape, insert, home, end, pageup, pagedown, up, down, left, right, ' +
  'capslock, numlock, scrolllock, printscreen, minus, equal, comma, period, slash, backslash, semicolon, quote, backquote, ' +
  "bracketleft, bracketright (or the characters - = , . / \\ ; ' ` [ ]), numpad0-numpad9, volumemute, volumeup, volumedown, " +
  'mediaplay, mediastop, medianext, mediaprev.';

export interface KeyCombo {
  modifiers: Modifier[];
  /** A canonical key name, or a modifier pressed on its own. */
  key: string;
  /** e.g. "ctrl+shift+t" */
  canonical: string;
}

const isModifier = (name: string): name is Modifier => (MODIFIERS as readonly string[]).includes(name);

function canonicalName(part: string): string | undefined {
  const name = ALIASES[part] ?? part;
  return isModifier(name) || name in KEY_TABLE ? name : undefined;
}

export function parseKeyCombo(input: string, operation = 'input.key'): KeyCombo {
  const text = input.trim().toLowerCase();
  if (text === '')
    throw adapterError('INVALID_INPUT', operation, `keys is empty; give a key like "enter" or a combination like "ctrl+shift+t". ${VALID_KEYS_HELP}`);
  const parts = text.split('+').map((p) => p.trim());
  if (parts.some((p) => p === '')) {
    throw adapterError(
      'INVALID_INPUT',
      operation,
      `"${input}" has an empty key name; join names with "+" like "ctrl+shift+t" (the + key itself is "shift+equal")`,
    );
  }
  const names = parts.map((part) => {
    const name = canonicalName(part);
    if (!name) throw adapterError('INVALID_INPUT', operation, `unknown key "${part}" in "${input}". ${VALID_KEYS_HELP}`);
    return name;
  });
  const keys = names.filter((n) => !isModifier(n));
  if (keys.length > 1) {
    throw adapterError(
      'INVALID_INPUT',
      operation,
      `"${input}" names more than one non-modifier key (${keys.join(', ')}); press one key, with any modifiers, per call`,
    );
  }
  let key = keys[0];
  const held = new Set(names.filter(isModifier));
  if (key === undefined) {
    // Only modifiers: the last one is the key pressed, the others are held.
    key = names[names.length - 1] as Modifier;
    held.delete(key as Modifier);
  }
  const modifiers = MODIFIERS.filter((m) => held.has(m));
  return { modifiers, key, canonical: [...modifiers, key].join('+') };
}

/** The nut-js `Key` enum member for a canonical name on this platform. */
export function nutKeyName(name: string, platform: NodeJS.Platform): string {
  switch (name) {
    case 'ctrl':
      return 'LeftControl';
    case 'alt':
      return 'LeftAlt';
    case 'shift':
      return 'LeftShift';
    case 'cmd':
      // libnut knows "cmd" only on macOS; elsewhere the same physical key is "win"/"meta".
      return platform === 'darwin' ? 'LeftCmd' : platform === 'win32' ? 'LeftWin' : 'LeftSuper';
  }
  const key = KEY_TABLE[name];
  if (!key) throw new Error(`no nut-js key for "${name}"`);
  return key;
}
