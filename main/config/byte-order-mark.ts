/** Editors on Windows like to start UTF-8 files with a byte order mark; JSON.parse does not accept one. */
export function withoutByteOrderMark(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}
