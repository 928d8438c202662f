/**
 * The last N tool calls, in memory only, for the activity view. It is fed the server's
 * observer events and keeps a redacted one-line target summary: keys that could carry file
 * contents, command output, environment or credentials are dropped, long values are cut, and
 * any known secret is replaced, whatever a tool's own `target()` returned.
 */
import type { ToolCallEvent } from '../mcp/server.js';
import type { ActivityEntry } from './bridge-api.js';

export const ACTIVITY_CAPACITY = 200;
const MAX_VALUE_CHARS = 80;
const MAX_SUMMARY_CHARS = 160;
const SENSITIVE_KEY = /content|text|data|body|env|token|secret|password|passwd|auth|cookie|key|credential|output|stdout|stderr|stdin/i;

export class ActivityRing {
  private readonly entries: ActivityEntry[] = [];
  /** Calls still running, by tool and request id; ids repeat across requests, so FIFO queues. */
  private readonly pending = new Map<string, ActivityEntry[]>();
  private seq = 0;
  private readonly listeners = new Set<(entry: ActivityEntry) => void>();

  constructor(
    private readonly capacity = ACTIVITY_CAPACITY,
    private readonly secrets: () => readonly string[] = () => [],
    private readonly now: () => Date = () => new Date(),
  ) {}

  record(event: ToolCallEvent): void {
    const key = `${event.tool}\u0000${String(event.id)}`;
    if (event.phase === 'start') {
      const entry: ActivityEntry = {
        seq: ++this.seq,
        time: this.now().toISOString(),
        tool: shownName(event),
        target: summarizeTarget(event.target, this.secrets()),
        client: event.client ? cut(event.client) : null,
        outcome: 'running',
        durationMs: null,
      };
      this.entries.push(entry);
      if (this.entries.length > this.capacity) this.forget(this.entries.shift()!);
      const queue = this.pending.get(key) ?? [];
      queue.push(entry);
      this.pending.set(key, queue);
      this.emit(entry);
      return;
    }
    const queue = this.pending.get(key);
    const started = queue?.shift();
    if (queue && queue.length === 0) this.pending.delete(key);
    // A start that already fell out of the ring (or was never seen) still gets a line.
    const entry: ActivityEntry = started ?? {
      seq: ++this.seq,
      time: new Date(this.now().getTime() - event.durationMs).toISOString(),
      tool: shownName(event),
      target: summarizeTarget(event.target, this.secrets()),
      client: event.client ? cut(event.client) : null,
      outcome: 'running',
      durationMs: null,
    };
    entry.outcome = event.outcome;
    entry.durationMs = event.durationMs;
    if (!started) {
      this.entries.push(entry);
      if (this.entries.length > this.capacity) this.forget(this.entries.shift()!);
    }
    this.emit(entry);
  }

  /** Oldest first; copies, so callers cannot change the ring. */
  list(): ActivityEntry[] {
    return this.entries.map((entry) => ({ ...entry }));
  }

  /** Calls started and not yet ended. */
  get inFlight(): number {
    let count = 0;
    for (const queue of this.pending.values()) count += queue.length;
    return count;
  }

  subscribe(listener: (entry: ActivityEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private forget(entry: ActivityEntry): void {
    for (const [key, queue] of this.pending) {
      const index = queue.indexOf(entry);
      if (index >= 0) {
        queue.splice(index, 1);
        if (queue.length === 0) this.pending.delete(key);
      }
    }
  }

  private emit(entry: ActivityEntry): void {
    for (const listener of this.listeners) {
      try {
        listener({ ...entry });
      } catch {
        // a broken listener must not stop the others or the tool call
      }
    }
  }
}

/** The name the owner's client called the tool by (fs_read under server.toolNames "underscore"). */
function shownName(event: ToolCallEvent): string {
  return event.exposed ?? event.tool;
}

/** `path=/x/y` style summary of the safe, primitive target fields. */
export function summarizeTarget(target: Record<string, unknown>, secrets: readonly string[] = []): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(target)) {
    if (SENSITIVE_KEY.test(key)) continue;
    const shown = showValue(value);
    if (shown !== null) parts.push(`${key}=${shown}`);
  }
  let summary = parts.join(' ');
  for (const secret of secrets) if (secret) summary = summary.split(secret).join('<redacted>');
  return summary.length > MAX_SUMMARY_CHARS ? `${summary.slice(0, MAX_SUMMARY_CHARS - 1)}…` : summary;
}

function showValue(value: unknown): string | null {
  if (typeof value === 'string') return cut(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return cut(value.join(' '));
  return null;
}

/**
 * One line, no bidi or other invisible formatting characters (they can make a path read as
 * another), and long values cut in the middle so both the start and the end stay visible.
 */
function cut(text: string): string {
  const clean = text.replace(/[\r\n\t]+/g, ' ').replace(/[\u0000-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '?');
  if (clean.length <= MAX_VALUE_CHARS) return clean;
  const half = Math.floor((MAX_VALUE_CHARS - 1) / 2);
  return `${clean.slice(0, half)}…${clean.slice(clean.length - half)}`;
}
