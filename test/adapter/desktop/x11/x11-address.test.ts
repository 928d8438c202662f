/**
 * Which displays the in-process pointer may use, and the cookie it sends: DISPLAY forms, the
 * socket's owner, and Xauthority files written by the real `xauth`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { localX11Address, readCookie, untrustedSocket, xauthEntries } from '../../../../adapter/desktop/x11/x11-address.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';
import { onPath } from '../fixtures/xvfb.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});
const tempDir = () => {
  const dir = makeTempDir('x11-address-');
  dirs.push(dir);
  return dir;
};

describe('localX11Address', () => {
  test.each([
    [':0', { socketPath: '/tmp/.X11-unix/X0', display: 0, screen: 0 }],
    [':12.1', { socketPath: '/tmp/.X11-unix/X12', display: 12, screen: 1 }],
    ['unix:3', { socketPath: '/tmp/.X11-unix/X3', display: 3, screen: 0 }],
  ])('%s is a local display', (display, expected) => {
    expect(localX11Address(display)).toEqual(expected);
  });

  test.each([undefined, '', 'localhost:10.0', '192.168.1.5:0', ':', ':x', ':0.', '/tmp/launch-abc/org.xquartz:0', ':1/../../etc'])(
    '%s is not (TCP, malformed, or a path: left to the worker)',
    (display) => {
      expect(localX11Address(display)).toBeUndefined();
    },
  );
});

describe('untrustedSocket', () => {
  const listen = async (socketPath: string) => {
    const server = net.createServer().listen(socketPath);
    await new Promise((resolve) => server.once('listening', resolve));
    return server;
  };

  test('a socket of ours is trusted; a file, a symlink to the socket or nothing is not', async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'X7');
    const server = await listen(socketPath);
    try {
      expect(untrustedSocket(socketPath)).toBeUndefined();
      fs.writeFileSync(path.join(dir, 'X8'), '');
      expect(untrustedSocket(path.join(dir, 'X8'))).toBe(`${path.join(dir, 'X8')} is not a socket`);
      expect(untrustedSocket(path.join(dir, 'X9'))).toBe(`${path.join(dir, 'X9')} does not exist`);
      fs.symlinkSync(socketPath, path.join(dir, 'X10')); // the path itself must be the socket
      expect(untrustedSocket(path.join(dir, 'X10'))).toBe(`${path.join(dir, 'X10')} is not a socket`);
    } finally {
      server.close();
    }
  });

  test("the folder must be ours or root's, and sticky when others may write in it (else the socket could be swapped)", async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'X3');
    const server = await listen(socketPath);
    try {
      fs.chmodSync(dir, 0o777);
      expect(untrustedSocket(socketPath)).toMatch(/could let another user replace the socket/);
      fs.chmodSync(dir, 0o1777);
      expect(untrustedSocket(socketPath)).toBeUndefined();
      fs.chmodSync(dir, 0o700);
    } finally {
      server.close();
    }
  });

  test("another user's socket is refused; root's is trusted", async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'X1');
    const server = await listen(socketPath);
    try {
      const owner = fs.statSync(socketPath).uid;
      if (owner === 0) {
        expect(untrustedSocket(socketPath, 1000)).toBeUndefined(); // a system X server's socket
        fs.chownSync(socketPath, 4242, 4242); // as root: hand it to someone else
        expect(untrustedSocket(socketPath, 1000)).toBe(`${socketPath} belongs to another user`);
      } else {
        expect(untrustedSocket(socketPath, owner + 1)).toBe(`${socketPath} belongs to another user`);
      }
    } finally {
      server.close();
    }
  });
});

describe.skipIf(!onPath('xauth'))('readCookie from files the real xauth wrote', () => {
  const cookie = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
  const xauth = (file: string, ...args: string[]) => {
    const run = spawnSync('xauth', ['-f', file, ...args], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
  };

  test('the entry for this host and display number, from XAUTHORITY', () => {
    const file = path.join(tempDir(), 'auth');
    xauth(file, 'add', ':5', 'MIT-MAGIC-COOKIE-1', 'ffffffffffffffffffffffffffffffff');
    xauth(file, 'add', ':7', 'MIT-MAGIC-COOKIE-1', cookie);
    expect(readCookie({ XAUTHORITY: file }, 7)).toEqual({ name: 'MIT-MAGIC-COOKIE-1', data: Buffer.from(cookie, 'hex') });
    expect(readCookie({ XAUTHORITY: file }, 6)).toBeUndefined();
    // another host's entry for the same number does not count
    expect(readCookie({ XAUTHORITY: file }, 7, `not-${os.hostname()}`)).toBeUndefined();
  });

  test('~/.Xauthority when XAUTHORITY is not set; a wildcard entry matches every display', () => {
    const home = tempDir();
    const file = path.join(home, '.Xauthority');
    xauth(file, 'add', ':9', 'MIT-MAGIC-COOKIE-1', cookie);
    expect(readCookie({ HOME: home }, 9)?.data.toString('hex')).toBe(cookie);
    // FamilyWild (what `xauth add` writes for a display it cannot name a host for), empty number
    const wild = path.join(home, 'wild');
    const entry = Buffer.concat([u16(65535), field(''), field(''), field('MIT-MAGIC-COOKIE-1'), field(Buffer.from(cookie, 'hex'))]);
    fs.writeFileSync(wild, entry);
    expect(readCookie({ XAUTHORITY: wild }, 42)?.data.toString('hex')).toBe(cookie);
  });

  test('a FIFO as XAUTHORITY is not read (it would block the server)', () => {
    const fifo = path.join(tempDir(), 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const started = Date.now();
    expect(readCookie({ XAUTHORITY: fifo }, 0)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test('no file, an empty one, or a truncated one: no cookie and no throw', () => {
    const dir = tempDir();
    expect(readCookie({ XAUTHORITY: path.join(dir, 'missing') }, 0)).toBeUndefined();
    expect(readCookie({}, 0)).toBeUndefined();
    const file = path.join(dir, 'auth');
    xauth(file, 'add', ':1', 'MIT-MAGIC-COOKIE-1', cookie);
    const whole = fs.readFileSync(file);
    expect([...xauthEntries(whole)]).toHaveLength(1);
    fs.writeFileSync(file, whole.subarray(0, whole.length - 3));
    expect([...xauthEntries(fs.readFileSync(file))]).toHaveLength(0);
    expect(readCookie({ XAUTHORITY: file }, 1)).toBeUndefined();
  });
});

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const field = (value: string | Buffer) => {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  return Buffer.concat([u16(bytes.length), bytes]);
};
