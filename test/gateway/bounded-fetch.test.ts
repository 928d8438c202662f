/** The HTTP upstream's fetch, against a real loopback server: a JSON answer or one event over the bound stops the read; a long stream of small events does not. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedFetch } from '../../main/gateway/bounded-fetch.js';

/** What the server sends for each path: its content type and chunks. */
const bodies: Record<string, { type: string; chunks: string[] }> = {
  '/json-small': { type: 'application/json', chunks: [JSON.stringify({ text: 'x'.repeat(900) })] },
  '/json-big': { type: 'application/json', chunks: Array.from({ length: 20 }, () => 'x'.repeat(100)) },
  // 30 events of 600 bytes each, blank lines split between chunks and spelled \r\n too.
  '/events': {
    type: 'text/event-stream',
    chunks: Array.from({ length: 30 }, (_, i) => `data: ${'e'.repeat(590)}\n${i % 2 ? '\r\n' : '\n'}`).flatMap((event) => [
      event.slice(0, -1),
      event.slice(-1),
    ]),
  },
  // A blank line split over three chunks of one byte each.
  '/events-bytewise': { type: 'text/event-stream', chunks: [`data: ${'a'.repeat(700)}`, '\n', '\r', '\n', `data: ${'b'.repeat(700)}\n\n`] },
  '/event-big': { type: 'text/event-stream', chunks: ['data: small\n\n', `data: ${'b'.repeat(700)}`, 'b'.repeat(700), '\n\n'] },
  // The same in one chunk, as TCP hands them on when the reader falls behind: the event over the bound lies wholly inside it.
  '/event-big-coalesced': { type: 'text/event-stream', chunks: [`data: small\n\ndata: ${'b'.repeat(1400)}\r\n\r\ndata: after\n\n`] },
};

let server: http.Server;
let base = '';
beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const body = bodies[req.url ?? '']!;
    res.writeHead(200, { 'content-type': body.type });
    for (const chunk of body.chunks) {
      res.write(chunk);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const read = (path: string) => boundedFetch(1000)(`${base}${path}`).then((response) => response.text());

describe('boundedFetch', () => {
  it('passes answers within the bound, and a stream of many events each within it', async () => {
    expect(JSON.parse(await read('/json-small')).text).toHaveLength(900);
    expect((await read('/events')).match(/^data: /gm)).toHaveLength(30);
    expect((await read('/events-bytewise')).match(/^data: /gm)).toHaveLength(2);
  });

  it('stops a JSON answer or one event over the bound, saying so', async () => {
    await expect(read('/json-big')).rejects.toThrow(/over 1000 bytes \(server.maxRequestBytes\)/);
    await expect(read('/event-big')).rejects.toThrow(/over 1000 bytes/);
    await expect(read('/event-big-coalesced')).rejects.toThrow(/over 1000 bytes/);
  });
});
