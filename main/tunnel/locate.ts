/**
 * Finding the tunnel client: the file the owner picked (config tunnel.clientPath), else the
 * app's own copy (what "Download" installs, in the protected app folder), else `tunnel-client`
 * on PATH. Asking it for its version is the first time it runs, and only after the download
 * step verified it (or the owner chose it).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { findExecutable } from '../../adapter/process/find-executable.js';
import type { TunnelClientInfo, TunnelClientLookup } from './status.js';
import { TRAY_WORDS, type TunnelWords } from './wording.js';

export const CLIENT_NAME = 'tunnel-client';

export function clientFileName(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? `${CLIENT_NAME}.exe` : CLIENT_NAME;
}

/** `<app config dir>/bin/tunnel-client`: inside the app folder no tool may touch. */
export function appClientPath(appDir: string, platform: NodeJS.Platform = process.platform): string {
  return path.join(appDir, 'bin', clientFileName(platform));
}

export interface LocateOptions {
  configured?: string | undefined;
  appDir: string;
  searchPath: string | undefined;
  platform?: NodeJS.Platform;
  words?: TunnelWords;
}

export interface FoundClient {
  found: string;
  real: string;
  source: TunnelClientInfo['source'];
}

export async function locateClient({
  configured,
  appDir,
  searchPath,
  platform = process.platform,
  words = TRAY_WORDS,
}: LocateOptions): Promise<FoundClient | { error: string; searched: string[] }> {
  if (configured) {
    const hit = await findExecutable(configured, undefined, path.dirname(configured), platform);
    if (hit) return { ...hit, source: 'configured' };
    return { error: `The tunnel client you chose (${configured}) is missing or not executable.`, searched: [configured] };
  }
  const own = appClientPath(appDir, platform);
  const ownHit = await findExecutable(own, undefined, appDir, platform);
  if (ownHit) return { ...ownHit, source: 'app-data' };
  const onPath = await findExecutable(CLIENT_NAME, searchPath, undefined, platform);
  if (onPath) return { ...onPath, source: 'path' };
  return { error: `No tunnel client found: ${words.getClient}.`, searched: [own, `${CLIENT_NAME} on PATH`] };
}

/** `tunnel-client --version`'s first line, or null when it does not answer in time. */
export function clientVersion(file: string, env: Record<string, string>, timeoutMs = 5000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(file, ['--version'], { env, timeout: timeoutMs, maxBuffer: 64 * 1024, windowsHide: true }, (error, stdout) => {
      if (error) return resolve(null);
      const line = stdout.split(/\r?\n/).find((l) => l.trim());
      resolve(line ? line.trim().slice(0, 200) : null);
    });
  });
}

/**
 * OpenAI's tunnel-client answers `--version` with its release version, "0.0.15" or
 * "0.0.15+<git sha> (git sha: <git sha>)" (cmd/client/root_command.go). Anything else is another
 * program: `/bin/true --version` prints "true (GNU coreutils) 9.1". A script could print the
 * same shape, so this proves what the program is not; only `tunnel download`'s SHA-256 check
 * proves what it is.
 */
export const CLIENT_VERSION_SHAPE = /^v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?(?: \(git sha: [0-9a-f]{7,64}\))?$/;

export async function describeClient(found: FoundClient, env: Record<string, string>): Promise<TunnelClientLookup> {
  const version = await clientVersion(found.found, env);
  if (version === null) {
    return {
      ok: false,
      error: `${found.found} did not answer "--version"; it may not be the tunnel client, or not built for this computer.`,
      searched: [found.found],
    };
  }
  if (!CLIENT_VERSION_SHAPE.test(version)) {
    return {
      ok: false,
      error: `${found.found} is not OpenAI's tunnel-client: asked for its version, it answered "${version.slice(0, 80)}" (the tunnel client answers with a version number like 0.0.15).`,
      searched: [found.found],
    };
  }
  return { ok: true, client: { path: found.found, source: found.source, version } };
}
