/**
 * The rest of cut answers, kept for a while under opaque ids that answer.more reads them back by
 * (rule 6: an explicit handle the caller passes back, bounded). Bounded in characters across all
 * entries; the least recently read go first, and an entry unread for `ttlMs` goes at the next use.
 * No timer: an idle server holds nothing alive for it.
 */
import { randomBytes } from 'node:crypto';

/** One kept text and the part of it the answer left out: [start, end). */
export interface KeptText {
  text: string;
  start: number;
  end: number;
}

export interface AnswerStoreLimits {
  /** UTF-16 code units across all entries (2 bytes each at most in memory). */
  maxChars: number;
  ttlMs: number;
  now?: () => number;
}

/** 16 MiUnits (at most 32 MiB): the whole output of several commands at the default 1 MiB caps. */
export const ANSWER_STORE_CHARS = 16 * 1024 * 1024;
export const ANSWER_STORE_TTL_MS = 15 * 60_000;
const ID = /^ans_[A-Za-z0-9_-]{24}$/;

export class AnswerStore {
  private readonly entries = new Map<string, KeptText & { used: number }>();
  private chars = 0;
  private readonly now: () => number;

  constructor(private readonly limits: AnswerStoreLimits = { maxChars: ANSWER_STORE_CHARS, ttlMs: ANSWER_STORE_TTL_MS }) {
    this.now = limits.now ?? Date.now;
  }

  static isId(value: string): boolean {
    return ID.test(value);
  }

  /** The id it is kept under, or null when it is larger than the whole store. */
  put(kept: KeptText): string | null {
    if (kept.text.length > this.limits.maxChars) return null;
    this.expire();
    while (this.chars + kept.text.length > this.limits.maxChars) this.drop(this.entries.keys().next().value!);
    const id = `ans_${randomBytes(18).toString('base64url')}`;
    this.entries.set(id, { ...kept, used: this.now() });
    this.chars += kept.text.length;
    return id;
  }

  get(id: string): KeptText | undefined {
    this.expire();
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    // Re-inserted: the Map's order is the order of last use.
    this.entries.delete(id);
    entry.used = this.now();
    this.entries.set(id, entry);
    return entry;
  }

  /** Forgets an entry (a cut that was redone smaller). */
  delete(id: string): void {
    this.drop(id);
  }

  get size(): { entries: number; chars: number } {
    return { entries: this.entries.size, chars: this.chars };
  }

  private expire(): void {
    const stale = this.now() - this.limits.ttlMs;
    for (const [id, entry] of this.entries) {
      if (entry.used > stale) break;
      this.drop(id);
    }
  }

  private drop(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.chars -= entry.text.length;
  }
}
