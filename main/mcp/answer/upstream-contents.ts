/**
 * What an upstream serves besides tool answers, bounded: a resource read and a prompt. Neither is
 * cut to the answer budget: an MCP App's page is a resource the host needs whole, and a prompt is
 * one the owner picked. Both are bounded in bytes (MAX_BLOCK_BYTES in all: text past it cut, with
 * a marker; a binary part that would pass it left out), and the `_meta` of the whole or of a part
 * left out when larger than MAX_META_BYTES, so an upstream cannot fill the model's context or the
 * host's memory through them. A last part says what was left out.
 */
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/server';
import { MAX_BLOCK_BYTES, MAX_META_BYTES } from './upstream-answer.js';

type Part = Record<string, unknown>;

/** Walks the parts in order, keeping what fits the bytes left; `note` says what was left out. */
class Allowance {
  private left = MAX_BLOCK_BYTES;
  readonly notes: string[] = [];

  /** A part within the allowance: its text cut to what is left, or null when binary and too large. */
  part<T extends Part>(part: T, what: string): T | null {
    const meta = part._meta;
    let kept: Part = part;
    if (meta !== undefined && JSON.stringify(meta).length > MAX_META_BYTES) {
      const { _meta: _dropped, ...rest } = part;
      kept = rest;
      this.notes.push(`the _meta of ${what} (over ${MAX_META_BYTES / 1024} KiB)`);
    }
    const text = typeof kept.text === 'string' ? kept.text : null;
    const weight = text === null ? JSON.stringify(kept).length : text.length;
    if (weight <= this.left) {
      this.left -= weight;
      return kept as T;
    }
    if (text === null) {
      this.notes.push(`${what} (${weight} bytes, over what is left of ${MAX_BLOCK_BYTES / 1024 / 1024} MiB)`);
      return null;
    }
    const shown = this.left;
    this.left = 0;
    this.notes.push(`${what} cut after ${shown} of its ${text.length} characters`);
    return { ...kept, text: `${text.slice(0, shown)}\n[cut by the gateway]` } as unknown as T;
  }

  meta(meta: unknown): unknown {
    if (meta === undefined || JSON.stringify(meta).length <= MAX_META_BYTES) return meta;
    this.notes.push(`its _meta (over ${MAX_META_BYTES / 1024} KiB)`);
    return undefined;
  }

  get note(): string | null {
    return this.notes.length ? `[the gateway left out or changed: ${this.notes.join('; ')}]` : null;
  }
}

export function boundResourceRead(result: ReadResourceResult): ReadResourceResult {
  const allowance = new Allowance();
  const contents = (result.contents ?? []).flatMap((content, i) => allowance.part(content, `part ${i + 1}`) ?? []);
  const _meta = allowance.meta(result._meta);
  const note = allowance.note;
  if (note === null) return result;
  const uri = result.contents?.[0]?.uri ?? 'about:blank';
  return { ...result, _meta: _meta as ReadResourceResult['_meta'], contents: [...contents, { uri, mimeType: 'text/plain', text: note }] };
}

export function boundPrompt(result: GetPromptResult): GetPromptResult {
  const allowance = new Allowance();
  const messages = (result.messages ?? []).flatMap((message, i) => {
    const content = allowance.part(message.content as Part, `message ${i + 1}`);
    return content ? [{ ...message, content: content as typeof message.content }] : [];
  });
  const _meta = allowance.meta(result._meta);
  const note = allowance.note;
  if (note === null) return result;
  return { ...result, _meta: _meta as GetPromptResult['_meta'], messages: [...messages, { role: 'user', content: { type: 'text', text: note } }] };
}
