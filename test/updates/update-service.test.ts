/**
 * The tray's updates with electron-updater's own Linux updater (AppImageUpdater), against a
 * release feed this test serves on loopback: a newer release is found, downloaded, checked
 * against the sha512 its metadata names and installed when the app quits; a tampered file is
 * refused and nothing is installed; with updates.check off nothing is fetched at all. Only
 * Electron's `app` is a stand-in (electron-updater's documented AppAdapter), and Node's HTTP
 * stands in for Electron's net module (electron-builder's own NodeHttpExecutor).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import electronUpdater from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import { silentLogger } from '../../main/log.js';
import { UpdateService, type UpdateStatus } from '../../main/updates/update-service.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const { AppImageUpdater } = electronUpdater;
const require = createRequire(import.meta.url);
const { NodeHttpExecutor } = require('builder-util/out/nodeHttpExecutor.js') as { NodeHttpExecutor: new () => NodeExecutor };
const { configureRequestOptions, configureRequestUrl } = require('builder-util-runtime') as {
  configureRequestOptions(request: object): void;
  configureRequestUrl(url: URL, request: object): void;
};

type Callback = (error: Error | null) => void;
interface NodeExecutor {
  doDownload(
    request: unknown,
    options: { destination: string; options: unknown; onCancel: unknown; callback: Callback; responseHandler: null },
    redirects: number,
  ): void;
}
type DownloadOptions = {
  headers?: Record<string, string>;
  cancellationToken: { createPromise<T>(run: (resolve: (v: T) => void, reject: (e: Error) => void, onCancel: unknown) => void): Promise<T> };
};

/** Node's HTTP where Electron's net would be: ElectronHttpExecutor's download, over electron-builder's NodeHttpExecutor. */
class NodeDownloads extends NodeHttpExecutor {
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const request = { headers: options.headers, redirect: 'manual' };
      configureRequestUrl(url, request);
      configureRequestOptions(request);
      const callback: Callback = (error) => (error ? reject(error) : resolve(destination));
      this.doDownload(request, { destination, options, onCancel, callback, responseHandler: null }, 0);
    });
  }
}

const script = (marker: string, text: string) => `#!/bin/sh\necho '${text}' > '${marker}'\n`;

let dir: string;
let server: http.Server;
let requests: string[];
let files: Map<string, Buffer>;
let installed: string;
let marker: string;
let quitHandlers: Array<(code: number) => void>;
const savedAppImage = process.env.APPIMAGE;

function stubApp(version: string): AppAdapter {
  return {
    version,
    name: 'chatgpt-computer-mcp',
    isPackaged: true,
    appUpdateConfigPath: path.join(dir, 'app-update.yml'),
    userDataPath: path.join(dir, 'user-data'),
    baseCachePath: path.join(dir, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => {},
    quit: () => {},
    onQuit: (handler) => void quitHandlers.push(handler),
  };
}

/** Publishes a release as electron-builder does: the AppImage and latest-linux.yml naming its sha512 and size. */
function publish(version: string, content: Buffer, served: Buffer = content): void {
  const name = `ChatGPT-Computer-MCP-${version}.AppImage`;
  const sha512 = createHash('sha512').update(content).digest('base64');
  files.set(`/${name}`, served);
  files.set(
    '/latest-linux.yml',
    Buffer.from(
      `version: ${version}\nfiles:\n  - url: ${name}\n    sha512: ${sha512}\n    size: ${content.length}\npath: ${name}\nsha512: ${sha512}\nreleaseDate: '2026-12-01T00:00:00.000Z'\n`,
    ),
  );
}

function updaterFor(version: string) {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // What electron-builder writes into an installed app's resources (app-update.yml).
  fs.writeFileSync(path.join(dir, 'app-update.yml'), `provider: generic\nurl: ${url}\nupdaterCacheDirName: chatgpt-computer-mcp-updater\n`);
  const updater = new AppImageUpdater(null, stubApp(version));
  // The feed's provider takes the HTTP executor in effect when the feed is set.
  (updater as unknown as { httpExecutor: unknown }).httpExecutor = new NodeDownloads();
  updater.setFeedURL({ provider: 'generic', url });
  updater.logger = null;
  return updater;
}

beforeEach(async () => {
  dir = makeTempDir('updates-');
  requests = [];
  files = new Map();
  quitHandlers = [];
  marker = path.join(dir, 'installed-marker');
  installed = path.join(dir, 'app', 'ChatGPT-Computer-MCP.AppImage');
  fs.mkdirSync(path.dirname(installed));
  fs.writeFileSync(installed, script(marker, 'old'), { mode: 0o755 });
  process.env.APPIMAGE = installed;
  server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const body = files.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterEach(async () => {
  if (savedAppImage === undefined) delete process.env.APPIMAGE;
  else process.env.APPIMAGE = savedAppImage;
  await new Promise((resolve) => server.close(resolve));
  removeDir(dir);
});

describe('tray updates (electron-updater, AppImage)', () => {
  it('finds a newer release, downloads and verifies it, and installs it when the app quits', async () => {
    const release = Buffer.from(script(marker, 'new 0.2.0'));
    publish('0.2.0', release);
    const service = new UpdateService(updaterFor('0.1.0'), true, silentLogger);
    const seen: UpdateStatus['state'][] = [];
    service.onChange((status) => seen.push(status.state));

    expect(await service.check()).toEqual({ state: 'ready', version: '0.2.0' });
    expect(seen).toEqual(expect.arrayContaining(['checking', 'downloading', 'ready']));
    expect(requests).toEqual(expect.arrayContaining([expect.stringMatching(/^\/latest-linux\.yml/), '/ChatGPT-Computer-MCP-0.2.0.AppImage']));
    // Not installed until the app quits.
    expect(fs.readFileSync(installed, 'utf8')).toBe(script(marker, 'old'));

    expect(quitHandlers).toHaveLength(1);
    quitHandlers[0]!(0);
    expect(fs.readFileSync(installed)).toEqual(release);
    // electron-updater runs the new AppImage once to finish its installation.
    expect(fs.readFileSync(marker, 'utf8')).toBe('new 0.2.0\n');
  });

  it('refuses a file that is not the one the metadata names, and installs nothing', async () => {
    const release = Buffer.from(script(marker, 'new 0.2.0'));
    publish('0.2.0', release, Buffer.from(script(marker, 'tampered')));
    const service = new UpdateService(updaterFor('0.1.0'), true, silentLogger);
    const status = await service.check();
    expect(status.state).toBe('error');
    expect(status.state === 'error' && status.message).toMatch(/sha512 checksum mismatch/);
    expect(service.installNow()).toBe(false);
    for (const handler of quitHandlers) handler(0);
    expect(fs.readFileSync(installed, 'utf8')).toBe(script(marker, 'old'));
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('says it is up to date when the feed has nothing newer', async () => {
    publish('0.1.0', Buffer.from(script(marker, 'same')));
    const service = new UpdateService(updaterFor('0.1.0'), true, silentLogger);
    expect(await service.check()).toMatchObject({ state: 'idle', checkedAt: expect.any(String) });
    expect(requests.some((url) => url.endsWith('.AppImage'))).toBe(false);
  });

  it('with updates.check off, nothing is fetched, now or later', async () => {
    publish('0.2.0', Buffer.from(script(marker, 'new')));
    const service = new UpdateService(updaterFor('0.1.0'), false, silentLogger);
    service.start();
    expect(await service.check()).toEqual({ state: 'off', reason: 'updates.check is off' });
    service.stop();
    expect(requests).toEqual([]);
  });

  it('a copy not installed from a release (no AppImage) does not look', async () => {
    delete process.env.APPIMAGE;
    publish('0.2.0', Buffer.from(script(marker, 'new')));
    const service = new UpdateService(updaterFor('0.1.0'), true, silentLogger);
    expect((await service.check()).state).toBe('off');
    expect(requests).toEqual([]);
  });
});
