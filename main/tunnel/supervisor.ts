/**
 * Runs OpenAI's tunnel client as a supervised child: `tunnel-client run` with the environment
 * from child-env.ts (key in env only, token by reference, health listener on a free loopback
 * port), its output kept redacted, restarted with exponential backoff when it exits, and
 * stopped (TERM, then KILL) on stop(). A documented fatal startup error (a malformed key, a bad
 * tunnel id) is not retried: the same settings would fail the same way. Neither is a client that
 * exits right after starting several times in a row (another program, a broken build): the
 * owner gets its last words and where to look instead of an endless restart loop.
 *
 * Operations are serialized, and every run has a generation number, so a late exit or check
 * of an old child can never change the state of a newer one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { silentLogger, type Logger } from '../log.js';
import { buildTunnelEnv, secretsOf } from './child-env.js';
import { classifyLine, explainExit } from './client-output.js';
import { endStaleClients, forgetChild, recordChild } from './stale-client.js';
import { LogTail } from './log-tail.js';
import { checkServerThroughTunnelHeaders, fetchReadyz, readHealthUrl, type ServerCheck } from './readiness.js';
import { serverReadiness } from '../mcp/readyz.js';
import { stoppedStatus, type TunnelState, type TunnelStatus } from './status.js';
import { startChild, type CommandChild } from '../../adapter/process/start-child.js';
import { TRAY_WORDS, type TunnelWords } from './wording.js';

export interface TunnelTarget {
  tunnelId: string;
  apiKey: string;
  /** The running server's loopback /mcp URL. */
  serverUrl: string;
  token: string | null;
}

export interface SupervisorTiming {
  /** First restart delay; doubles per consecutive failure up to maxBackoffMs. */
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** A run this long counts as stable: the next failure starts the backoff over. */
  stableMs: number;
  /** How often to check while not ready, and once ready. */
  checkMs: number;
  readyCheckMs: number;
  /** Starting this long without being ready is shown as degraded. */
  startGraceMs: number;
  /** TERM, then KILL after this long. */
  killAfterMs: number;
  /** A run shorter than this "exited at once"; this many of those in a row end the restarts. */
  quickExitMs: number;
  maxQuickExits: number;
}

export const DEFAULT_TIMING: SupervisorTiming = {
  initialBackoffMs: 1000,
  maxBackoffMs: 60_000,
  stableMs: 60_000,
  checkMs: 1000,
  readyCheckMs: 30_000,
  startGraceMs: 30_000,
  killAfterMs: 5000,
  quickExitMs: 10_000,
  maxQuickExits: 3,
};

export interface SupervisorOptions {
  clientPath: string;
  /** A private folder (the app folder) for the client's health-URL file. */
  runDir: string;
  /** The environment the child's inherited variables come from. */
  baseEnv: NodeJS.ProcessEnv;
  timing?: Partial<SupervisorTiming>;
  logger?: Logger;
  /** What the owner does next, in the words of where they work (default: the tray's). */
  words?: TunnelWords;
}

type Listener = (status: TunnelStatus) => void;

interface Run {
  generation: number;
  child: CommandChild;
  /** The client exited (its pid may belong to another process after this). */
  ended: boolean;
  env: Record<string, string>;
  target: TunnelTarget;
  startedAt: number;
  exited: Promise<void>;
  keyRefused: { status: number; detail: string } | null;
  stderr: string[];
}

export class TunnelSupervisor {
  private readonly timing: SupervisorTiming;
  private readonly logger: Logger;
  private readonly healthFile: string;
  private current: TunnelStatus = stoppedStatus();
  private run: Run | null = null;
  private target: TunnelTarget | null = null;
  private generation = 0;
  private failures = 0;
  private quickExits = 0;
  private restarts = 0;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;
  private checkTimer: ReturnType<typeof setTimeout> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<Listener>();
  private readonly tail: LogTail;
  /** The key and token of the latest run, kept for redacting its last lines after it ended. */
  private secrets: string[] = [];

  constructor(private readonly options: SupervisorOptions) {
    this.timing = { ...DEFAULT_TIMING, ...options.timing };
    this.logger = options.logger ?? silentLogger;
    // Per supervising process: the tray app and a `tunnel start` may share the app folder.
    this.healthFile = path.join(options.runDir, `tunnel-health-${process.pid}.url`);
    this.tail = new LogTail(
      () => this.secrets,
      (line) => this.onLine(line.stream, line.text),
    );
  }

  get status(): TunnelStatus {
    return { ...this.current, log: this.tail.list() };
  }

  /** The running child's pid, or null. */
  get pid(): number | null {
    return this.run?.child.pid ?? null;
  }

  /** True between start() and stop(), restarts included. */
  get active(): boolean {
    return this.target !== null;
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts (or restarts with new settings) the client. */
  start(target: TunnelTarget): Promise<TunnelStatus> {
    return this.serialize(async () => {
      await this.halt();
      for (const pid of await endStaleClients(this.options.runDir)) this.logger.warn('ended a tunnel client left running by an earlier run', { pid });
      this.target = target;
      this.failures = 0;
      this.quickExits = 0;
      this.restarts = 0;
      this.launch();
      return this.status;
    });
  }

  /** Stops the client and any pending restart; resolves once the child has exited. */
  stop(reason: string | null = null): Promise<TunnelStatus> {
    return this.serialize(async () => {
      const tunnelId = this.target?.tunnelId ?? null;
      this.target = null;
      await this.halt();
      this.set({ ...stoppedStatus(tunnelId, reason) });
      return this.status;
    });
  }

  private launch(): void {
    const target = this.target;
    if (!target) return;
    const generation = ++this.generation;
    fs.mkdirSync(this.options.runDir, { recursive: true, mode: 0o700 });
    fs.rmSync(this.healthFile, { force: true });
    const env = buildTunnelEnv({
      base: this.options.baseEnv,
      tunnelId: target.tunnelId,
      apiKey: target.apiKey,
      serverUrl: target.serverUrl,
      token: target.token,
      healthListenAddr: '127.0.0.1:0',
      healthUrlFile: this.healthFile,
    });
    this.secrets = secretsOf(env);
    let child: CommandChild;
    try {
      // As commands start: only stdin, stdout and stderr reach it, in a session of its own, and
      // on Linux it is killed when this process dies, even by SIGKILL (start-child.ts).
      child = startChild(this.options.clientPath, ['run'], { argv0: undefined, cwd: undefined, env, stdin: 'ignore', platform: process.platform });
    } catch (error) {
      this.fail(`Cannot start the tunnel client ${this.options.clientPath}: ${startFailure(error as NodeJS.ErrnoException)}.`);
      return;
    }
    if (child.pid) recordChild(this.options.runDir, { pid: child.pid, program: this.options.clientPath });
    const exited = new Promise<void>((resolve) =>
      child.once('close', () => {
        forgetChild(this.options.runDir);
        resolve();
      }),
    );
    const run: Run = { generation, child, ended: false, env, target, startedAt: Date.now(), exited, keyRefused: null, stderr: [] };
    this.run = run;
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.tail.write('stdout', chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.tail.write('stderr', chunk);
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (this.run !== run) return;
      this.run = null;
      this.fail(`Cannot start the tunnel client ${this.options.clientPath}: ${startFailure(error)}.`);
    });
    child.once('exit', (code, signal) => {
      run.ended = true;
      void this.exited(run, code, signal);
    });
    this.set({
      ...stoppedStatus(target.tunnelId),
      state: 'starting',
      reason: this.restarts > 0 ? `Restarted (${this.restarts}); waiting for the tunnel client to be ready.` : 'Waiting for the tunnel client to be ready.',
      pid: child.pid ?? null,
      restarts: this.restarts,
    });
    this.logger.info('tunnel client started', { pid: child.pid, tunnelId: target.tunnelId });
    this.scheduleCheck(generation, 200);
  }

  private async exited(run: Run, code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    await run.exited;
    this.tail.end();
    if (this.run !== run) return;
    this.run = null;
    this.clearCheck();
    fs.rmSync(this.healthFile, { force: true });
    if (!this.target) return;
    const words = this.options.words ?? TRAY_WORDS;
    const meaning = explainExit(code, signal, this.stderrLines(), words);
    const ran = Date.now() - run.startedAt;
    this.quickExits = ran < this.timing.quickExitMs && !signal ? this.quickExits + 1 : 0;
    const givingUp = !meaning.permanent && this.quickExits >= this.timing.maxQuickExits;
    this.logger.warn('tunnel client exited', { code, signal, restart: !meaning.permanent && !givingUp });
    if (meaning.permanent) return this.fail(meaning.reason);
    if (givingUp)
      return this.fail(
        `The tunnel client exited right after starting ${this.quickExits} times in a row; ${this.lastWords()} ${capitalize(words.checkEverything)}.`,
      );
    if (ran >= this.timing.stableMs) this.failures = 0;
    const delay = Math.min(this.timing.maxBackoffMs, this.timing.initialBackoffMs * 2 ** this.failures);
    this.failures += 1;
    this.set({
      ...this.current,
      state: 'degraded',
      reason: `${meaning.reason} Restarting in ${formatDelay(delay)}.`,
      pid: null,
      healthUrl: null,
      readiness: null,
    });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.target || this.run) return;
      this.restarts += 1;
      this.launch();
    }, delay);
  }

  /** The client's last output line, quoted, for a give-up message. */
  private lastWords(): string {
    const last = this.tail.list().at(-1)?.text.trim();
    return last ? `it last said: "${last.length > 200 ? `${last.slice(0, 199)}…` : last}".` : 'it printed nothing.';
  }

  private stderrLines(): string[] {
    return this.tail
      .list()
      .filter((line) => line.stream === 'stderr')
      .map((line) => line.text)
      .slice(-5);
  }

  private onLine(stream: 'stdout' | 'stderr', text: string): void {
    const run = this.run;
    if (!run || stream !== 'stdout') return;
    const signal = classifyLine(text);
    if (signal?.kind === 'key-refused') {
      run.keyRefused = { status: signal.status, detail: signal.detail };
      this.set({ ...this.current, state: 'error', reason: keyRefusedReason(run.keyRefused) });
    } else if (signal?.kind === 'poll-ok' && run.keyRefused) {
      run.keyRefused = null;
      this.scheduleCheck(run.generation, 0);
    }
  }

  private scheduleCheck(generation: number, delay: number): void {
    this.clearCheck();
    this.checkTimer = setTimeout(() => void this.check(generation), delay);
  }

  private clearCheck(): void {
    if (this.checkTimer) clearTimeout(this.checkTimer);
    this.checkTimer = null;
  }

  /** One look at both halves of ready, then the next look is scheduled. */
  private async check(generation: number): Promise<void> {
    const run = this.run;
    if (!run || run.generation !== generation) return;
    const healthUrl = readHealthUrl(this.healthFile);
    const readyz = healthUrl ? await fetchReadyz(healthUrl) : null;
    let server: ServerCheck | null = null;
    if (readyz?.ready) {
      // Our own /readyz first (can it answer a tool call at all?), then a real client through the tunnel's headers.
      const ours = await serverReadiness(run.target.serverUrl);
      server = ours.ready
        ? await checkServerThroughTunnelHeaders(run.target.serverUrl, run.env)
        : { ok: false, auth: false, reason: `The server is not ready to answer tool calls (${ours.status}).` };
    }
    if (this.run !== run) return;

    const young = Date.now() - run.startedAt < this.timing.startGraceMs;
    let state: TunnelState;
    let reason: string | null;
    if (run.keyRefused) [state, reason] = ['error', keyRefusedReason(run.keyRefused)];
    else if (!healthUrl) [state, reason] = [young ? 'starting' : 'degraded', 'The tunnel client has not opened its health listener yet.'];
    else if (!readyz) [state, reason] = [young ? 'starting' : 'degraded', 'The tunnel client does not answer on its health listener.'];
    else if (!readyz.ready) [state, reason] = [young ? 'starting' : 'degraded', `The tunnel client is not ready: ${readyz.body}`];
    else if (server && !server.ok) [state, reason] = [server.auth ? 'error' : 'degraded', server.reason];
    else [state, reason] = ['ready', null];

    const toolCount = server?.ok ? server.toolCount : null;
    if (state !== this.current.state || reason !== this.current.reason) {
      if (state === 'ready') this.logger.info('tunnel ready', { tunnelId: run.target.tunnelId, tools: toolCount });
      else if (state === 'error') this.logger.warn('tunnel not usable', { reason });
    }
    this.set({ ...this.current, state, reason, healthUrl, readiness: readyz?.body ?? null, toolCount, pid: run.child.pid ?? null });
    this.scheduleCheck(generation, state === 'ready' ? this.timing.readyCheckMs : this.timing.checkMs);
  }

  private fail(reason: string): void {
    this.clearCheck();
    this.logger.warn('tunnel not usable', { reason });
    this.set({ ...this.current, state: 'error', reason, pid: null, healthUrl: null, readiness: null, toolCount: null });
  }

  /** Ends the current child (TERM, then KILL) and cancels anything scheduled. */
  private async halt(): Promise<void> {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.clearCheck();
    const run = this.run;
    this.run = null;
    // A killed client cannot remove its health-URL file; a stale one must not be read later.
    if (!run) return void fs.rmSync(this.healthFile, { force: true });
    this.generation += 1;
    const { child } = run;
    if (!run.ended) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), this.timing.killAfterMs);
      await run.exited;
      clearTimeout(killer);
    } else {
      await run.exited;
    }
    fs.rmSync(this.healthFile, { force: true });
    this.logger.info('tunnel client stopped', { pid: child.pid });
  }

  private set(status: TunnelStatus): void {
    const changed = status.state !== this.current.state;
    this.current = { ...status, since: changed ? new Date().toISOString() : this.current.since, restarts: this.restarts, log: [] };
    const shown = this.status;
    for (const listener of this.listeners) {
      try {
        listener(shown);
      } catch {
        // a broken listener must not break supervision
      }
    }
  }

  private serialize<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.queue.then(operation, operation);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

function keyRefusedReason(refused: { status: number; detail: string }): string {
  return `OpenAI refused the runtime key (HTTP ${refused.status})${refused.detail ? `: ${refused.detail}` : ''}. Check that the key is right and has Tunnels Read + Use for this tunnel, then save it again.`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

function startFailure(error: NodeJS.ErrnoException): string {
  return error.code === 'ENOENT' ? 'it is missing' : error.code === 'EACCES' ? 'it is not executable' : (error.code ?? error.message);
}
