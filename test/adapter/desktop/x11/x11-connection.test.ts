/**
 * The X11 protocol client's bookkeeping against a real Xvfb: errors matched to the exchange whose
 * request failed, replies matched after the 16-bit sequence number wraps, and a hung server.
 */
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { localX11Address } from '../../../../adapter/desktop/x11/x11-address.js';
import { X11Connection } from '../../../../adapter/desktop/x11/x11-connection.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';
import { missingDesktopPrereq, skipDesktop, startXvfb, type Xvfb } from '../fixtures/xvfb.js';

const missing = missingDesktopPrereq();

const request = (opcode: number, words: number[]) => {
  const out = Buffer.alloc(4 + words.length * 4);
  out.writeUInt8(opcode, 0);
  out.writeUInt16LE(1 + words.length, 2);
  words.forEach((word, i) => out.writeUInt32LE(word, 4 + i * 4));
  return out;
};
const queryPointer = (window: number) => request(38, [window]);
/** WarpPointer to (x, y) on `window` (src None, no source rectangle). */
const warp = (window: number, x: number, y: number) => request(41, [0, window, 0, 0, (y << 16) | x]);
const BAD_WINDOW = 0x3fffff;

describe.skipIf(skipDesktop(missing, 'X11 connection tests'))('X11Connection on a real display', () => {
  let xvfb: Xvfb;
  let connection: X11Connection;
  const open = (display = xvfb.display) => X11Connection.open(localX11Address(display)!.socketPath, 0, undefined, 5000);

  beforeAll(async () => {
    if (missing) throw new Error(`REQUIRE_DESKTOP_TESTS=1 but ${missing}`);
    xvfb = await startXvfb(640, 480);
    connection = await open();
  });
  afterAll(async () => {
    connection?.close();
    await xvfb?.stop();
  });

  test('an error for any request of an exchange fails that exchange only, with the X error code', async () => {
    const root = connection.screen.root;
    await expect(connection.exchange([queryPointer(BAD_WINDOW)], 5000)).rejects.toMatchObject({ code: 3, message: /X error 3, request 38/ }); // BadWindow
    // the failing warp comes first; the query after it is answered, and the exchange still fails
    const failing = connection.exchange([warp(BAD_WINDOW, 1, 1), queryPointer(root)], 5000);
    const next = connection.exchange([warp(root, 30, 40), queryPointer(root)], 5000);
    await expect(failing).rejects.toMatchObject({ code: 3, message: /request 41/ });
    const reply = await next;
    expect([reply.readInt16LE(16), reply.readInt16LE(18)]).toEqual([30, 40]);
  });

  test('replies still match after the sequence number wraps past 65535', async () => {
    const root = connection.screen.root;
    for (let round = 0; round < 3; round++) {
      const warps = Array.from({ length: 30_000 }, (_, i) => warp(root, i % 600, round));
      const reply = await connection.exchange([...warps, queryPointer(root)], 20_000);
      expect([reply.readInt16LE(16), reply.readInt16LE(18)]).toEqual([29_999 % 600, round]);
    }
    await expect(connection.exchange([queryPointer(BAD_WINDOW)], 5000)).rejects.toMatchObject({ code: 3 });
    const reply = await connection.exchange([queryPointer(root)], 5000);
    expect(reply.readUInt32LE(8)).toBe(root);
  }, 30_000);

  test('a server that stops answering times the exchange out and closes the connection', async () => {
    const frozen = await startXvfb(320, 240);
    const own = await open(frozen.display);
    process.kill(frozen.pid, 'SIGSTOP');
    try {
      await expect(own.exchange([queryPointer(own.screen.root)], 300)).rejects.toThrow('the X server did not answer within 300 ms');
      expect(own.closed).toBe(true);
      await expect(own.exchange([queryPointer(own.screen.root)], 300)).rejects.toThrow('did not answer within 300 ms');
    } finally {
      process.kill(frozen.pid, 'SIGCONT');
      await frozen.stop();
    }
  });
});

/** A one-screen setup reply (no vendor, formats or depths): root 0x100, 640x480. */
function setupReply(): Buffer {
  const reply = Buffer.alloc(80);
  reply.writeUInt8(1, 0);
  reply.writeUInt16LE(11, 2);
  reply.writeUInt16LE((80 - 8) / 4, 6);
  reply.writeUInt8(1, 28); // screens
  reply.writeUInt32LE(0x100, 40);
  reply.writeUInt16LE(640, 60);
  reply.writeUInt16LE(480, 62);
  return reply;
}

describe('X11Connection against a broken server (a Unix socket of our own)', () => {
  test('a reply claiming a huge length closes the connection instead of buffering forever', async () => {
    const dir = makeTempDir('x11-fake-');
    const socketPath = path.join(dir, 'X0');
    const server = net.createServer((socket) => {
      socket.once('data', () => socket.write(setupReply()));
      let handshake = true;
      socket.on('data', () => {
        if (handshake) return void (handshake = false);
        const reply = Buffer.alloc(32);
        reply.writeUInt8(1, 0);
        reply.writeUInt32LE(0x40000000, 4); // 4 GiB to follow
        socket.write(reply);
      });
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const connection = await X11Connection.open(socketPath, 0, undefined, 2000);
      expect(connection.screen).toEqual({ root: 0x100, width: 640, height: 480 });
      await expect(connection.exchange([queryPointer(0x100)], 2000)).rejects.toThrow(/sent a packet of \d+ bytes; the connection was closed/);
      expect(connection.closed).toBe(true);
    } finally {
      server.close();
      removeDir(dir);
    }
  });

  test('a refused or truncated handshake is a clear error, never a hang', async () => {
    const dir = makeTempDir('x11-fake-');
    const socketPath = path.join(dir, 'X0');
    let mode = 'refuse';
    const server = net.createServer((socket) => {
      socket.once('data', () => {
        if (mode === 'refuse') {
          const reason = Buffer.from('No protocol specified', 'latin1');
          const reply = Buffer.alloc(8 + 24);
          reply.writeUInt8(0, 0);
          reply.writeUInt8(reason.length, 1);
          reply.writeUInt16LE(24 / 4, 6);
          reason.copy(reply, 8);
          socket.write(reply);
        } else socket.write(setupReply().subarray(0, 40)); // then silence
      });
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      await expect(X11Connection.open(socketPath, 0, undefined, 2000)).rejects.toThrow('the X server refused the connection: No protocol specified');
      mode = 'truncated';
      await expect(X11Connection.open(socketPath, 0, undefined, 300)).rejects.toThrow('did not answer the handshake within 300 ms');
    } finally {
      server.close();
      removeDir(dir);
    }
  });
});
