/**
 * One upstream MCP server and its connection: started on first use (or with the server),
 * stopped after idle, restarted with backoff after a crash, every call bounded by the entry's
 * timeouts and cancelled with the front's request. A call never hangs on a dead upstream: it
 * fails with an error naming the upstream and its last stderr line (redacted).
 *
 * A command upstream runs through the adapter (ProcessOps.startPeer) from the plan its policy
 * made (main/policy/upstream.ts); an HTTP one is reached with the SDK's Streamable HTTP
 * transport and its bearer token from the keyring.
 */
import {
  Client,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type StandardSchemaV1,
  type Transport,
} from '@modelcontextprotocol/client';
import { adapterError, isComputerAdapterError } from '../../adapter/contract/errors.js';
import type { PeerProcess, ProcessOps } from '../../adapter/contract/processes.js';
import type { UpstreamConfig } from '../config/schema.js';
import type { Logger } from '../log.js';
import type { UpstreamPolicy } from '../policy/upstream.js';
import { SERVER_NAME, VERSION } from '../version.js';
import { PeerTransport } from './peer-transport.js';
import { redactLine } from './redact.js';
import { shownUrl } from '../config/shown-url.js';
import { boundedFetch } from './bounded-fetch.js';
import { discover, type Discovery } from './discover.js';

export type UpstreamState = 'disabled' | 'stopped' | 'starting' | 'running' | 'crashed';

/** What a start found, handed to the gateway to review (pins) and to list. */
export interface UpstreamDeps {
  entry: UpstreamConfig;
  policy: UpstreamPolicy;
  processes: Pick<ProcessOps, 'startPeer'>;
  /** The entry's env with its secret references resolved, and the HTTP bearer token. */
  secrets(): Promise<{ env: Record<string, string>; bearer: string | null }>;
  logger: Logger;
  /** Every connection's listing (pins are reviewed there); throwing refuses the connection. */
  discovered(discovery: Discovery): Promise<void>;
  /** The largest message an upstream may send, in bytes. */
  maxMessageBytes: number;
  /** Values never shown (the resolved secrets): stderr lines are scrubbed of them. */
  scrub(text: string): string;
}

interface Connection {
  client: Client;
  peer: PeerProcess | null;
  transport: Transport;
  startedAt: number;
}

/**
 * A call's result, checked only for its shape: the front passes it on as it is (the client that
 * asked checks it against the tool's schemas), so the SDK's full parse of every content block
 * would be paid twice; it cost more CPU than the rest of the hop (bench/scenarios/gateway.mjs).
 */
const CALL_RESULT = {
  '~standard': {
    version: 1,
    vendor: 'chatgpt-mcp-gateway',
    validate(value: unknown) {
      const result = value as { content?: unknown } | null;
      const blocks = result && typeof result === 'object' ? (result.content ?? []) : null;
      const ok = Array.isArray(blocks) && blocks.every((b) => b && typeof b === 'object' && typeof (b as { type?: unknown }).type === 'string');
      return ok
        ? { value: { ...result, content: blocks } as CallToolResult }
        : { issues: [{ message: 'not a tool result: content must be a list of content blocks' }] };
    },
  },
} as StandardSchemaV1<unknown, CallToolResult>;

/** A direct call's result (direct-calls.ts) as the client's request would return it: checked the same way. */
function callResult(raw: unknown): CallToolResult {
  // The 2025-era codec drops a resultType member, as a later revision's server may send one.
  let result = raw;
  if (raw && typeof raw === 'object' && 'resultType' in raw) {
    const copy: Record<string, unknown> = { ...raw };
    delete copy.resultType;
    result = copy;
  }
  const checked = CALL_RESULT['~standard'].validate(result) as StandardSchemaV1.Result<CallToolResult>;
  if (checked.issues) throw new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${checked.issues.map((i) => i.message).join(', ')}`);
  return checked.value;
}

/** Before the first revision with per-request envelopes a tools/call is plain JSON-RPC. */
function legacyEra(client: Client): boolean {
  const version = client.getNegotiatedProtocolVersion();
  return version !== undefined && version < '2026-07-28';
}

const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;
/** Running this long without a crash forgives earlier crashes. */
const HEALTHY_MS = 60_000;
const STOP_GRACE_MS = 2000;
const op = 'gateway.call';

export class Upstream {
  private state: UpstreamState;
  private connection: Connection | null = null;
  private starting: Promise<Connection> | null = null;
  /** Ends a start under way at once (stop): the server's end must not wait out a startup timeout. */
  private cancelStart: (() => void) | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private inFlight = 0;
  private crashes = 0;
  private nextStartAt = 0;
  private lastError: string | null = null;
  /** Why this process ended an HTTP upstream's connection (bounded-fetch.ts). */
  private httpFailure: string | null = null;
  /** Why this process ended the last connection (it sent too much), for the calls it cut short. */
  private stoppedFor: string | null = null;
  private lastStderr: string | null = null;
  private closing = false;
  /** The last process's pipes, kept after it died: its stderr explains the death. */
  private lastTransport: PeerTransport | null = null;
  calls = 0;
  failures = 0;

  constructor(private readonly deps: UpstreamDeps) {
    this.state = deps.entry.enabled ? 'stopped' : 'disabled';
  }

  get name(): string {
    return this.deps.entry.name;
  }

  snapshot() {
    return {
      state: this.state,
      pid: this.connection?.peer?.pid ?? null,
      lastError: this.lastError,
      lastStderr: this.lastStderr,
      calls: this.calls,
      failures: this.failures,
      crashes: this.crashes,
      nextStartAt: this.state === 'crashed' && this.nextStartAt > Date.now() ? new Date(this.nextStartAt).toISOString() : null,
    };
  }

  /** The connection, starting the upstream when it is not running (refused while it backs off after a crash). */
  async connect(): Promise<Connection> {
    if (this.connection) return this.connection;
    if (this.state === 'disabled') throw adapterError('PRECONDITION_FAILED', op, `${this.name} is disabled (gateway.servers: enabled is false)`);
    if (this.closing) throw adapterError('PRECONDITION_FAILED', op, `${this.name} is stopping with the server`);
    const wait = this.nextStartAt - Date.now();
    if (!this.starting && this.state === 'crashed' && wait > 0) {
      throw adapterError('PRECONDITION_FAILED', op, `${this.deadText()}; it restarts in ${Math.ceil(wait / 1000)} s`);
    }
    this.starting ??= this.start().finally(() => (this.starting = null));
    return this.starting;
  }

  /** Runs `work` on a live connection, counting it in flight (idle stop waits for it). */
  use<T>(work: (client: Client) => Promise<T>): Promise<T> {
    return this.on((connection) => work(connection.client));
  }

  private async on<T>(work: (connection: Connection) => Promise<T>): Promise<T> {
    this.inFlight++;
    this.clearIdle();
    try {
      const connection = await this.connect();
      const result = await work(connection);
      if (Date.now() - connection.startedAt > HEALTHY_MS) this.crashes = 0;
      return result;
    } catch (error) {
      throw this.explain(error);
    } finally {
      this.inFlight--;
      this.armIdle();
    }
  }

  callTool(
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onprogress?: (p: { progress: number; total?: number; message?: string }) => void },
  ): Promise<CallToolResult> {
    this.calls++;
    const { callTimeoutMs } = this.deps.entry;
    const params = { name: tool, arguments: args };
    const progress = options.onprogress ? { onprogress: options.onprogress } : {};
    return this.on(({ client, transport }) =>
      transport instanceof PeerTransport && legacyEra(client)
        ? transport.direct.call(params, { signal: options.signal, timeout: callTimeoutMs, ...progress }).then(callResult)
        : client.request({ method: 'tools/call', params }, CALL_RESULT, {
            signal: options.signal,
            timeout: callTimeoutMs,
            ...progress,
            resetTimeoutOnProgress: false,
          }),
    ).catch((error: unknown) => {
      this.failures++;
      throw error;
    });
  }

  /** Stops it (idle, the owner, the server's end); a later call starts it again. */
  async stop(reason: 'idle' | 'owner' | 'close' = 'owner'): Promise<void> {
    if (reason === 'close') this.closing = true;
    this.clearIdle();
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const starting = this.starting;
    this.cancelStart?.();
    if (starting) await starting.catch(() => undefined);
    const connection = this.connection;
    this.connection = null;
    if (this.state !== 'disabled' && this.state !== 'crashed') this.state = 'stopped';
    if (!connection) return;
    this.deps.logger.info('gateway upstream stopped', { upstream: this.name, reason });
    await connection.client.close().catch(() => undefined);
    await connection.peer?.stop(STOP_GRACE_MS);
  }

  private async start(): Promise<Connection> {
    const { entry, logger } = this.deps;
    this.state = 'starting';
    let peer: PeerProcess | null = null;
    let transport: Transport | undefined;
    const timer = { id: undefined as NodeJS.Timeout | undefined };
    try {
      const { env, bearer } = await this.deps.secrets();
      if (entry.url !== undefined) {
        const headers: Record<string, string> = bearer ? { authorization: `Bearer ${bearer}` } : {};
        const over = (why: string) => {
          this.httpFailure = why;
          void transport?.close();
        };
        transport = new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers }, fetch: boundedFetch(this.deps.maxMessageBytes, over) });
      } else {
        const plan = await this.deps.policy.plan(env);
        peer = await this.deps.processes.startPeer(plan);
        transport = this.lastTransport = new PeerTransport(peer, this.deps.maxMessageBytes);
      }
      const client = new Client({ name: SERVER_NAME, version: VERSION }, { capabilities: {} });
      const connected = (async () => {
        await client.connect(transport!);
        return discover(client);
      })();
      const deadline = new Promise<never>((_, reject) => {
        timer.id = setTimeout(
          () => reject(adapterError('TIMEOUT', 'gateway.start', `${this.name} did not finish starting within ${entry.startupTimeoutMs} ms (startupTimeoutMs)`)),
          entry.startupTimeoutMs,
        );
      });
      const cancelled = new Promise<never>((_, reject) => {
        this.cancelStart = () =>
          reject(Object.assign(adapterError('PRECONDITION_FAILED', 'gateway.start', `${this.name} was stopped while it started`), { cancelled: true }));
      });
      const discovery = await Promise.race([connected, deadline, cancelled]);
      await this.deps.discovered(discovery);
      const connection: Connection = { client, peer, transport: transport!, startedAt: Date.now() };
      this.connection = connection;
      this.state = 'running';
      this.lastError = this.stoppedFor = null;
      transport.onclose = chain(transport.onclose, () => this.closed(connection));
      if (peer) void peer.exited.then(() => this.closed(connection));
      logger.info('gateway upstream started', {
        upstream: this.name,
        ...(peer ? { pid: peer.pid } : { url: shownUrl(entry.url!) }),
        tools: discovery.tools.length,
      });
      this.armIdle();
      return connection;
    } catch (error) {
      await transport?.close().catch(() => undefined);
      await peer?.stop(STOP_GRACE_MS);
      // Stopped on purpose: not a crash to back off from.
      if ((error as { cancelled?: boolean }).cancelled) {
        this.state = 'stopped';
        throw error;
      }
      const failure = this.explain(error, 'start');
      this.crashed(failure.message);
      throw failure;
    } finally {
      clearTimeout(timer.id);
      this.cancelStart = null;
    }
  }

  /** The connection ended: on purpose (stop), or a crash (backoff, and a restart for an at-start upstream). */
  private closed(connection: Connection): void {
    if (this.connection !== connection) return;
    this.connection = null;
    const why = connection.transport instanceof PeerTransport ? connection.transport.failure : this.httpFailure;
    this.httpFailure = null;
    this.stoppedFor = why || null;
    this.crashed(why ? `${this.name} was stopped: ${why}` : `${this.name} exited`);
  }

  private crashed(message: string): void {
    if (this.closing) return;
    this.captureStderr();
    this.state = 'crashed';
    this.crashes++;
    this.lastError = message;
    this.nextStartAt = Date.now() + Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (this.crashes - 1));
    this.deps.logger.warn('gateway upstream failed', { upstream: this.name, error: message, restartInMs: this.nextStartAt - Date.now() });
    if (this.deps.entry.start === 'at-start') {
      this.restartTimer = setTimeout(() => void this.connect().catch(() => undefined), this.nextStartAt - Date.now());
      this.restartTimer.unref();
    }
  }

  /** What a dead upstream's tools answer: its name, what happened, its last stderr line. */
  private deadText(): string {
    const stderr = this.lastStderr ? `; its last stderr line: ${this.lastStderr}` : '';
    return `${this.lastError ?? `${this.name} is not running`}${stderr}`;
  }

  /** Any failure as an adapter error naming the upstream; the SDK's timeouts and closed connections in words. */
  private explain(error: unknown, phase: 'start' | 'call' = 'call'): Error {
    this.captureStderr();
    if (isComputerAdapterError(error)) {
      if (phase === 'start' && error.code !== 'TIMEOUT') return adapterError(error.code, 'gateway.start', this.withStderr(error.message));
      return error as unknown as Error;
    }
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      return adapterError('TIMEOUT', op, `${this.name} did not answer within ${this.deps.entry.callTimeoutMs} ms (callTimeoutMs); the call was cancelled`);
    }
    if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
      const why = this.stoppedFor ? `was stopped during the call: ${this.stoppedFor}` : 'exited during the call';
      return adapterError('OS_ERROR', op, this.withStderr(`${this.name} ${why}`));
    }
    const text = error instanceof Error ? error.message : String(error);
    const what = phase === 'start' ? `${this.name} could not start` : `${this.name} failed`;
    return adapterError(
      'OS_ERROR',
      phase === 'start' ? 'gateway.start' : op,
      this.withStderr(`${what}: ${this.deps.scrub(redactLine(text.split('\n')[0]!.slice(0, 300)))}`),
    );
  }

  private withStderr(message: string): string {
    return this.lastStderr ? `${message}; its last stderr line: ${this.lastStderr}` : message;
  }

  private captureStderr(): void {
    const last = this.lastTransport?.lastStderr().at(-1);
    if (last) this.lastStderr = this.deps.scrub(redactLine(last));
  }

  private armIdle(): void {
    const { idleStopMs } = this.deps.entry;
    if (idleStopMs === 0 || this.inFlight > 0 || !this.connection) return;
    this.clearIdle();
    this.idleTimer = setTimeout(() => void this.stop('idle'), idleStopMs);
    this.idleTimer.unref();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}

function chain(first: (() => void) | undefined, then: () => void): () => void {
  return () => {
    first?.();
    then();
  };
}
