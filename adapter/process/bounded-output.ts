/**
 * Collects at most `limit` bytes of a child's output stream. Past the bound it keeps accepting
 * (and discarding) chunks so the child never blocks on a full pipe, while memory stays at the
 * bound no matter how much the child writes.
 */
import { utf8Boundary } from '../lib/utf8.js';

export class BoundedOutput {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  private dropped = false;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    const room = this.limit - this.bytes;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.bytes += chunk.length;
      return;
    }
    this.dropped = true;
    if (room > 0) {
      // Copy, so the rest of the (up to 64 KiB) chunk is not kept alive by a view into it.
      this.chunks.push(Buffer.from(chunk.subarray(0, room)));
      this.bytes = this.limit;
    }
  }

  /** The collected text, at most `limit` UTF-8 bytes, never ending in a split character. */
  result(): { text: string; truncated: boolean } {
    let raw = Buffer.concat(this.chunks, this.bytes);
    if (this.dropped) raw = raw.subarray(0, utf8Boundary(raw, raw.length));
    const text = raw.toString('utf8');
    // Invalid bytes decode to U+FFFD (3 bytes each), so binary output can outgrow the bound.
    const encoded = Buffer.from(text, 'utf8');
    if (encoded.length <= this.limit) return { text, truncated: this.dropped };
    return { text: encoded.subarray(0, utf8Boundary(encoded, this.limit)).toString('utf8'), truncated: true };
  }
}
