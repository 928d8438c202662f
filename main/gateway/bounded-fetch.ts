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
  let run = 0;
  /** The last bytes of the chunk before: a blank line can be split between two chunks. */
  let tail = Buffer.alloc(0);
  return new TransformStream({
    transform(chunk, controller) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      const seam = Buffer.concat([tail, bytes.subarray(0, 2)]);
      // Just past the chunk's last blank line, or -1 when it has none.
      let end = -1;
      for (const [mark, length] of [
        ['\n\n', 2],
        ['\n\r\n', 3],
      ] as const) {
        const inside = bytes.lastIndexOf(mark);
        if (inside >= 0) end = Math.max(end, inside + length);
        const across = seam.lastIndexOf(mark);
        if (across >= 0 && across + length > tail.length) end = Math.max(end, across + length - tail.length);
      }
      run = end >= 0 ? bytes.length - end : run + bytes.length;
      tail = Buffer.from(bytes.length >= 2 ? bytes.subarray(-2) : Buffer.concat([tail, bytes]).subarray(-2));
      if (run <= maxBytes) return controller.enqueue(chunk);
      const why = `it sent an answer over ${maxBytes} bytes (server.maxRequestBytes)`;
      controller.error(new Error(why));
      over(why);
    },
  });
}
