/**
 * Where an X11 display listens and the cookie it wants, from DISPLAY and XAUTHORITY, for the
 * in-process pointer client. Only local displays on the filesystem socket qualify: a TCP display
 * (ssh forwarding) and an abstract socket (which any local user could bind first and so receive
 * our cookie) are left to the desktop worker.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface X11Address {
  socketPath: string;
  display: number;
  screen: number;
}

export interface X11Cookie {
  name: string;
  data: Buffer;
}

const SOCKET_DIR = '/tmp/.X11-unix';
// ":0", ":0.1", "unix:0"; anything naming a host goes over TCP
const LOCAL_DISPLAY = /^(?:unix)?:(\d+)(?:\.(\d+))?$/;

/** The local display DISPLAY names, or undefined (not set, remote, or malformed). */
export function localX11Address(display: string | undefined): X11Address | undefined {
  const m = display === undefined ? null : LOCAL_DISPLAY.exec(display);
  if (!m) return undefined;
  const number = Number(m[1]);
  return { socketPath: path.join(SOCKET_DIR, `X${number}`), display: number, screen: Number(m[2] ?? 0) };
}

/**
 * Why the socket must not be trusted, or undefined: it must be a socket owned by root (a system
 * X server) or by us (Xvfb, a user session). Another user may create X<n> in the world-writable
 * socket directory when no server runs on that display.
 */
export function untrustedSocket(socketPath: string, uid = process.getuid?.()): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(socketPath);
  } catch {
    return `${socketPath} does not exist`;
  }
  if (!stat.isSocket()) return `${socketPath} is not a socket`;
  if (stat.uid !== 0 && stat.uid !== uid) return `${socketPath} belongs to another user`;
  // and nobody else may swap it between this check and the connect: the folder is root's or ours, sticky if others may write in it
  const dir = fs.lstatSync(path.dirname(socketPath));
  const othersWrite = (dir.mode & 0o022) !== 0;
  if ((dir.uid !== 0 && dir.uid !== uid) || (othersWrite && (dir.mode & 0o1000) === 0)) {
    return `${path.dirname(socketPath)} could let another user replace the socket (it must be root's or ours, and sticky if others may write in it)`;
  }
  return undefined;
}

/** Why the local display DISPLAY names must not be used at all, or undefined (not local, no socket: the worker finds out). */
export function untrustedDisplay(display: string | undefined): string | undefined {
  const address = localX11Address(display);
  if (!address || !fs.existsSync(address.socketPath)) return undefined;
  const problem = untrustedSocket(address.socketPath);
  return problem ? `refusing DISPLAY=${display}: ${problem}, so it may not be the X server of this session` : undefined;
}

const FAMILY_LOCAL = 256;
const FAMILY_WILD = 65535;
const COOKIE = 'MIT-MAGIC-COOKIE-1';
const MAX_XAUTHORITY_BYTES = 1024 * 1024;

/** The Xauthority file's MIT cookie for a local display, or undefined (no file, no entry: connect without one). */
export function readCookie(env: NodeJS.ProcessEnv, display: number, hostname = os.hostname()): X11Cookie | undefined {
  const file = env.XAUTHORITY || (env.HOME ? path.join(env.HOME, '.Xauthority') : undefined);
  if (!file) return undefined;
  let bytes: Buffer;
  try {
    // a regular file of sane size only: a FIFO or a device here would block the server's event loop
    const stat = fs.statSync(file);
    if (!stat.isFile() || stat.size > MAX_XAUTHORITY_BYTES) return undefined;
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  for (const entry of xauthEntries(bytes)) {
    const local = (entry.family === FAMILY_LOCAL && entry.address.toString('latin1') === hostname) || entry.family === FAMILY_WILD;
    const number = entry.number.toString('latin1');
    if (local && (number === '' || number === String(display)) && entry.name.toString('latin1') === COOKIE) {
      return { name: COOKIE, data: entry.data };
    }
  }
  return undefined;
}

interface XauthEntry {
  family: number;
  address: Buffer;
  number: Buffer;
  name: Buffer;
  data: Buffer;
}

/** The records of an Xauthority file (big-endian: family, then four length-prefixed fields); a truncated tail is ignored. */
export function* xauthEntries(bytes: Buffer): Generator<XauthEntry> {
  let at = 0;
  const field = (): Buffer | undefined => {
    if (at + 2 > bytes.length) return undefined;
    const length = bytes.readUInt16BE(at);
    if (at + 2 + length > bytes.length) return undefined;
    const value = bytes.subarray(at + 2, at + 2 + length);
    at += 2 + length;
    return value;
  };
  while (at + 2 <= bytes.length) {
    const family = bytes.readUInt16BE(at);
    at += 2;
    const [address, number, name, data] = [field(), field(), field(), field()];
    if (!address || !number || !name || !data) return;
    yield { family, address, number, name, data };
  }
}
