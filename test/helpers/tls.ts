/** A throwaway self-signed certificate for "localhost" (openssl), for real HTTPS servers on loopback. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** `names`: the certificate's subjectAltName (default: the name localhost only). */
export function localhostCertificate(dir: string, names = 'DNS:localhost'): { key: string; cert: string } {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      `subjectAltName=${names}`,
    ],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8') };
}

/** An HTTPS server on 127.0.0.1 answering each path from `routes` (status, headers, body). */
export async function startHttpsServer(
  tls: { key: string; cert: string },
  routes: Record<string, { status?: number; headers?: Record<string, string>; body: string }>,
): Promise<{ origin: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = https.createServer(tls, (req, res) => {
    hits.push(req.url ?? '');
    const route = routes[req.url ?? ''];
    if (!route) return void res.writeHead(404).end();
    res.writeHead(route.status ?? 200, { 'content-type': 'application/json', ...route.headers });
    res.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `https://localhost:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
