/**
 * JSON for people to read (a terminal, the settings window): as JSON.stringify writes it, which
 * escapes C0 characters in strings, with the characters that hide or reorder text escaped too
 * (\uNNNN, a character past U+FFFF as its two halves: the same JSON). Unescaped, an upstream's
 * `\u202e` in a description makes the text show in another order than it holds, and tag or
 * zero-width characters carry words nobody sees, on the very screen meant to catch a changed one.
 */

/**
 * DEL and C1 controls; the soft hyphen, fillers and joiners shown as nothing (U+00AD, U+034F,
 * U+115F, U+1160, U+17B4, U+17B5, U+180B-U+180F, U+3164, U+FFA0); zero-width and bidirectional
 * formatting (U+061C, U+200B, U+200E, U+200F, U+202A-U+202E, U+2060-U+206F, U+FEFF); line and
 * paragraph separators; variation selectors; interlinear annotations and specials
 * (U+FFF0-U+FFFB); and the tag characters (U+E0000-U+E0FFF), which can spell out a whole hidden
 * sentence. Not the joiners (U+200C, U+200D) nor the emoji selector (U+FE0F): scripts and emoji
 * are written with them.
 */
export const HIDING = String.raw`\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b\u200e\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0e\ufeff\uffa0\ufff0-\ufffb\u{e0000}-\u{e0fff}`;
// The combining marks among them (variation selectors, U+034F) are matched alone on purpose: hidden after any character.
// eslint-disable-next-line no-misleading-character-class
const HIDDEN = new RegExp(`[${HIDING}]`, 'gu');

/** A character as \uNNNN escapes, one per UTF-16 half (valid in JSON and JavaScript strings alike). */
export function escaped(character: string): string {
  let out = '';
  for (let i = 0; i < character.length; i++) out += `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** Text with the characters that hide or reorder it escaped; newlines and everything else as they are. */
export function readableText(text: string): string {
  return text.replace(HIDDEN, escaped);
}

export function readableJson(value: unknown): string {
  return readableText(JSON.stringify(value, null, 2));
}
