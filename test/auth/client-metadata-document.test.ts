/**
 * Client ID metadata documents fetched from a real HTTPS server on loopback (a self-signed
 * certificate the fetch is told to trust, and loopback allowed for the test only: the
 * default refuses every non-public address, which the first test checks).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchClientDocument, isDocumentClientId, isPublicAddress, MAX_DOCUMENT_BYTES } from '../../main/auth/client-metadata-document.js';
import { localhostCertificate, startHttpsServer } from '../helpers/tls.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (a) => expect(isPublicAddress(a)).toBe(true));
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    // The same loopback and private addresses as the URL parser writes them ([::ffff:127.0.0.1]), and IPv4-compatible ones.
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '::ffff:c0a8:101',
    '::7f00:1',
    '2002:7f00:1::',
    '64:ff9b:1::a00:1',
    'fec0::1',
    '2001::1',
    '192.88.99.1',
    '224.0.0.1',
  ])('%s is not', (a) => expect(isPublicAddress(a)).toBe(false));
  it('client ids that are https URLs with a path are documents', () => {
    expect(isDocumentClientId('https://app.example/oauth/client.json')).toBe(true);
    expect(isDocumentClientId('https://app.example/')).toBe(false);
    expect(isDocumentClientId('http://app.example/client.json')).toBe(false);
    expect(isDocumentClientId('cmcp_client_abc')).toBe(false);
  });
});

describe('fetchClientDocument', () => {
  let dir: string;
  let server: Awaited<ReturnType<typeof startHttpsServer>>;
  let ca: string;
  const allowLoopback = { addressAllowed: (a: string) => a === '127.0.0.1' || a === '::1' };
  const doc = (id: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ client_id: id, client_name: 'Doc App', redirect_uris: ['https://app.example/cb'], ...extra });

  beforeAll(async () => {
    dir = makeTempDir('cimd-');
    const tls = localhostCertificate(dir);
    ca = tls.cert;
    const routes: Parameters<typeof startHttpsServer>[1] = {};
    server = await startHttpsServer(tls, routes);
    const o = server.origin;
    Object.assign(routes, {
      '/good.json': { body: doc(`${o}/good.json`) },
      '/other-id.json': { body: doc(`${o}/someone-else.json`) },
      '/secret.json': { body: doc(`${o}/secret.json`, { token_endpoint_auth_method: 'client_secret_basic' }) },
      '/bad-redirect.json': { body: doc(`${o}/bad-redirect.json`, { redirect_uris: ['http://evil.example/cb'] }) },
      '/moved.json': { status: 302, headers: { location: `${o}/good.json` }, body: '' },
      '/huge.json': { body: doc(`${o}/huge.json`, { padding: 'x'.repeat(MAX_DOCUMENT_BYTES) }) },
    });
  });
  afterAll(async () => {
    await server.close();
    removeDir(dir);
  });

  it('refuses a loopback host by default (no server-side requests into this computer or the network)', async () => {
    await expect(fetchClientDocument(`${server.origin}/good.json`, { ca })).rejects.toThrow(/not public/);
    expect(server.hits).toHaveLength(0);
  });

  it('refuses loopback written as an IPv4-mapped IPv6 address, which the URL parser turns into hex', async () => {
    const port = new URL(server.origin).port;
    await expect(fetchClientDocument(`https://[::ffff:127.0.0.1]:${port}/good.json`, { ca })).rejects.toThrow(/not public/);
    expect(server.hits).toHaveLength(0);
  });

  it('reads a valid document', async () => {
    const read = await fetchClientDocument(`${server.origin}/good.json`, { ca, ...allowLoopback });
    expect(read).toEqual({ clientId: `${server.origin}/good.json`, name: 'Doc App', redirectUris: ['https://app.example/cb'] });
  });

  it('refuses an untrusted certificate', async () => {
    await expect(fetchClientDocument(`${server.origin}/good.json`, allowLoopback)).rejects.toThrow(/cannot fetch/);
  });

  it.each([
    ['/other-id.json', /another client_id/],
    ['/secret.json', /not supported/],
    ['/bad-redirect.json', /http:\/\/ to a host/],
    ['/moved.json', /HTTP 302/],
    ['/huge.json', /larger than/],
    ['/missing.json', /HTTP 404/],
  ])('refuses %s', async (path, why) => {
    await expect(fetchClientDocument(`${server.origin}${path}`, { ca, ...allowLoopback })).rejects.toThrow(why);
  });
});
