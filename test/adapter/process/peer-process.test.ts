/**
 * Protocol peers: real child processes with piped stdio. What goes in comes out, the
 * environment is exactly the one given, stop ends the whole group (a grandchild too, and one that
 * ignores SIGTERM), and closeAll ends every peer still alive.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PeerSet } from '../../../adapter/process/peer-process.js';
import type { PeerProcess } from '../../../adapter/contract/processes.js';
import { processesWith } from '../../helpers/proc.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';
import { eventually, writeScript } from './helpers.js';

let dir: string;
beforeAll(() => {
  dir = makeTempDir();
});
afterAll(() => removeDir(dir));

function collect(peer: PeerProcess): { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  peer.onStdout((chunk) => (out += Buffer.from(chunk).toString()));
  peer.onStderr((chunk) => (err += Buffer.from(chunk).toString()));
  return { out: () => out, err: () => err };
}

const echo = `process.stdin.on('data', (d) => process.stdout.write('got ' + d)); console.error('env', JSON.stringify(process.env));`;

describe.skipIf(process.platform === 'win32')('PeerSet', () => {
  it('pipes stdin to the program and its stdout and stderr back, with exactly the environment given', async () => {
    const peers = new PeerSet(process.platform);
    const peer = await peers.start({ file: process.execPath, args: ['-e', echo], env: { ONLY: 'this' } });
    const io = collect(peer);
    expect(peer.write('hello\n')).toBe(true);
    expect(await eventually(() => io.out() === 'got hello\n', 5000)).toBe(true);
    expect(await eventually(() => io.err().includes('env'), 5000)).toBe(true);
    expect(JSON.parse(io.err().slice(io.err().indexOf('{')))).toEqual({ ONLY: 'this' });
    await peer.stop(500);
    expect(await peer.exited).toMatchObject({ signal: 'SIGTERM' });
  });

  it('stop ends the whole group: a grandchild, and one that ignores SIGTERM', async () => {
    const script = writeScript(
      dir,
      'tree.sh',
      '#!/bin/sh\nsleep 4101.1 &\n(trap "" TERM; sleep 4101.2) &\necho ready\nwhile read line; do echo "$line"; done\n',
    );
    const peers = new PeerSet(process.platform);
    const peer = await peers.start({ file: script, args: [], env: { PATH: '/usr/bin:/bin' } });
    const io = collect(peer);
    expect(await eventually(() => io.out().includes('ready'), 5000)).toBe(true);
    // Both sleeps are seen once the forked shells have run them ('ready' can come first under load).
    expect(await eventually(() => processesWith('4101.').length === 2, 5000)).toBe(true);
    await peer.stop(300);
    expect(await eventually(() => processesWith('4101.').length === 0, 5000)).toBe(true);
  });

  it.runIf(process.platform === 'linux')('stop also ends a descendant that left the group (setsid), and one below it', async () => {
    // This run's own (a run killed earlier may have left its sleeps).
    const mark = `4104.${process.pid}`;
    const script = writeScript(
      dir,
      'daemon.sh',
      `#!/bin/sh\nsetsid sh -c "sleep ${mark}1 & (trap \\"\\" TERM; sleep ${mark}2) & wait" &\necho ready\nwhile read line; do echo "$line"; done\n`,
    );
    const peers = new PeerSet(process.platform);
    const peer = await peers.start({ file: script, args: [], env: { PATH: '/usr/bin:/bin' } });
    const io = collect(peer);
    expect(await eventually(() => io.out().includes('ready'), 5000)).toBe(true);
    // Both sleeps started (the shells around them name them in their command lines too, as many as are forked at the time).
    const sleeps = () => processesWith(mark).filter((p) => p.commandLine.startsWith(`sleep ${mark}`));
    expect(await eventually(() => sleeps().length === 2, 5000)).toBe(true);
    await peer.stop(300);
    expect(await eventually(() => processesWith(mark).length === 0, 5000)).toBe(true);
  });

  it('closeAll ends every live peer, and a peer that exits by itself settles exited', async () => {
    const peers = new PeerSet(process.platform);
    const quitter = await peers.start({ file: process.execPath, args: ['-e', 'process.exit(3)'], env: {} });
    expect(await quitter.exited).toEqual({ code: 3, signal: null });
    const sleeper = await peers.start({ file: process.execPath, args: ['-e', 'setInterval(() => {}, 1000); // 4102.1'], env: {} });
    // Seen once its program has replaced the forked copy (/proc shows the new command line a moment later under load).
    expect(await eventually(() => processesWith('4102.1').length === 1, 5000)).toBe(true);
    await peers.closeAll(300);
    expect(await sleeper.exited).toMatchObject({ signal: 'SIGTERM' });
    expect(processesWith('4102.1')).toEqual([]);
  });

  it('a program that cannot start is a NOT_FOUND naming it', async () => {
    const peers = new PeerSet(process.platform);
    await expect(peers.start({ file: path.join(dir, 'missing'), args: [], env: {} })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
