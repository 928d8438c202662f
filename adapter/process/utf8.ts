/** UTF-8 helpers shared by the adapters that cut text to a byte bound. */

/**
 * The largest length <= `max` at which `buf` can be cut without splitting a UTF-8 sequence:
 * a trailing lead byte whose sequence does not fit entirely is dropped with its continuations.
 */
export function utf8Boundary(buf: Uint8Array, max: number): number {
  const end = Math.min(max, buf.length);
  // Walk back over at most 3 continuation bytes (10xxxxxx) to the byte that starts the last sequence.
  let start = end;
  while (start > 0 && end - start < 4) {
    start--;
    const byte = buf[start] as number;
    if ((byte & 0xc0) !== 0x80) {
      const size = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
      return start + size <= end ? end : start;
    }
  }
  // Only continuation bytes at the end (invalid input): cutting anywhere splits nothing valid.
  return end;
}
