/**
 * answer.more: the part of an earlier answer that was cut to fit the answer budget, read back
 * page by page from the answer store (main/mcp/answer/). Always exposed: any tool's answer may be cut.
 */
import * as z from 'zod';
import { adapterError } from '../../../adapter/contract/errors.js';
import { ANSWER_STORE_TTL_MS } from '../answer/answer-store.js';
import { fitForward, jsonEscaped } from '../answer/text-cut.js';
import { loadTokenCounter } from '../answer/token-count.js';
import { defineTool, READ_ONLY } from '../tool.js';
import { GRANT } from '../../policy/grants.js';

/** Tokens of a page's answer that are not the page: the other members and the closing line. */
const PAGE_OVERHEAD = 200;

export const answerMore = defineTool({
  name: 'answer.more',
  title: 'Read what an answer left out',
  description:
    `Reads back what an earlier answer left out to fit the answer budget: pass the id from its "[… elided …]" marker (or its elided note), ` +
    `then each nextOffset, until done. The pages put together are exactly what was left out. Kept ${ANSWER_STORE_TTL_MS / 60_000} minutes after the last read.`,
  input: z.object({
    id: z.string().regex(/^ans_[A-Za-z0-9_-]{24}$/, 'an id from an answer’s "[… elided …]" marker'),
    offset: z.number().int().min(0).optional().describe('Where to read on: the nextOffset of the previous page (default: where the cut began)'),
  }),
  output: z.object({
    id: z.string(),
    text: z.string().describe('The page: characters offset to nextOffset of what was kept'),
    offset: z.number().int(),
    nextOffset: z.number().int(),
    end: z.number().int().describe('Where the part left out ends (the answer showed what follows)'),
    length: z.number().int().describe('Characters of the whole text kept'),
    done: z.boolean().describe('True when this page reaches end'),
  }),
  payload: ['text'],
  annotations: READ_ONLY,
  grant: GRANT.always,
  target: (args) => ({ offset: args.offset ?? null }),
  async run(args, { answers }, _signal, { budget }) {
    const kept = answers.get(args.id);
    if (!kept) {
      throw adapterError(
        'NOT_FOUND',
        'answer.more',
        `nothing is kept under ${args.id}: a cut answer is kept ${ANSWER_STORE_TTL_MS / 60_000} minutes after its last read, and the oldest go first when the store is full; call the tool again`,
      );
    }
    const offset = args.offset ?? kept.start;
    if (offset > kept.end) throw adapterError('INVALID_INPUT', 'answer.more', `offset ${offset} is past the end of the part left out (${kept.end})`);
    const counter = await loadTokenCounter();
    // Sized as JSON (escapes cost more tokens than the raw text): the page fits as a text block and in structuredContent alike.
    const page = fitForward(kept.text, offset, kept.end, Math.max(1, budget - PAGE_OVERHEAD), counter, jsonEscaped);
    const nextOffset = page.to > offset || offset === kept.end ? page.to : offset + 1;
    const text = kept.text.slice(offset, nextOffset);
    const done = nextOffset >= kept.end;
    const after = done
      ? `[that was the end of the part left out: characters ${kept.start}-${kept.end}]`
      : `[characters ${offset}-${nextOffset} of ${kept.start}-${kept.end}; read on with answer.more {"id":"${args.id}","offset":${nextOffset}}]`;
    return {
      structured: { id: args.id, text, offset, nextOffset, end: kept.end, length: kept.text.length, done },
      text: `${text}${text.endsWith('\n') || !text ? '' : '\n'}${after}`,
    };
  },
});

export const answerTools = [answerMore];
