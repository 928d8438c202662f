/**
 * The last N tool calls, in memory only, for the activity view. It is fed the server's
 * observer events and keeps a redacted one-line target summary (main/audit/redacted-target.ts,
 * the view the audit log records too).
 */
import { cut, summarizeTarget } from '../audit/redacted-target.js';
import type { ToolCallEvent } from '../mcp/server.js';
import type { ActivityEntry } from './bridge-api.js';

export const ACTIVITY_CAPACITY = 200;

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
