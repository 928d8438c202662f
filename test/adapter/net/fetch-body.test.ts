import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchBody } from '../../../adapter/net/fetch-body.js';
import type { FetchOptions } from '../../../adapter/contract/net.js';

let server: http.Server;
let origin: string;
const timers: NodeJS.Timeout[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/trickle') {
      res.writeHead(200);
      timers.push(setInterval(() => res.write('.'), 200)); // never silent, never done
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`host ${req.headers.host}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  timers.forEach(clearInterval);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const seen: string[][] = [];
const options = (extra: Partial<FetchOptions> = {}): FetchOptions => ({
  nextUrl: (location, base) => new URL(location, base),
  pickAddress: (_url, addresses) => {
    seen.push([...addresses]);
    return '127.0.0.1';
  },
  maxRedirects: 5,
  maxBytes: 1024,
  timeoutMs: 10_000,
  stallMs: 5_000,
  ...extra,
});

describe('fetchBody', () => {
  it('asks about the resolved addresses and connects to the one it is given, keeping the Host', async () => {
    const body = await fetchBody(`${origin}/x`, options());
    expect(Buffer.from(body.data).toString()).toBe(`host ${new URL(origin).host}`);
    expect(seen.at(-1)).toContain('127.0.0.1');
    expect(body).toMatchObject({ status: 200, contentType: 'text/plain', sniffed: 'text', redirects: [], finalUrl: `${origin}/x` });
  });

  it('refuses before connecting when the policy refuses the address', async () => {
    const refuse = options({
      pickAddress: () => {
        throw Object.assign(new Error('refused by the test'), { operation: 'fs.download', code: 'PATH_NOT_ALLOWED' });
      },
    });
    await expect(fetchBody(`${origin}/x`, refuse)).rejects.toThrow('refused by the test');
  });

  it('stops a body that keeps trickling at the total timeout', async () => {
    const started = Date.now();
    await expect(fetchBody(`${origin}/trickle`, options({ timeoutMs: 1500, maxBytes: 1_000_000 }))).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringContaining('took longer than 1500 ms'),
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
