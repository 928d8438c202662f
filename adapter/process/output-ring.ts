/**
 * The output of a long-running process, kept as a ring of at most `limit` bytes with absolute
 * offsets: a reader asks for what came after the offset it last saw, and learns how much was
 * overwritten if it fell behind. Memory stays at the bound however much the process writes.
 */
import { utf8Boundary } from './utf8.js';

export class OutputRing {
  private buffer: Buffer;
  /** Absolute offset of buffer[0]. */
  private startOffset = 0;
  private length = 0;

  constructor(private readonly limit: number) {
    this.buffer = Buffer.alloc(Math.min(limit, 64 * 1024));
  }

  /** Total bytes the process wrote so far (the offset after the last byte). */
  get end(): number {
    return this.startOffset + this.length;
  }

  /** The oldest offset still kept. */
  get start(): number {
    return this.startOffset;
  }

  push(chunk: Uint8Array): void {
    if (this.limit === 0) {
      this.startOffset += chunk.length;
      return;
    }
    if (chunk.length >= this.limit) {
      this.startOffset += this.length + chunk.length - this.limit;
      this.buffer = Buffer.from(chunk.subarray(chunk.length - this.limit));
      this.length = this.limit;
      return;
    }
    const needed = this.length + chunk.length;
    if (needed > this.limit) {
      const drop = needed - this.limit;
      this.buffer.copy(this.buffer, 0, drop, this.length);
      this.length -= drop;
      this.startOffset += drop;
    }
    if (this.length + chunk.length > this.buffer.length) {
      const grown = Buffer.alloc(Math.min(this.limit, Math.max(this.buffer.length * 2, this.length + chunk.length)));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.buffer.set(chunk, this.length);
    this.length += chunk.length;
  }

  /**
   * Up to `maxBytes` from `from` on (or from the oldest byte kept, when `from` was
   * overwritten), cut on UTF-8 character boundaries (unless the stream is `final`: then a
   * broken last character is returned as it is); `next` is the offset to ask for next.
   */
  read(from: number, maxBytes: number, final = false): { data: Buffer; offset: number; next: number; dropped: number } {
    const offset = Math.max(from, this.startOffset);
    const dropped = offset - from;
    if (offset >= this.end) return { data: Buffer.alloc(0), offset: this.end, next: this.end, dropped };
    const begin = offset - this.startOffset;
    const slice = this.buffer.subarray(begin, Math.min(this.length, begin + maxBytes));
    // A slice may start inside a character that was overwritten: skip its continuation bytes.
    let skip = 0;
    while (dropped > 0 && skip < 3 && skip < slice.length && (slice[skip]! & 0xc0) === 0x80) skip++;
    const whole = final && begin + slice.length >= this.length ? slice.length : utf8Boundary(slice, slice.length);
    const data = Buffer.from(slice.subarray(skip, Math.max(skip, whole)));
    return { data, offset: offset + skip, next: offset + skip + data.length, dropped: dropped + skip };
  }
}
