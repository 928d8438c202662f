/**
 * The keymap our virtual keyboard sends the compositor: one keycode per key name of keys.ts
 * (with a US layout's shifted symbol as its second level), the four modifiers, and one keycode
 * per extra character a text needs. A keysym may be any Unicode character ("U00E9"), so
 * non-ASCII text is typed as it is, with no clipboard: when a text needs characters the keymap
 * lacks, a new keymap with them is sent first (as wtype does). Types and compatibility come from
 * the system's XKB data ("complete"), which every compositor's libxkbcommon reads.
 */

/** XKB keycodes are evdev codes + 8; the virtual keyboard's key request takes the evdev code. */
const FIRST_KEYCODE = 9;
const LAST_KEYCODE = 255;

/** Key names (keys.ts) and their keysyms: [unshifted, shifted]. */
const NAMED: Record<string, [string, string?]> = {
  enter: ['Return'],
  tab: ['Tab', 'ISO_Left_Tab'],
  space: ['space'],
  backspace: ['BackSpace'],
  delete: ['Delete'],
  escape: ['Escape'],
  insert: ['Insert'],
  home: ['Home'],
  end: ['End'],
  pageup: ['Prior'],
  pagedown: ['Next'],
  up: ['Up'],
  down: ['Down'],
  left: ['Left'],
  right: ['Right'],
  capslock: ['Caps_Lock'],
  numlock: ['Num_Lock'],
  scrolllock: ['Scroll_Lock'],
  printscreen: ['Print'],
  minus: ['minus', 'underscore'],
  equal: ['equal', 'plus'],
  comma: ['comma', 'less'],
  period: ['period', 'greater'],
  slash: ['slash', 'question'],
  backslash: ['backslash', 'bar'],
  semicolon: ['semicolon', 'colon'],
  quote: ['apostrophe', 'quotedbl'],
  backquote: ['grave', 'asciitilde'],
  bracketleft: ['bracketleft', 'braceleft'],
  bracketright: ['bracketright', 'braceright'],
  volumemute: ['XF86AudioMute'],
  volumeup: ['XF86AudioRaiseVolume'],
  volumedown: ['XF86AudioLowerVolume'],
  mediaplay: ['XF86AudioPlay'],
  mediastop: ['XF86AudioStop'],
  medianext: ['XF86AudioNext'],
  mediaprev: ['XF86AudioPrev'],
};
const DIGIT_SHIFTED = [')', '!', '@', '#', '$', '%', '^', '&', '*', '('].map((c) => `U${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
for (let c = 97; c <= 122; c++) NAMED[String.fromCharCode(c)] = [String.fromCharCode(c), String.fromCharCode(c - 32)];
for (let d = 0; d <= 9; d++) {
  NAMED[String(d)] = [String(d), DIGIT_SHIFTED[d]];
  NAMED[`numpad${d}`] = [`KP_${d}`];
}
for (let f = 1; f <= 24; f++) NAMED[`f${f}`] = [`F${f}`];

/** The modifiers, their keysyms and XKB's real modifier (and its bit in a modifiers request). */
export const MODIFIER_KEYS = {
  shift: { keysym: 'Shift_L', real: 'Shift', mask: 1 },
  ctrl: { keysym: 'Control_L', real: 'Control', mask: 4 },
  alt: { keysym: 'Alt_L', real: 'Mod1', mask: 8 },
  cmd: { keysym: 'Super_L', real: 'Mod4', mask: 64 },
} as const;

const BASE_NAMES = [...Object.keys(MODIFIER_KEYS), ...Object.keys(NAMED)];
/** How many extra characters fit beside the named keys. */
export const EXTRA_CAPACITY = LAST_KEYCODE - FIRST_KEYCODE + 1 - BASE_NAMES.length;

export interface Keymap {
  text: string;
  /** The evdev code (XKB keycode - 8) of a key name or of an extra character. */
  code(nameOrChar: string): number | undefined;
  extras: ReadonlySet<string>;
}

const unicodeKeysym = (char: string) => `U${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** A keymap with every named key and the given extra characters (at most EXTRA_CAPACITY). */
export function buildKeymap(extras: Iterable<string> = []): Keymap {
  const extraList = [...new Set(extras)].slice(0, EXTRA_CAPACITY);
  const codes = new Map<string, number>();
  const symbols: string[] = [];
  let keycode = FIRST_KEYCODE;
  for (const [name, modifier] of Object.entries(MODIFIER_KEYS)) {
    codes.set(name, keycode);
    symbols.push(`    key <K${keycode}> { [ ${modifier.keysym} ] };`, `    modifier_map ${modifier.real} { <K${keycode}> };`);
    keycode++;
  }
  for (const [name, syms] of Object.entries(NAMED)) {
    codes.set(name, keycode);
    symbols.push(`    key <K${keycode}> { [ ${syms.filter(Boolean).join(', ')} ] };`);
    keycode++;
  }
  for (const char of extraList) {
    codes.set(`char:${char}`, keycode);
    symbols.push(`    key <K${keycode}> { [ ${unicodeKeysym(char)} ] };`);
    keycode++;
  }
  const keycodes = Array.from({ length: keycode - FIRST_KEYCODE }, (_, i) => `    <K${FIRST_KEYCODE + i}> = ${FIRST_KEYCODE + i};`);
  const text = [
    'xkb_keymap {',
    '  xkb_keycodes "chatgpt-mcp" {',
    `    minimum = 8;`,
    `    maximum = ${LAST_KEYCODE};`,
    ...keycodes,
    '  };',
    '  xkb_types "chatgpt-mcp" { include "complete" };',
    '  xkb_compatibility "chatgpt-mcp" { include "complete" };',
    '  xkb_symbols "chatgpt-mcp" {',
    ...symbols,
    '  };',
    '};',
    '',
  ].join('\n');
  return {
    text,
    extras: new Set(extraList),
    code: (nameOrChar) => {
      const named = codes.get(nameOrChar) ?? codes.get(`char:${nameOrChar}`);
      return named === undefined ? undefined : named - 8;
    },
  };
}
