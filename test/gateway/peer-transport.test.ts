/**
 * The upstream's pipes: messages framed by newlines whatever the chunking, junk lines counted and
 * a flood stopped, an oversized message stopped, a notification handled before the response
 * that follows it, stderr kept as its last lines.
 */
import { describe, expect, it } from 'vitest';
import type { PeerExit, PeerProcess } from '../../adapter/contract/processes.js';
import { PeerTransport } from '../../main/gateway/peer-transport.js';

function fakePeer() {
  let out: (chunk: Uint8Array) => void = () => {};
  let err: (chunk: Uint8Array) => void = () => {};
  let exit!: (e: PeerExit) => void;
  const written: string[] = [];
  let stopped = false;
  const peer: PeerProcess = {
    pid: 1,
    write: (data) => {
      written.push(data);
      return true;
    },
    onDrain: () => {},
    onStdout: (l) => void (out = l),
    onStderr: (l) => void (err = l),
    exited: new Promise((resolve) => (exit = resolve)),
    stop: async () => void (stopped = true),
  };
  const enc = (s: string) => new TextEncoder().encode(s);
  return { peer, written, out: (s: string) => out(enc(s)), err: (s: string) => err(enc(s)), exit: (e: PeerExit) => exit(e), stopped: () => stopped };
}

describe('PeerTransport', () => {
  it('frames messages across chunks and sends newline-delimited JSON', async () => {
    const fake = fakePeer();
    const transport = new PeerTransport(fake.peer, 1000);
    const got: unknown[] = [];
    transport.onmessage = (m) => void got.push(m);
    await transport.start();
    fake.out('{"jsonrpc":"2.0","id":1,"res');
    fake.out('ult":{}}\n{"jsonrpc":"2.0","id":2,"result":{}}\r\n');
    expect(got).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    await transport.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    expect(fake.written).toEqual(['{"jsonrpc":"2.0","id":3,"method":"ping"}\n']);
  });

  it('tolerates a few junk lines, and stops a flood of them', async () => {
    const fake = fakePeer();
    const transport = new PeerTransport(fake.peer, 1000);
    let closed = false;
    transport.onclose = () => void (closed = true);
    await transport.start();
    fake.out('starting up...\nnot json\n');
    expect(closed).toBe(false);
    fake.out('x\n'.repeat(250));
    expect(closed).toBe(true);
    expect(fake.stopped()).toBe(true);
    expect(transport.failure).toBe('it wrote more than 200 lines to stdout that are not MCP messages');
  });

  it('stops an upstream whose message grows past the bound, even without a newline', async () => {
    const fake = fakePeer();
    const transport = new PeerTransport(fake.peer, 100);
    await transport.start();
    fake.out('{"jsonrpc":"2.0","id":1,"result":"' + 'a'.repeat(200));
    expect(transport.failure).toBe('it sent a message over 100 bytes');
  });

  it("delivers a notification's handler before the response that follows it in the same chunk", async () => {
    const fake = fakePeer();
    const transport = new PeerTransport(fake.peer, 1000);
    const order: string[] = [];
    // Like the SDK: notification handlers run in a microtask, responses at once.
    transport.onmessage = (m) => {
      if ('id' in m) order.push('response');
      else void Promise.resolve().then(() => order.push('progress'));
    };
    await transport.start();
    fake.out('{"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n{"jsonrpc":"2.0","id":1,"result":{}}\n');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(order).toEqual(['progress', 'response']);
  });

  it('keeps the last stderr lines, and closes when the process exits', async () => {
    const fake = fakePeer();
    const transport = new PeerTransport(fake.peer, 1000);
    let closed = false;
    transport.onclose = () => void (closed = true);
    await transport.start();
    fake.err('one\ntwo\nthr');
    expect(transport.lastStderr()).toEqual(['one', 'two', 'thr']);
    fake.exit({ code: 1, signal: null });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(closed).toBe(true);
  });

  it('stops an upstream that does not read what it is sent, past the cap, with one drain listener', async () => {
    let drainListeners = 0;
    let stopped = false;
    const peer: PeerProcess = {
      pid: 1,
      write: () => false,
      onDrain: () => void drainListeners++,
      onStdout: () => {},
      onStderr: () => {},
      exited: new Promise(() => {}),
      stop: async () => void (stopped = true),
    };
    const transport = new PeerTransport(peer, 1000);
    let closed = false;
    transport.onclose = () => void (closed = true);
    await transport.start();
    const answer = { jsonrpc: '2.0' as const, id: 1, result: { padding: 'x'.repeat(1000) } };
    const sends: Array<Promise<void>> = [];
    for (let i = 0; i < 5000 && !closed; i++) sends.push(transport.send(answer).catch(() => undefined));
    expect(closed).toBe(true);
    expect(stopped).toBe(true);
    expect(transport.failure).toBe('it sent requests faster than it read the answers');
    expect(sends.length).toBeLessThan(4500);
    expect(drainListeners).toBe(1);
    // The sends left waiting settle (the connection is gone).
    await Promise.all(sends);
  });
});
