/** Unread answers, counted on real loopback sockets whose reader stops and resumes. */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplyBacklog } from '../../main/mcp/reply-backlog.js';

const MIB = 1024 * 1024;
const closers: (() => void)[] = [];

afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A connected pair: `writer` is the server's side; `reader` stays paused until the test resumes it. */
async function socketPair(): Promise<{ writer: net.Socket; reader: net.Socket }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const reader = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  reader.pause();
  const writer = await accepted;
  closers.push(() => {
    writer.destroy();
    reader.destroy();
    server.close();
  });
  return { writer, reader };
}

describe('ReplyBacklog', () => {
  it('counts what a stopped reader has not taken, and says when it has', async () => {
    const backlog = new ReplyBacklog();
    const { writer, reader } = await socketPair();
    backlog.watch(writer);
    expect(backlog.pendingBytes).toBe(0);
    await expect(backlog.whenAtMost(0, 10)).resolves.toBe(true);

    writer.write(Buffer.alloc(16 * MIB));
    // The kernel's socket buffers take a few MiB at most; the rest waits in this process.
    expect(backlog.pendingBytes).toBeGreaterThan(8 * MIB);
    await expect(backlog.whenAtMost(MIB, 100)).resolves.toBe(false);

    const drained = backlog.whenAtMost(MIB, 10_000);
    reader.resume();
    await expect(drained).resolves.toBe(true);
    expect(backlog.pendingBytes).toBeLessThanOrEqual(MIB);
  });

  it('stops waiting when the request is cancelled, and forgets a closed stream', async () => {
    const backlog = new ReplyBacklog();
    const { writer } = await socketPair();
    backlog.watch(writer);
    writer.write(Buffer.alloc(16 * MIB));
    const abort = new AbortController();
    const waiting = backlog.whenAtMost(0, 10_000, abort.signal);
    abort.abort();
    await expect(waiting).resolves.toBe(false);
    await expect(backlog.whenAtMost(0, 10_000, abort.signal)).resolves.toBe(false);

    const afterClose = backlog.whenAtMost(0, 10_000);
    writer.destroy();
    await expect(afterClose).resolves.toBe(true);
    expect(backlog.pendingBytes).toBe(0);
  });
});
