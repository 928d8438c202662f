/**
 * fs.download through the built server over stdio, with the v2 and the v1 client, against an
 * HTTPS server on loopback with a self-signed certificate the server trusts (NODE_EXTRA_CA_CERTS).
 * The config admits that one origin (download.testLoopbackOrigin); every other loopback address,
 * port or name is refused as it would be in use. Traffic stays on loopback: the private, link-local
 * and metadata ranges are tested on the policy (test/policy/download.test.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLegacyStdio, connectModernStdio, textOf, type TestClient } from '../helpers/clients.js';
import { childEnv, runCli } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';
import { localhostCertificate } from '../helpers/tls.js';

const BODY = randomBytes(300_000);
const GZIPPED = gzipSync(Buffer.alloc(2_000_000, 'a'));
const CAP = 1024 * 1024;
let home: string;
let root: string;
let config: string;
let origin: string;
let server: https.Server;
const seen: IncomingHttpHeaders[] = [];
const clients: TestClient[] = [];

function route(url: string, port: number): { status?: number; headers?: Record<string, string | number>; body?: Buffer; hang?: boolean } {
  const to = (location: string) => ({ status: 302, headers: { location } });
  const hops = /^\/hops\/(\d+)$/.exec(url);
  if (hops) return Number(hops[1]) === 0 ? { body: BODY } : to(`/hops/${Number(hops[1]) - 1}`);
  switch (url) {
    case '/file.bin':
      return { headers: { 'content-type': 'application/octet-stream' }, body: BODY };
    case '/page':
      return { headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from('<!doctype html><title>x</title>') };
    case '/bomb':
      return { headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' }, body: GZIPPED };
    case '/to-other-address':
      return to(`https://127.0.0.2:${port}/file.bin`);
    case '/to-other-port':
      return to(`https://127.0.0.1:${port + 1}/file.bin`);
    case '/to-localhost':
      return to(`https://localhost:${port}/file.bin`);
    case '/to-http':
      return to(`http://127.0.0.1:${port}/file.bin`);
    case '/to-credentials':
      return to(`https://user:secret@127.0.0.1:${port}/file.bin`);
    case '/big-declared':
      return { headers: { 'content-length': CAP + 1 }, body: Buffer.alloc(0), hang: true };
    case '/big-streamed':
      return { body: Buffer.alloc(CAP + 64 * 1024, 7) };
    case '/slow':
      return { body: Buffer.from('first bytes, then nothing'), hang: true };
    default:
      return { status: 404 };
  }
}

beforeAll(async () => {
  home = makeTempDir();
  root = path.join(home, 'root');
  fs.mkdirSync(root);
  fs.mkdirSync(path.join(home, 'outside'));
  fs.symlinkSync(path.join(home, 'outside'), path.join(root, 'escape'));
  const tls = localhostCertificate(home, 'DNS:localhost,IP:127.0.0.1');
  fs.writeFileSync(path.join(home, 'ca.pem'), tls.cert);
  server = https.createServer(tls, (req, res) => {
    seen.push(req.headers);
    const answer = route((req.url ?? '').split('?')[0]!, (server.address() as AddressInfo).port);
    res.writeHead(answer.status ?? 200, answer.headers);
    if (answer.hang) return void res.write(answer.body ?? ''); // never ends: the server's timeouts must
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  config = writeJson(path.join(home, 'config.json'), {
    filesystem: { roots: [root], read: true, write: true },
    download: { enabled: true, testLoopbackOrigin: origin, maxBytes: CAP, stallMs: 1500, timeoutMs: 20_000 },
    audit: { tools: true },
  });
  // A proxy the server must not use: were it used, every download would fail to connect.
  const env = childEnv(home, { NODE_EXTRA_CA_CERTS: path.join(home, 'ca.pem'), HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9' });
  clients.push(await connectModernStdio(['--config', config], env as Record<string, string>));
  clients.push(await connectLegacyStdio(['--config', config], env as Record<string, string>));
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  removeDir(home);
});

const download = (client: TestClient, args: Record<string, unknown>) => client.callTool({ name: 'fs.download', arguments: args });
const leftovers = () => fs.readdirSync(root).filter((n) => n !== 'escape' && !n.startsWith('kept'));

describe.skipIf(process.platform === 'win32')('fs.download against a loopback HTTPS server', () => {
  it.each([0, 1])('lands a good download whole with the right hash (client %i), and never overwrites unasked', async (i) => {
    const client = clients[i]!;
    const name = `kept-${client.kind}.bin`;
    const result = await download(client, { url: `${origin}/file.bin`, path: name });
    expect(result.isError, textOf(result)).toBeFalsy();
    const sha256 = createHash('sha256').update(BODY).digest('hex');
    expect(result.structuredContent).toMatchObject({
      path: path.join(fs.realpathSync(root), name),
      bytes: BODY.length,
      sha256,
      contentType: 'application/octet-stream',
      redirects: [],
    });
    expect(fs.readFileSync(path.join(root, name)).equals(BODY)).toBe(true);
    expect(textOf(result)).toContain(`sha256 ${sha256}`);
    const again = await download(client, { url: `${origin}/page`, path: name });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toContain('already exists');
    const replaced = await download(client, { url: `${origin}/page`, path: name, overwrite: true });
    expect(replaced.structuredContent).toMatchObject({ sniffed: 'html', contentType: 'text/html; charset=utf-8' });
  });

  it('sends no cookie, credential or compression request, and saves a gzip body as sent', async () => {
    const result = await download(clients[0]!, { url: `${origin}/bomb`, path: 'kept-bomb.gz' });
    expect(result.structuredContent).toMatchObject({ bytes: GZIPPED.length, sniffed: 'gzip' });
    const headers = seen.at(-1)!;
    expect(headers['accept-encoding']).toBe('identity');
    expect(headers.cookie).toBeUndefined();
    expect(headers.authorization).toBeUndefined();
  });

  it('follows up to 5 redirects and refuses a sixth', async () => {
    const five = await download(clients[0]!, { url: `${origin}/hops/5`, path: 'kept-hops.bin' });
    expect(five.isError, textOf(five)).toBeFalsy();
    expect((five.structuredContent as { redirects: string[] }).redirects).toHaveLength(5);
    const six = await download(clients[0]!, { url: `${origin}/hops/6`, path: 'six.bin' });
    expect(textOf(six)).toContain('more than 5 times');
  });

  it.each([
    ['/to-other-address', /127\.0\.0\.2:\d+: 127\.0\.0\.2 is this computer \(loopback\)/],
    ['/to-other-port', /127\.0\.0\.1:\d+: 127\.0\.0\.1 is this computer \(loopback\)/],
    ['/to-localhost', /localhost:\d+: .* is this computer \(loopback\)/],
    ['/to-http', /is http:\/\/.*download\.allowHttp/],
    ['/to-credentials', /user name or password/],
    ['/big-declared', /over download\.maxBytes/],
    ['/big-streamed', /more than 1048576 bytes, over download\.maxBytes/],
    ['/slow', /sent nothing for 1500 ms/],
  ])('%s is refused or stopped, and nothing is left behind', async (url, message) => {
    const result = await download(clients[0]!, { url: `${origin}${url}`, path: 'refused.bin' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    expect(leftovers()).toEqual([]);
  });

  it('refuses a host name that resolves to loopback, before connecting', async () => {
    const before = seen.length;
    const result = await download(clients[1]!, { url: `${origin.replace('127.0.0.1', 'localhost')}/file.bin`, path: 'x.bin' });
    expect(textOf(result)).toMatch(/localhost:\d+: .* is this computer \(loopback\)/);
    expect(seen.length).toBe(before);
  });

  it('goes through the filesystem policy: outside the roots, through a symlink, onto a protected file', async () => {
    for (const target of [path.join(home, 'outside', 'x.bin'), 'escape/x.bin', '.env', 'id_rsa']) {
      const result = await download(clients[0]!, { url: `${origin}/file.bin`, path: target });
      expect(result.isError, target).toBe(true);
      expect(textOf(result), target).toMatch(/PATH_NOT_ALLOWED|outside|protected|secret/i);
    }
    expect(fs.readdirSync(path.join(home, 'outside'))).toEqual([]);
    expect(leftovers()).toEqual([]);
  });

  it('the audit trail shows the URL and path, without a query that may carry a token', async () => {
    await download(clients[0]!, { url: `${origin}/file.bin?sig=query-secret-77`, path: 'kept-signed.bin' });
    const recent = await clients[0]!.callTool({ name: 'audit.recent', arguments: {} });
    expect(textOf(recent)).toContain(`url=${origin}/file.bin?…`);
    expect(JSON.stringify(recent)).not.toContain('query-secret-77');
  });

  it('config check warns while the test origin is set', async () => {
    const run = await runCli(['config', 'check', '--config', config], childEnv(home));
    expect(run.stdout + run.stderr).toContain(`download.testLoopbackOrigin is set: fs.download may reach ${origin}`);
  });
});
