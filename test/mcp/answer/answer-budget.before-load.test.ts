import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { fitAnswer } from '../../../main/mcp/answer/answer-budget.js';
import { AnswerStore } from '../../../main/mcp/answer/answer-store.js';
import { loadTokenCounter, tokenCounterNow, BYTE_COUNTER } from '../../../main/mcp/answer/token-count.js';

const text = Array.from({ length: 20_000 }, (_, i) => `line ${i + 1}\n`).join('');

describe('the first answer cut before the encoding has loaded', () => {
  it('is cut counting a token per byte (within the budget, never waiting), and the encoding loads after it', async () => {
    const store = new AnswerStore();
    const fitted = await fitAnswer({ content: [{ type: 'text', text }] }, { budget: 1000, shape: 'both', store, moreTool: 'answer_more' });
    const cut = fitted.content[0]!.type === 'text' ? fitted.content[0]!.text : '';
    expect(Buffer.byteLength(cut.replace(/\[… .* …\]/, ''))).toBeLessThanOrEqual(1000);
    expect(countTokens(cut)).toBeLessThanOrEqual(1000);
    expect(cut).toContain('answer_more {"id":"ans_');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await loadTokenCounter();
    expect(tokenCounterNow()).not.toBe(BYTE_COUNTER);
  });
});
