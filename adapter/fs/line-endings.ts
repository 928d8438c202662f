/** Line endings of a text file, so edits and patches written with LF keep a CRLF file CRLF. */

/** Every line break is CRLF (a file with mixed endings is not: converting it would change its LF lines). */
export function isCrlfThroughout(text: string): boolean {
  return text.includes('\r\n') && !/(^|[^\r])\n/.test(text);
}
