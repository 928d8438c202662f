/**
 * Collects at most `limit` bytes of a child's output stream: the first ones, or with `tail` the
 * last ones (a test run's summary is at its end). Past the bound it keeps accepting (and
 * discarding) chunks so the child never blocks on a full pipe, while memory stays at the bound
 * no matter how much the child writes.
 */
import { utf8Boundary } from './utf8.js';
import { describeOutput } from './output-text.js';
import type { BinaryOutput } from '../contract/processes.js';

export class BoundedOutput {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  private dropped = false;

  constructor(
    private readonly limit: number,
    private readonly keep: 'head' | 'tail' = 'head',
  ) {}

  push(chunk: Buffer): void {
    if (this.keep === 'tail') return this.pushTail(chunk);
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

  private pushTail(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.bytes > this.limit) {
      this.dropped = true;
      const first = this.chunks[0]!;
      const over = this.bytes - this.limit;
      if (first.length <= over) {
        this.chunks.shift();
        this.bytes -= first.length;
      } else {
        this.chunks[0] = Buffer.from(first.subarray(over));
        this.bytes -= over;
      }
    }
  }

  /** The bytes collected so far (at most `limit`). */
  bytesSoFar(): Buffer {
    return Buffer.concat(this.chunks, this.bytes);
  }

  get truncated(): boolean {
    return this.dropped;
  }

  /**
   * The collected output: text of at most `limit` UTF-8 bytes, never ending in a split
   * character; or, for output that is not text, its size and a preview (output-text.ts).
   */
  result(): { text: string; truncated: boolean; binary?: BinaryOutput } {
    let raw = Buffer.concat(this.chunks, this.bytes);
    if (this.dropped && this.keep === 'tail') raw = raw.subarray(firstWhole(raw));
    else if (this.dropped) raw = raw.subarray(0, utf8Boundary(raw, raw.length));
    const described = describeOutput(raw);
    if (described.binary) return { text: '', truncated: this.dropped, binary: described.binary };
    const text = described.text;
    // Invalid bytes decode to U+FFFD (3 bytes each), so lenient text can outgrow the bound;
    // counted without encoding it, as that would be one more copy of the output per call.
    if (Buffer.byteLength(text, 'utf8') <= this.limit) return { text, truncated: this.dropped };
    const encoded = Buffer.from(text, 'utf8');
    return { text: encoded.subarray(0, utf8Boundary(encoded, this.limit)).toString('utf8'), truncated: true };
  }
}

/** Where the first whole UTF-8 character starts (a tail may begin inside one). */
function firstWhole(buf: Buffer): number {
  let i = 0;
  while (i < Math.min(3, buf.length) && (buf[i]! & 0xc0) === 0x80) i++;
  return i;
}
