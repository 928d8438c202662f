/**
 * X keysyms of the key names of keys.ts, for the RemoteDesktop portal's NotifyKeyboardKeysym
 * (the compositor finds a key for each); any Unicode character is its own keysym
 * (0x01000000 + code point, Latin-1 as itself), so text needs no clipboard there.
 */
const NAMED: Record<string, number> = {
  shift: 0xffe1,
  ctrl: 0xffe3,
  alt: 0xffe9,
  cmd: 0xffeb,
  enter: 0xff0d,
  tab: 0xff09,
  space: 0x20,
  backspace: 0xff08,
  delete: 0xffff,
  escape: 0xff1b,
  insert: 0xff63,
  home: 0xff50,
  end: 0xff57,
  pageup: 0xff55,
  pagedown: 0xff56,
  up: 0xff52,
  down: 0xff54,
  left: 0xff51,
  right: 0xff53,
  capslock: 0xffe5,
  numlock: 0xff7f,
  scrolllock: 0xff14,
  printscreen: 0xff61,
  minus: 0x2d,
  equal: 0x3d,
  comma: 0x2c,
  period: 0x2e,
  slash: 0x2f,
  backslash: 0x5c,
  semicolon: 0x3b,
  quote: 0x27,
  backquote: 0x60,
  bracketleft: 0x5b,
  bracketright: 0x5d,
  volumemute: 0x1008ff12,
  volumedown: 0x1008ff11,
  volumeup: 0x1008ff13,
  mediaplay: 0x1008ff14,
  mediastop: 0x1008ff15,
  mediaprev: 0x1008ff16,
  medianext: 0x1008ff17,
};
for (let c = 97; c <= 122; c++) NAMED[String.fromCharCode(c)] = c;
for (let d = 0; d <= 9; d++) {
  NAMED[String(d)] = 0x30 + d;
  NAMED[`numpad${d}`] = 0xffb0 + d;
}
for (let f = 1; f <= 24; f++) NAMED[`f${f}`] = 0xffbe + f - 1;

/** The keysym of a key name (keys.ts), or undefined. */
export function keysymOf(name: string): number | undefined {
  return NAMED[name];
}

/** The keysym that types one character. */
export function charKeysym(char: string): number {
  const code = char.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) ? code : 0x01000000 + code;
}
