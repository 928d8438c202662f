/**
 * The fetch an HTTP upstream is reached with: its answers are bounded as a stdio upstream's
 * messages are (server.maxRequestBytes). The SDK's HTTP client reads a whole JSON answer, or a
 * whole event of a stream, into memory whatever its size: one upstream answering 450 MB four
 * times at once held 4.6 GB. Here a JSON body, and each event of an event stream (the bytes
 * between blank lines; a stream may run for hours), stops the read past the bound with an error
 * naming it, and `over` is told, so the connection is ended as a stdio upstream's is (the SDK
 * client would otherwise wait for the cut answer until the call's timeout).
 */
import type { FetchLike } from '@modelcontextprotocol/client';

export function boundedFetch(maxBytes: number, over: (why: string) => void = () => {}, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    const body = response.body.pipeThrough(boundedEvents(maxBytes, over));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** Passes bytes on while no run of them without a blank line is longer than `maxBytes`. */
function boundedEvents(maxBytes: number, over: (why: string) => void): TransformStream<Uint8Array, Uint8Array> {
  /** The bytes since the last blank line, over the chunks before. */
  let run = 0;
  /** The last bytes of the chunk before: a blank line can be split between two chunks. */
  let tail = Buffer.alloc(0);
  return new TransformStream({
    transform(chunk, controller) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      const ends = blankLineEnds(tail, bytes);
      // Every run the chunk holds: the one it ends, those wholly inside it (chunks coalesce: a whole event can be one), the one it begins.
      let longest = run + (ends[0] ?? bytes.length);
      for (let i = 1; i < ends.length; i++) longest = Math.max(longest, ends[i]! - ends[i - 1]!);
      run = ends.length > 0 ? bytes.length - ends.at(-1)! : run + bytes.length;
      longest = Math.max(longest, run);
      tail = Buffer.from(Buffer.concat([tail, bytes.subarray(-2)]).subarray(-2));
      if (longest <= maxBytes) return controller.enqueue(chunk);
      const why = `it sent an answer over ${maxBytes} bytes (server.maxRequestBytes)`;
      controller.error(new Error(why));
      over(why);
    },
  });
}

const LF = 0x0a;
const CR = 0x0d;

/** Where in `bytes` each blank line (`\n\n` or `\n\r\n`) ends, one begun in `tail` (the last bytes before them) too. */
function blankLineEnds(tail: Buffer, bytes: Buffer): number[] {
  const at = (i: number) => (i >= 0 ? bytes[i] : tail[tail.length + i]);
  const ends: number[] = [];
  for (let i = bytes.indexOf(LF); i >= 0; i = bytes.indexOf(LF, i + 1)) if (at(i - 1) === LF || (at(i - 1) === CR && at(i - 2) === LF)) ends.push(i + 1);
  return ends;
}
