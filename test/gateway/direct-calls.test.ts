/**
 * A gateway tool call written straight on an upstream's pipes: its line, its answer and its
 * progress taken out before the SDK client sees them, and the SDK's own errors for a timeout, a
 * cancellation (the upstream told), an error answer and closed pipes; every other message, and
 * an answer to the client's own request, still reaches the client.
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { PeerExit, PeerProcess } from '../../adapter/contract/processes.js';
import { PeerTransport } from '../../main/gateway/peer-transport.js';

function wired() {
  let out: (chunk: Uint8Array) => void = () => {};
  let exit!: (e: PeerExit) => void;
  const written: Array<Record<string, unknown>> = [];
  const peer: PeerProcess = {
    pid: 1,
    write: (data) => {
      for (const line of data.split('\n').filter(Boolean)) written.push(JSON.parse(line) as Record<string, unknown>);
      return true;
    },
    onDrain: () => {},
    onStdout: (l) => void (out = l),
    onStderr: () => {},
    exited: new Promise((resolve) => (exit = resolve)),
    stop: async () => {},
  };
  const transport = new PeerTransport(peer, 100_000);
  const forClient: unknown[] = [];
  transport.onmessage = (m) => void forClient.push(m);
  const reply = (message: Record<string, unknown>) => out(new TextEncoder().encode(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`));
  return { transport, written, forClient, reply, exit: () => exit({ code: 0, signal: null }) };
}

const params = { name: 'echo', arguments: { text: 'hi' } };

describe('DirectCalls on a PeerTransport', () => {
  it('writes one tools/call line and resolves with its answer; the client sees neither, but still gets its own', async () => {
    const pipe = wired();
    await pipe.transport.start();
    const call = pipe.transport.direct.call(params, { signal: new AbortController().signal, timeout: 10_000 });
    expect(pipe.written).toHaveLength(1);
    const request = pipe.written[0]!;
    expect(request).toMatchObject({ jsonrpc: '2.0', method: 'tools/call', params });
    expect(typeof request.id).toBe('number');
    pipe.reply({ id: 3, result: { tools: [] } });
    pipe.reply({ method: 'notifications/message', params: { level: 'info', data: 'x' } });
    pipe.reply({ id: request.id, result: { content: [{ type: 'text', text: 'hi' }] } });
    await expect(call).resolves.toEqual({ content: [{ type: 'text', text: 'hi' }] });
    await Promise.resolve();
    expect(pipe.forClient).toEqual([
      { jsonrpc: '2.0', id: 3, result: { tools: [] } },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
    ]);
  });

  it('asks for progress with its own id as the token and relays each report before the answer', async () => {
    const pipe = wired();
    await pipe.transport.start();
    const steps: unknown[] = [];
    const call = pipe.transport.direct.call(params, { signal: new AbortController().signal, timeout: 10_000, onprogress: (p) => void steps.push(p) });
    const { id, params: sent } = pipe.written[0] as { id: number; params: { _meta: { progressToken: number } } };
    expect(sent._meta.progressToken).toBe(id);
    pipe.reply({ method: 'notifications/progress', params: { progressToken: id, progress: 1, total: 2 } });
    pipe.reply({ method: 'notifications/progress', params: { progressToken: 'someone-else', progress: 1 } });
    pipe.reply({ id, result: { content: [] } });
    await call;
    expect(steps).toEqual([{ progress: 1, total: 2 }]);
    await Promise.resolve();
    expect(pipe.forClient).toEqual([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'someone-else', progress: 1 } }]);
  });

  it('fails an error answer with the protocol error the SDK raises', async () => {
    const pipe = wired();
    await pipe.transport.start();
    const call = pipe.transport.direct.call(params, { signal: new AbortController().signal, timeout: 10_000 });
    pipe.reply({ id: pipe.written[0]!.id, error: { code: -32602, message: 'Unknown tool: echo' } });
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602, message: 'Unknown tool: echo' });
  });

  it('at its timeout tells the upstream and fails as the SDK does; a late answer is dropped', async () => {
    const pipe = wired();
    await pipe.transport.start();
    const error = await pipe.transport.direct.call(params, { signal: new AbortController().signal, timeout: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe(SdkErrorCode.RequestTimeout);
    const id = pipe.written[0]!.id;
    expect(pipe.written[1]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: id } });
    pipe.reply({ id, result: { content: [] } });
    expect(pipe.forClient).toEqual([]);
  });

  it('cancelled by the front, it tells the upstream why', async () => {
    const pipe = wired();
    await pipe.transport.start();
    const front = new AbortController();
    const call = pipe.transport.direct.call(params, { signal: front.signal, timeout: 10_000 });
    front.abort('the client cancelled');
    await expect(call).rejects.toThrow('the client cancelled');
    expect(pipe.written[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: pipe.written[0]!.id, reason: 'the client cancelled' },
    });
    await expect(pipe.transport.direct.call(params, { signal: front.signal, timeout: 10_000 })).rejects.toThrow('the client cancelled');
    expect(pipe.written).toHaveLength(2);
  });

  it('fails every waiting call when the upstream exits', async () => {
    const pipe = wired();
    await pipe.transport.start();
    const calls = [1, 2].map(() => pipe.transport.direct.call(params, { signal: new AbortController().signal, timeout: 10_000 }).catch((e: unknown) => e));
    pipe.exit();
    for (const error of await Promise.all(calls)) expect((error as SdkError).code).toBe(SdkErrorCode.ConnectionClosed);
    await expect(pipe.transport.direct.call(params, { signal: new AbortController().signal, timeout: 10_000 })).rejects.toThrow('the upstream has exited');
  });
});
