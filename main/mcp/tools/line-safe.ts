/**
 * A name or command line as part of a one-item-per-line answer: its control characters shown as
 * escapes (\n, \r, \t, \xNN). A file named `a\n?? other` would otherwise read as two entries to
 * the model, and a file can be named so by whoever wrote the folder; structured content keeps
 * the names as they are.
 */
const CONTROL = /[\u0000-\u001f\u007f]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function lineSafe(text: string): string {
  return text.replace(CONTROL, (c) => NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
