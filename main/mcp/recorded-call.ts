/**
 * What happens around every tool call, a built-in tool's or a gateway tool's: the activity
 * observer told when it starts and ends, one log line, and any error mapped to a stable code and
 * scrubbed of secrets. One wrapper, so what one tool's call gets, every tool's call gets.
 */
import type { AuthInfo, CallToolResult, ServerNotification } from '@modelcontextprotocol/server';
import { isComputerAdapterError, type ErrorCode } from '../../adapter/contract/errors.js';
import type { Logger } from '../log.js';
import { mapToolError } from './tool-errors.js';
import type { ToolNameRewriter } from './tool-names.js';
import type { Caller as ShapeCaller } from './answer/caller-shape.js';
import { callerName, callerOf, type Caller } from './caller.js';

/**
 * `tool`: the contract name; `exposed`: the name the client called it by (server.toolNames).
 * `client`: who called in one name (an OAuth client's, "bearer token", the host's), null when unknown;
 * `caller`: the same, in full (caller.ts); `profile`: the profile its credential got.
 */
type ToolCallFields = {
  tool: string;
  exposed?: string;
  id: string | number;
  target: Record<string, unknown>;
  client?: string | null;
  caller?: Caller;
  profile?: string;
};
export type ToolCallEvent = (ToolCallFields & { phase: 'start' }) | (ToolCallFields & { phase: 'end'; durationMs: number; outcome: 'ok' | ErrorCode });

export type ToolCallObserver = (event: ToolCallEvent) => void;

/** A tool call's handler, as the SDK (and the stdio wire's shortcut) calls it. */
export type CallHandler = (
  args: Record<string, unknown>,
  ctx: {
    mcpReq: {
      id: string | number;
      signal: AbortSignal;
      _meta?: { progressToken?: string | number };
      notify?: (notification: ServerNotification) => Promise<void>;
      /** The 2026-07-28 request's reserved _meta members, by their full keys. */
      envelope?: Record<string, unknown>;
    };
    http?: { authInfo?: AuthInfo };
    /** Who made the call (the factory adds it), for the answer's shape. */
    caller?: ShapeCaller;
  },
) => Promise<CallToolResult>;

export interface RecordContext {
  logger: Logger;
  secrets: readonly string[];
  observe: ToolCallObserver | undefined;
  ended: (() => void) | undefined;
  /** Tool names in the texts a model reads, as this config exposes them. */
  rename: ToolNameRewriter;
  exposed: string;
  /** The clientInfo of a 2025-era stdio connection's initialize. */
  initialized: () => { name?: unknown; version?: unknown } | undefined;
  /** The name of the profile a request's credential gets (profiles.ts). */
  profileOf?: (auth: AuthInfo | undefined) => string;
}

/**
 * Every call, a built-in tool's or a gateway tool's, passes here once: the activity observer,
 * the log line, the errors mapped and scrubbed of secrets. What a tool answers leaves from here.
 */
export function recorded(
  { logger, secrets, observe, ended, rename, exposed, initialized, profileOf }: RecordContext,
  name: string,
  targetFor: (args: Record<string, unknown>) => Record<string, unknown>,
  run: CallHandler,
): CallHandler {
  return async (args, ctx) => {
    const started = performance.now();
    const id = ctx.mcpReq.id;
    // Built only for a listener: with logging off and no activity view, a call pays for neither.
    let target: Record<string, unknown> | undefined;
    const targetOf = () => (target ??= targetFor(args));
    // Over HTTP the credential names the caller; without one, only stdio's own server knows the host.
    const caller = observe ? callerOf(ctx.http?.authInfo, ctx.mcpReq.envelope, ctx.http ? () => undefined : initialized) : undefined;
    const client = caller ? callerName(caller) : null;
    const profile = observe && profileOf ? { profile: profileOf(ctx.http?.authInfo) } : {};
    if (observe) safely(() => observe({ phase: 'start', tool: name, exposed, id, target: targetOf(), client, caller, ...profile }));
    const finish = (outcome: 'ok' | ErrorCode, unexpected?: unknown, operation?: string) => {
      const durationMs = elapsed(started);
      if (logger.enabled(unexpected === undefined ? 'info' : 'warn')) {
        // Which step refused or failed (runCommand, killProcess, service.control...) when it is not the tool itself.
        // The name as clients call it (fs_read), so a log line matches what the model sent.
        const fields = { tool: exposed, id, ...targetOf(), durationMs, outcome, ...(operation && operation !== name ? { operation } : {}) };
        if (unexpected === undefined) logger.info('tool call', fields);
        else logger.warn('tool call failed', { ...fields, error: describeUnknown(unexpected) });
      }
      if (observe) safely(() => observe({ phase: 'end', tool: name, exposed, id, target: targetOf(), client, caller, ...profile, durationMs, outcome }));
      if (ended) safely(ended);
    };
    try {
      const result = await run(args, ctx);
      // A command stopped at its deadline, or by its sandbox (a cover lost), answers normally, but did not do its job.
      const answer = result.structuredContent as { timedOut?: unknown; sandboxStopped?: unknown } | undefined;
      finish(answer?.timedOut === true ? 'TIMEOUT' : typeof answer?.sandboxStopped === 'string' ? 'PRECONDITION_FAILED' : 'ok');
      return result;
    } catch (error) {
      const mapped = mapToolError(error, exposed, secrets);
      finish(mapped.code, mapped.code === 'OS_ERROR' ? error : undefined, isComputerAdapterError(error) ? error.operation : undefined);
      const content = mapped.result.content.map((c) => (c.type === 'text' ? { ...c, text: rename.rewrite(c.text, args) } : c));
      return { ...mapped.result, content };
    }
  };
}

export function clientOf(auth: AuthInfo | undefined): string | null {
  if (!auth) return null;
  const name = auth.extra?.clientName;
  return typeof name === 'string' && name ? name : auth.clientId;
}

function safely(run: () => void): void {
  try {
    run();
  } catch {
    // an observer's failure must never fail the tool call
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}

/** Only the error's class and errno-style code: messages can carry paths or values. */
export function describeUnknown(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code ? `${error.name} (${code})` : error.name;
  }
  return typeof error;
}
