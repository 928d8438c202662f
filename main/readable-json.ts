/**
 * JSON for people to read (a terminal, the settings window): as JSON.stringify writes it, which
 * escapes C0 characters in strings, with DEL, C1 and the bidirectional formatting characters
 * escaped too (\uNNNN: the same JSON). Unescaped, an upstream's `\u202e` in a description makes
 * the text show in another order than it holds, on the very screen meant to catch a changed one.
 */
const INVISIBLE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function readableJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
