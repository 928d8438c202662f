/**
 * What a tool is: its public contract (name, schemas, annotations), the grant that exposes it,
 * and a handler that talks only to the ComputerAdapter. The server registers these;
 * handlers never see MCP request objects or the transport.
 */
import type * as z from 'zod';
import type { ContentBlock, ToolAnnotations } from '@modelcontextprotocol/server';
import type { ComputerAdapter } from '../../adapter/contract/computer-adapter.js';
import type { Config } from '../config/schema.js';
import type { ContractFingerprint } from './contract-fingerprint.js';
import type { ChangeRecorder } from './change-recorder.js';
import type { Caller } from './caller.js';
import type { AppPolicy } from '../policy/apps.js';
import type { Grant } from '../policy/grants.js';
import type { DesktopPolicy } from '../policy/desktop.js';
import type { FilesystemPolicy } from '../policy/filesystem.js';
import type { GitPolicy } from '../policy/git.js';
import type { ChecksPolicy } from '../policy/checks.js';
import type { SizeLimits } from '../policy/size-limits.js';
import type { ChildLimiter } from '../policy/child-limiter.js';
import type { PathLock } from '../policy/path-lock.js';
import type { ProgramRunner } from '../policy/program-runner.js';
import type { ProcessPolicy } from '../policy/process.js';
import type { SandboxPolicy } from '../policy/sandbox.js';
import type { ServicePolicy } from '../policy/services.js';
import type { ShellPolicy } from '../policy/shell.js';
import type { UrlPolicy } from '../policy/url-policy.js';
import type { AnswerStore } from './answer/answer-store.js';

/** The policies built once per config; every tool asks these before calling the adapter. */
export interface Policies {
  filesystem: FilesystemPolicy;
  shell: ShellPolicy;
  /** The OS sandbox commands run in (shell.sandbox): ShellPolicy puts its plan on every command. */
  sandbox: SandboxPolicy;
  /** Held by fs tools around each operation, per path (see path-lock.ts). */
  fsLock: PathLock;
  /** Every program a tool runs: a command the model named, or a helper the tool needs (ripgrep). */
  programs: ProgramRunner;
  process: ProcessPolicy;
  apps: AppPolicy;
  services: ServicePolicy;
  urls: UrlPolicy;
  /** Bounds the children running at once (shell.maxConcurrent), across every request. */
  children: ChildLimiter;
  desktop: DesktopPolicy;
  /** The owner's size caps (read, write, search, patch). */
  sizes: SizeLimits;
  /** Which repository a git tool may work on, and the git run there. */
  git: GitPolicy;
  /** The project checks verify_changes runs (checks.projects). */
  checks: ChecksPolicy;
}

export interface ToolDeps {
  config: Readonly<Config>;
  adapter: ComputerAdapter;
  policy: Policies;
  /** Records what this call changes, for the owner's undo (the host binds it to the calling client). */
  changes: ChangeRecorder;
  /** Names of the tools this server exposes (for system.info's summary). */
  enabledTools: readonly string[];
  /** The fingerprint of the exposed tools as clients see them (contract-fingerprint.ts). */
  contract(): ContractFingerprint;
  /** What cut answers left out, for answer.more (main/mcp/answer/). */
  answers: AnswerStore;
  /** The owner's other MCP servers behind the gateway, as they stand now (system.info). */
  upstreams?: () => ReadonlyArray<{
    name: string;
    prefix: string;
    state: string;
    tools: readonly string[];
    held: readonly unknown[];
    lastError: string | null;
  }>;
  /** The audit log, to read (main/audit/), when the server keeps one. */
  audit?: AuditReader;
}

export interface AuditReader {
  /** Matching calls, oldest first (the newest `limit`). */
  search(query: AuditQuery): AuditedCall[];
}

/** What narrows an audit search (main/audit/audit-query.ts reads the log with it). */
export interface AuditQuery {
  tool?: string;
  /** Matched against the client's name and id, case-insensitive. */
  client?: string;
  outcome?: string;
  since?: string;
  until?: string;
  /** Each must appear in the line, case-insensitive. */
  words?: readonly string[];
  /** The newest this many; default every match. */
  limit?: number;
}

/** One recorded call, as the audit tools answer it: the target already in the log's redacted words. */
export interface AuditedCall {
  time: string;
  tool: string;
  client: Caller;
  /** The profile the caller's credential got, when the line names one. */
  profile?: string;
  target: string;
  outcome: string;
  ms: number;
}

/** About this one call: what its answer may cost (the host cuts it to that; most tools need not look). */
export interface CallInfo {
  /** The answer budget in tokens: the caller's maxTokens, else server.answerBudgetTokens (Infinity when that is 0: no budget). */
  budget: number;
}

export interface ToolOutcome<O> {
  structured: O;
  /** A short human-readable summary; the structured result is the real answer. */
  text: string;
  /** Extra content blocks placed before the text (an image, for example). */
  content?: ContentBlock[];
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /** When the annotations depend on the config (an owner option that lets the tool write). */
  annotationsFor?(config: Readonly<Config>): ToolAnnotations;
  /** The settings that expose it (and the words a call to it without them is answered with). */
  grant: Grant;
  /**
   * Output members the text block renders in full ("content", "stdout.text", and with `[]` a
   * member of every item, "files[].diff"): its answer can outgrow a model's context, so the tool
   * takes `maxTokens`, and a host that shows the model both the text and structuredContent gets
   * them in the text only (main/mcp/answer/).
   */
  payload?: readonly string[];
  /** Non-secret metadata about what the call targets, for the diagnostic log. */
  target?(args: z.output<I>): Record<string, unknown>;
  run(args: z.output<I>, deps: ToolDeps, signal: AbortSignal, call: CallInfo): Promise<ToolOutcome<z.output<O>>>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return tool;
}

/** Frozen annotation presets so every tool declares its behaviour the same way. */
export const READ_ONLY: ToolAnnotations = Object.freeze({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
export const DESTRUCTIVE: ToolAnnotations = Object.freeze({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
export const IDEMPOTENT_WRITE: ToolAnnotations = Object.freeze({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });
export const OPEN_WORLD_DESTRUCTIVE: ToolAnnotations = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
});
