/**
 * The setting of a file-reading e2e file: a root (its files written by `fill`) beside a folder
 * outside it, the test's HTTP server and a stdio config over that root, made before the file's
 * tests and removed after; and the three clients to read through, for `describe.each`: v2 and v1
 * over the HTTP server, and the built CLI over stdio (sharp, pdf.js and the Office readers load
 * from outside its bundle).
 */
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { connectLegacyHttp, connectModernHttp, connectModernStdio, type TestClient } from './clients.js';
import { childEnv, startTestServer, type TestHttpServer } from './servers.js';
import { makeRootAndOutside, removeDir, writeJson } from './temp.js';

export function readerSuite(fill: (root: string) => void): Array<[string, () => Promise<TestClient>]> {
  let home = '';
  let config = '';
  let server: TestHttpServer | undefined;
  beforeAll(async () => {
    const made = makeRootAndOutside();
    home = made.home;
    fill(made.root);
    server = await startTestServer({ filesystem: { roots: [made.root] } });
    config = writeJson(path.join(home, 'config.json'), { filesystem: { roots: [made.root] } });
  });
  afterAll(async () => {
    await server?.close();
    if (home) removeDir(home);
  });
  return [
    ['modern', () => connectModernHttp(server!.url)],
    ['legacy', () => connectLegacyHttp(server!.url)],
    ['modern stdio', () => connectModernStdio(['--config', config], childEnv(home) as Record<string, string>)],
  ];
}
