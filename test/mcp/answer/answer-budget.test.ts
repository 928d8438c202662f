import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { fitAnswer, waterFill, type FitOptions } from '../../../main/mcp/answer/answer-budget.js';
import { AnswerStore } from '../../../main/mcp/answer/answer-store.js';
import { loadTokenCounter } from '../../../main/mcp/answer/token-count.js';

// Counted by the encoding, as every answer after a server's first cut one (answer-budget.before-load.test.ts: before).
await loadTokenCounter();

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('');
const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const options = (more: Partial<FitOptions> = {}): FitOptions => ({
  budget: 1000,
  shape: 'both',
  store: new AnswerStore(),
  moreTool: 'answer_more',
  noteField: 'elided',
  ...more,
});

/** The text put back together from a cut one: head, the kept middle, tail. */
function restore(cut: string, store: AnswerStore): string {
  const id = /"id":"(ans_[A-Za-z0-9_-]{24})"/.exec(cut)![1]!;
  const kept = store.get(id)!;
  const marker = cut.indexOf('[… ');
  const head = cut.slice(0, kept.start);
  expect(marker).toBeGreaterThanOrEqual(kept.start);
  const tail = cut.slice(cut.length - (kept.text.length - kept.end));
  return head + kept.text.slice(kept.start, kept.end) + tail;
}

describe('fitAnswer', () => {
  it('returns an answer that fits as it is', async () => {
    const result: CallToolResult = { content: [{ type: 'text', text: 'small' }], structuredContent: { value: 'small' } };
    expect(await fitAnswer(result, options())).toBe(result);
  });

  it('"both": the text and structuredContent each fit alone, cut in the middle, nothing lost', async () => {
    const stdout = lines(20_000);
    const o = options();
    const fitted = await fitAnswer({ content: [{ type: 'text', text: `ran\n${stdout}` }], structuredContent: { exitCode: 0, stdout } }, o);
    const text = textOf(fitted);
    expect(countTokens(text)).toBeLessThanOrEqual(1000);
    expect(countTokens(JSON.stringify(fitted.structuredContent))).toBeLessThanOrEqual(1000);
    expect(text).toMatch(/^ran\nline 1\n/);
    expect(text).toMatch(/line 20000\n$/);
    expect(text).toMatch(
      /\[… [\d,]+ lines \/ \d+ KB elided \(lines [\d,]+-[\d,]+\) to fit the answer budget: answer_more \{"id":"ans_[\w-]{24}"\} reads them …\]/,
    );
    expect(restore(text, o.store)).toBe(`ran\n${stdout}`);
    const cutStdout = (fitted.structuredContent as { stdout: string }).stdout;
    expect(restore(cutStdout, o.store)).toBe(stdout);
    expect((fitted.structuredContent as { exitCode: number }).exitCode).toBe(0);
  });

  it('"text": the payload leaves structuredContent, and the text and the rest fit together', async () => {
    const content = lines(5000);
    const fitted = await fitAnswer(
      { content: [{ type: 'text', text: content }], structuredContent: { path: '/a', content, bytes: content.length } },
      options({ shape: 'text', payload: ['content'] }),
    );
    expect(fitted.structuredContent).toEqual({ path: '/a', bytes: content.length });
    expect(countTokens(textOf(fitted)) + countTokens(JSON.stringify(fitted.structuredContent))).toBeLessThanOrEqual(1000);
  });

  it('"text" leaves a nested payload member out too, and fits small answers without counting', async () => {
    const result: CallToolResult = { content: [{ type: 'text', text: 'out' }], structuredContent: { stdout: { text: 'out', offset: 0 } } };
    const fitted = await fitAnswer(result, options({ shape: 'text', payload: ['stdout.text', 'stderr.text'] }));
    expect(fitted.structuredContent).toEqual({ stdout: { offset: 0 } });
  });

  it('"text" leaves a member of every item out ("files[].diff"), through optional objects, keeping the rest', async () => {
    const files = [
      { path: 'a', diff: '+a' },
      { path: 'b', diff: '+b' },
    ];
    const result: CallToolResult = { content: [{ type: 'text', text: 'a\n+a\nb\n+b' }], structuredContent: { files, diff: { files }, kind: 'x' } };
    const fitted = await fitAnswer(result, options({ shape: 'text', payload: ['files[].diff', 'diff.files[].diff', 'file.content'] }));
    expect(fitted.structuredContent).toEqual({ files: [{ path: 'a' }, { path: 'b' }], diff: { files: [{ path: 'a' }, { path: 'b' }] }, kind: 'x' });
    const both = await fitAnswer(result, options({ shape: 'both', payload: ['files[].diff'] }));
    expect(both.structuredContent).toEqual(result.structuredContent);
  });

  it('shortens arrays to the items that fit, says so in the note, and keeps the others one JSON per line', async () => {
    const entries = Array.from({ length: 3000 }, (_, i) => ({ name: `file-${i}.txt`, type: 'file', size: i }));
    const o = options();
    const fitted = await fitAnswer({ content: [{ type: 'text', text: 'listing' }], structuredContent: { path: '/d', entries } }, o);
    const structured = fitted.structuredContent as { entries: unknown[]; elided: string };
    expect(countTokens(JSON.stringify(structured))).toBeLessThanOrEqual(1000);
    expect(structured.entries.length).toBeGreaterThan(10);
    expect(structured.entries).toEqual(entries.slice(0, structured.entries.length));
    expect(structured.elided).toMatch(new RegExp(`^entries: the first ${structured.entries.length} of 3000 items; .*answer_more \\{"id":"ans_`));
    const id = /"id":"(ans_[\w-]{24})"/.exec(structured.elided)![1]!;
    const rest = o.store
      .get(id)!
      .text.trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect([...structured.entries, ...rest]).toEqual(entries);
  });

  it('counts an image by its tiles and cuts the text around it', async () => {
    const png = Buffer.alloc(24);
    png.writeUInt32BE(0x89504e47, 0);
    png.write('IHDR', 12, 'ascii');
    png.writeUInt32BE(1024, 16);
    png.writeUInt32BE(1024, 20);
    const fitted = await fitAnswer(
      {
        content: [
          { type: 'image', data: png.toString('base64'), mimeType: 'image/png' },
          { type: 'text', text: lines(3000) },
        ],
      },
      options({ budget: 2000 }),
    );
    expect(fitted.content[0]!.type).toBe('image');
    expect(765 + countTokens(textOf(fitted))).toBeLessThanOrEqual(2000);
  });

  it("keeps a text block that is structuredContent's JSON valid JSON (search and fetch): cuts the structure, writes its JSON again", async () => {
    const structured = { id: '/r/a.txt', title: 'a.txt', text: lines(20_000), url: 'file:///r/a.txt' };
    for (const shape of ['both', 'text'] as const) {
      const fitted = await fitAnswer({ content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured }, options({ shape }));
      const text = textOf(fitted);
      expect(JSON.parse(text)).toEqual(fitted.structuredContent);
      expect((fitted.structuredContent as { text: string }).text).toMatch(/answer_more \{"id":"ans_/);
      expect(countTokens(text) * (shape === 'text' ? 2 : 1)).toBeLessThanOrEqual(1000);
    }
  });

  it('says when what it left out is too large to keep', async () => {
    const fitted = await fitAnswer({ content: [{ type: 'text', text: lines(20_000) }] }, options({ store: new AnswerStore({ maxChars: 1000, ttlMs: 1000 }) }));
    expect(textOf(fitted)).toMatch(/too large to keep for reading back; narrow the call/);
  });
});

describe('waterFill', () => {
  it('gives small pieces all they need and splits the rest evenly', () => {
    expect(waterFill([100, 5000, 10], 1000)).toEqual([100, 890, 10]);
    expect(waterFill([5000, 5000], 1000)).toEqual([500, 500]);
    expect(waterFill([5000, 5000], 0)).toEqual([0, 0]);
  });
});
