/**
 * Installs the official tunnel client: the latest GitHub release of openai/tunnel-client, the
 * archive for this OS and architecture (`tunnel-client-<tag>-<os>-<arch>.zip`), checked against
 * the release's published `SHA256SUMS.txt` BEFORE anything is unpacked or run. Only then is
 * the program written (owner-only, executable) into the app folder and asked for its version.
 *
 * The two GitHub addresses are constants; `sources` exists for tests, which serve a fake
 * release on loopback. No setting, flag or message lets anyone point this at other files.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../config/atomic-file.js';
import { appClientPath, clientFileName, clientVersion } from './locate.js';
import { readZipEntry, ZipError } from './zip-entry.js';

export const RELEASE_REPO = 'openai/tunnel-client';
const GITHUB = { api: 'https://api.github.com', downloads: 'https://github.com' };
export const CHECKSUMS_NAME = 'SHA256SUMS.txt';
const MAX_ARCHIVE_BYTES = 300 * 1024 * 1024;
const RELEASE_TAG = /^v\d+\.\d+\.\d+[0-9A-Za-z.+-]*$/;

export type DownloadFailure = 'unsupported' | 'network' | 'http' | 'no-asset' | 'checksum' | 'archive' | 'not-executable' | 'write';

export class DownloadError extends Error {
  override name = 'DownloadError';
  constructor(
    readonly reason: DownloadFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface DownloadOptions {
  appDir: string;
  platform?: NodeJS.Platform;
  arch?: string;
  /** For tests only: a loopback server standing in for api.github.com and github.com. */
  sources?: { api: string; downloads: string };
  /** Environment for the first run (`--version`). */
  env: Record<string, string>;
  timeoutMs?: number;
}

export interface Installed {
  path: string;
  tag: string;
  asset: string;
  sha256: string;
  version: string;
}

const GO_OS: Partial<Record<NodeJS.Platform, string>> = { linux: 'linux', darwin: 'darwin', win32: 'windows' };
const GO_ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };

/** The release archive's name for this computer, as the release workflow names it. */
export function releaseAssetName(tag: string, platform: NodeJS.Platform, arch: string): string {
  const os = GO_OS[platform];
  const cpu = GO_ARCH[arch];
  if (!os || !cpu) {
    throw new DownloadError(
      'unsupported',
      `OpenAI publishes the tunnel client for Linux, macOS and Windows on x64 and arm64; this computer is ${platform}/${arch}. Build it from source and use that file.`,
    );
  }
  return `tunnel-client-${tag}-${os}-${cpu}.zip`;
}

/** `sha256sum` output: "<64 hex>  <name>" per line (a "*" before the name marks binary mode). */
export function checksumFor(sums: string, name: string): string | null {
  for (const line of sums.split(/\r?\n/)) {
    const match = /^([0-9a-fA-F]{64})\s+\*?(.+?)\s*$/.exec(line);
    if (match && match[2] === name) return match[1]!.toLowerCase();
  }
  return null;
}

export async function downloadClient(options: DownloadOptions): Promise<Installed> {
  const { appDir, platform = process.platform, arch = process.arch, sources = GITHUB, env, timeoutMs = 120_000 } = options;
  // Fails before any network use on a computer there is no build for.
  releaseAssetName('v0.0.0', platform, arch);

  const release = await getJson(`${sources.api}/repos/${RELEASE_REPO}/releases/latest`, timeoutMs);
  const tag = typeof release.tag_name === 'string' ? release.tag_name : '';
  if (!RELEASE_TAG.test(tag))
    throw new DownloadError('http', `GitHub's latest release of ${RELEASE_REPO} has an unexpected tag (${JSON.stringify(tag).slice(0, 40)}).`);
  const asset = releaseAssetName(tag, platform, arch);
  const published = new Set((Array.isArray(release.assets) ? release.assets : []).map((a: { name?: unknown }) => String(a?.name)));
  for (const needed of [asset, CHECKSUMS_NAME]) {
    if (!published.has(needed)) throw new DownloadError('no-asset', `Release ${tag} of ${RELEASE_REPO} has no ${needed}; nothing was installed.`);
  }

  const base = `${sources.downloads}/${RELEASE_REPO}/releases/download/${encodeURIComponent(tag)}`;
  const sums = (await getBytes(`${base}/${CHECKSUMS_NAME}`, 1024 * 1024, timeoutMs)).toString('utf8');
  const expected = checksumFor(sums, asset);
  if (!expected) throw new DownloadError('checksum', `${CHECKSUMS_NAME} of release ${tag} lists no checksum for ${asset}; nothing was installed.`);
  const archive = await getBytes(`${base}/${asset}`, MAX_ARCHIVE_BYTES, timeoutMs);
  const actual = createHash('sha256').update(archive).digest('hex');
  if (actual !== expected) {
    throw new DownloadError(
      'checksum',
      `Checksum mismatch: ${asset} has SHA-256 ${actual}, but release ${tag} publishes ${expected}. The download was discarded and nothing was run.`,
    );
  }

  // Verified: only now is the archive opened.
  let program: Buffer;
  try {
    program = readZipEntry(archive, clientFileName(platform));
  } catch (error) {
    throw new DownloadError('archive', `${asset}: ${error instanceof ZipError ? error.message : 'cannot be read'}; nothing was installed.`);
  }
  const target = appClientPath(appDir, platform);
  try {
    await writeFileAtomic(target, program, 0o700);
  } catch (error) {
    throw new DownloadError('write', `Cannot write ${target} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  const version = await clientVersion(target, env);
  if (version === null) {
    await fs.rm(target, { force: true });
    throw new DownloadError('not-executable', `${path.basename(target)} from ${asset} does not run on this computer (no answer to --version); it was removed.`);
  }
  return { path: target, tag, asset, sha256: actual, version };
}

async function request(url: string, timeoutMs: number): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/vnd.github+json, application/octet-stream', 'user-agent': 'chatgpt-computer-mcp' },
      redirect: 'follow',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new DownloadError(
      'network',
      `Cannot reach GitHub to download the tunnel client (${cause}). Check the internet connection or proxy, or use a tunnel-client you already have.`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new DownloadError('http', `GitHub answered ${response.status} for ${new URL(url).pathname}; nothing was installed.`);
  }
  return response;
}

async function getJson(url: string, timeoutMs: number): Promise<Record<string, unknown>> {
  const bytes = await getBytes(url, 4 * 1024 * 1024, timeoutMs);
  try {
    return JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new DownloadError('http', `GitHub's answer for ${new URL(url).pathname} is not JSON.`);
  }
}

async function getBytes(url: string, max: number, timeoutMs: number): Promise<Buffer> {
  const response = await request(url, timeoutMs);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      total += chunk.length;
      if (total > max) throw new DownloadError('http', `${new URL(url).pathname} is larger than ${max} bytes; nothing was installed.`);
      chunks.push(Buffer.from(chunk));
    }
  } catch (error) {
    if (error instanceof DownloadError) throw error;
    throw new DownloadError('network', `The download of ${path.posix.basename(new URL(url).pathname)} broke off; nothing was installed.`);
  }
  return Buffer.concat(chunks);
}
