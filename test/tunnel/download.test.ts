/**
 * The download step against a fake GitHub release served on loopback: the real archive layout
 * (a ZIP built with zip(1) holding tunnel-client, LICENSE, NOTICE) and a sha256sum-format
 * SHA256SUMS.txt. A good checksum installs and runs it; a bad one never writes or runs it; no
 * network, a missing asset and an unsupported platform each say so.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checksumFor, downloadClient, releaseAssetName, type DownloadError } from '../../main/tunnel/download.js';
import { appClientPath } from '../../main/tunnel/locate.js';
import { readZipEntry } from '../../main/tunnel/zip-entry.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { STAND_IN } from './helpers/stand-in.js';

const TAG = 'v0.9.4';
const ENV = { PATH: process.env.PATH ?? '' };

interface FakeRelease {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/** Serves /repos/openai/tunnel-client/releases/latest and the release's download URLs. */
async function serveRelease(files: Record<string, Buffer>, assets = Object.keys(files)): Promise<FakeRelease> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/repos/openai/tunnel-client/releases/latest') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ tag_name: TAG, assets: assets.map((name) => ({ name, browser_download_url: `https://example.invalid/${name}` })) }));
    }
    const prefix = `/openai/tunnel-client/releases/download/${TAG}/`;
    const name = req.url?.startsWith(prefix) ? decodeURIComponent(req.url.slice(prefix.length)) : null;
    const body = name ? files[name] : undefined;
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let dir: string;
let release: FakeRelease | null = null;
beforeEach(() => {
  dir = makeTempDir('tunnel-download-');
});
afterEach(async () => {
  await release?.close();
  release = null;
  removeDir(dir);
});

/** The release archive as the workflow builds it: the program plus its license files. */
function buildArchive(program: Buffer, deflate = true): Buffer {
  const stage = path.join(dir, 'stage');
  fs.mkdirSync(stage, { recursive: true });
  fs.writeFileSync(path.join(stage, 'tunnel-client'), program, { mode: 0o755 });
  fs.writeFileSync(path.join(stage, 'LICENSE'), 'Apache-2.0\n');
  fs.writeFileSync(path.join(stage, 'NOTICE'), 'notice\n');
  const zip = path.join(dir, 'release.zip');
  execFileSync('zip', ['-q', deflate ? '-9' : '-0', zip, 'tunnel-client', 'LICENSE', 'NOTICE'], { cwd: stage });
  const bytes = fs.readFileSync(zip);
  fs.rmSync(stage, { recursive: true });
  fs.rmSync(zip);
  return bytes;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const asset = releaseAssetName(TAG, 'linux', 'x64');

function releaseFiles(archive: Buffer, publishedSum = sha256(archive)): Record<string, Buffer> {
  const sums = [
    `${'0'.repeat(64)}  tunnel-client-${TAG}-darwin-arm64.zip`,
    `${publishedSum}  ${asset}`,
    `${'1'.repeat(64)}  ${asset.replace('.zip', '.spdx.json')}`,
  ].join('\n');
  return { [asset]: archive, 'SHA256SUMS.txt': Buffer.from(sums + '\n') };
}

const download = (sources: { api: string; downloads: string }) => downloadClient({ appDir: dir, platform: 'linux', arch: 'x64', sources, env: ENV });

describe('tunnel client download', () => {
  it('names assets as the release workflow does and reads sha256sum lines', () => {
    expect(releaseAssetName(TAG, 'linux', 'x64')).toBe('tunnel-client-v0.9.4-linux-amd64.zip');
    expect(releaseAssetName(TAG, 'darwin', 'arm64')).toBe('tunnel-client-v0.9.4-darwin-arm64.zip');
    expect(releaseAssetName(TAG, 'win32', 'x64')).toBe('tunnel-client-v0.9.4-windows-amd64.zip');
    expect(() => releaseAssetName(TAG, 'linux', 'ia32')).toThrow(/linux\/ia32/);
    expect(() => releaseAssetName(TAG, 'aix', 'x64')).toThrow(/Build it from source/);
    const sums = `${'a'.repeat(64)}  one.zip\n${'B'.repeat(64)} *two.zip\n`;
    expect(checksumFor(sums, 'one.zip')).toBe('a'.repeat(64));
    expect(checksumFor(sums, 'two.zip')).toBe('b'.repeat(64));
    expect(checksumFor(sums, 'three.zip')).toBeNull();
  });

  it('a good checksum installs the program owner-only in the app folder and runs it for its version', async () => {
    const program = fs.readFileSync(STAND_IN);
    const archive = buildArchive(program);
    release = await serveRelease(releaseFiles(archive));
    const installed = await download({ api: release.url, downloads: release.url });
    expect(installed).toMatchObject({ path: appClientPath(dir, 'linux'), tag: TAG, asset, sha256: sha256(archive) });
    expect(installed.version).toMatch(/^0\.9\.4-standin\+5ce4fed0c1cb \(git sha: /);
    expect(fs.readFileSync(installed.path)).toEqual(program);
    expect(fs.statSync(installed.path).mode & 0o777).toBe(0o700);
    expect(release.requests).toEqual([
      '/repos/openai/tunnel-client/releases/latest',
      `/openai/tunnel-client/releases/download/${TAG}/SHA256SUMS.txt`,
      `/openai/tunnel-client/releases/download/${TAG}/${asset}`,
    ]);
  });

  it('a checksum mismatch installs nothing and never runs the download', async () => {
    const marker = path.join(dir, 'it-ran');
    const program = Buffer.from(`#!/bin/sh\ntouch ${marker}\necho v6.6.6\n`);
    const archive = buildArchive(program);
    release = await serveRelease(releaseFiles(archive, sha256(Buffer.from('something else'))));
    const error = (await download({ api: release.url, downloads: release.url }).catch((e: unknown) => e)) as DownloadError;
    expect(error.reason).toBe('checksum');
    expect(error.message).toMatch(
      /^Checksum mismatch: tunnel-client-v0\.9\.4-linux-amd64\.zip has SHA-256 [0-9a-f]{64}, but release v0\.9\.4 publishes [0-9a-f]{64}\. The download was discarded and nothing was run\.$/,
    );
    expect(fs.existsSync(appClientPath(dir, 'linux'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'bin'))).toBe(false);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('no network: a clear message, nothing installed', async () => {
    // A port that was just free: nothing listens there.
    const closed = await serveRelease({});
    const url = closed.url;
    await closed.close();
    const error = (await download({ api: url, downloads: url }).catch((e: unknown) => e)) as DownloadError;
    expect(error.reason).toBe('network');
    expect(error.message).toMatch(/^Cannot reach GitHub to download the tunnel client \(ECONNREFUSED\)\. Check the internet connection or proxy/);
    expect(fs.existsSync(path.join(dir, 'bin'))).toBe(false);
  });

  it('a release without this platform’s archive or without checksums installs nothing', async () => {
    const archive = buildArchive(fs.readFileSync(STAND_IN));
    release = await serveRelease(releaseFiles(archive), [asset]);
    await expect(download({ api: release.url, downloads: release.url })).rejects.toMatchObject({
      reason: 'no-asset',
      message: expect.stringContaining('has no SHA256SUMS.txt'),
    });
    await release.close();
    release = await serveRelease({ 'SHA256SUMS.txt': Buffer.from(`${'0'.repeat(64)}  other.zip\n`) }, ['SHA256SUMS.txt', asset]);
    await expect(download({ api: release.url, downloads: release.url })).rejects.toMatchObject({
      reason: 'checksum',
      message: expect.stringContaining('lists no checksum for'),
    });
    expect(fs.existsSync(path.join(dir, 'bin'))).toBe(false);
  });

  it('a verified archive whose program does not run here is removed again', async () => {
    const archive = buildArchive(Buffer.from('\x7fELF not really a program for this machine'));
    release = await serveRelease(releaseFiles(archive));
    await expect(download({ api: release.url, downloads: release.url })).rejects.toMatchObject({
      reason: 'not-executable',
      message: expect.stringContaining('does not run on this computer'),
    });
    expect(fs.existsSync(appClientPath(dir, 'linux'))).toBe(false);
  });

  it('reads stored and deflated entries, and refuses damaged or foreign archives', () => {
    const program = fs.readFileSync(STAND_IN);
    expect(readZipEntry(buildArchive(program, false), 'tunnel-client')).toEqual(program);
    const deflated = buildArchive(program, true);
    expect(readZipEntry(deflated, 'tunnel-client')).toEqual(program);
    expect(() => readZipEntry(deflated, 'tunnel-client.exe')).toThrow(/has no tunnel-client\.exe \(it has: tunnel-client, LICENSE, NOTICE\)/);
    const damaged = Buffer.from(deflated);
    damaged[300] = damaged[300]! ^ 0xff;
    expect(() => readZipEntry(damaged, 'tunnel-client')).toThrow();
    expect(() => readZipEntry(Buffer.from('not a zip'), 'tunnel-client')).toThrow(/not a ZIP archive/);
  });
});
