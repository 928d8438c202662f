/**
 * A gateway tool's `tools/call` to a stdio upstream as plain JSON-RPC on its pipes, beside the
 * SDK client that shares them: the request written as one line, its answer and its progress
 * picked out of the lines the upstream sends back before the client sees them. Everything else
 * (the handshake, listings, resources, prompts, the upstream's own requests) stays the client's.
 * Used only on a connection that negotiated a 2025-era revision, where a tools/call is nothing
 * more than that (no envelope, no input-required rounds); the timeout, the cancellation sent to
 * the upstream and the errors are the SDK's own, so a call fails the same either way. The SDK's
 * per-request machinery cost more CPU per call than everything else the hop does in JavaScript
 * (bench/scenarios/gateway.mjs).
 */
import { ProtocolError, SdkError, SdkErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/client';

/**
 * Our request ids: far above the SDK client's, which counts up from 0 on the same connection, so
 * an answer is never taken for the other's.
 */
const FIRST_ID = 1_000_000_000;

export type Progress = { progress: number; total?: number; message?: string };

export interface DirectCallOptions {
  signal: AbortSignal;
  timeout: number;
  onprogress?: (progress: Progress) => void;
}

interface Pending {
  settle(outcome: { result: unknown } | { error: Error }): void;
  onprogress?: (progress: Progress) => void;
}

export class DirectCalls {
  private next = FIRST_ID;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly send: (message: JSONRPCMessage) => Promise<void>) {}

  /** The upstream's raw result (the caller checks its shape), or the SDK's error for the same failure. */
  call(params: { name: string; arguments: Record<string, unknown> }, { signal, timeout, onprogress }: DirectCallOptions): Promise<unknown> {
    if (signal.aborted) return Promise.reject(asTimeout(signal.reason));
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const settle = (outcome: { result: unknown } | { error: Error }) => {
        this.pending.delete(id);
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if ('error' in outcome) reject(outcome.error);
        else resolve(outcome.result);
      };
      // As the SDK cancels: the upstream is told, the call fails at once.
      const cancel = (reason: unknown) => {
        if (!this.pending.has(id)) return;
        settle({ error: asTimeout(reason) });
        this.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(reason) } }).catch(() => undefined);
      };
      const onAbort = () => cancel(signal.reason);
      const timer = setTimeout(() => cancel(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout })), timeout);
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, { settle, ...(onprogress ? { onprogress } : {}) });
      const sent = onprogress ? { ...params, _meta: { progressToken: id } } : params;
      this.send({ jsonrpc: '2.0', id, method: 'tools/call', params: sent }).catch((error: unknown) => {
        if (this.pending.has(id)) settle({ error: error instanceof Error ? error : new Error(String(error)) });
      });
    });
  }

  /** True when `message` is one of our calls' answers or progress (then it is handled here, not by the client). */
  take(message: JSONRPCMessage): boolean {
    if ('method' in message) {
      if (message.method !== 'notifications/progress' || !('params' in message)) return false;
      const { progressToken, ...progress } = (message.params ?? {}) as { progressToken?: unknown } & Progress;
      if (!this.ours(progressToken)) return false;
      this.pending.get(progressToken as number)?.onprogress?.(progress);
      return true;
    }
    const { id } = message as { id?: unknown };
    if (!this.ours(id)) return false;
    // An answer to a call already given up on (timed out, cancelled) is dropped, as the SDK drops its own.
    const call = this.pending.get(id as number);
    if (!call) return true;
    if ('result' in message) call.settle({ result: message.result });
    else {
      const { code, message: text, data } = (message as { error: { code: number; message: string; data?: unknown } }).error;
      call.settle({ error: ProtocolError.fromError(code, text, data) });
    }
    return true;
  }

  /** The pipes closed: every call still waiting fails as the SDK fails its own. */
  closed(): void {
    for (const call of [...this.pending.values()]) call.settle({ error: new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed') });
  }

  private ours(id: unknown): boolean {
    return typeof id === 'number' && id >= FIRST_ID && id < this.next;
  }
}

function asTimeout(reason: unknown): SdkError {
  return reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}
