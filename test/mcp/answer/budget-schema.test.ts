import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { budgetOutput, NOTE_FIELD } from '../../../main/mcp/answer/budget-schema.js';

const file = z.object({ path: z.string(), patch: z.string() });
const output = z.object({
  files: z.array(file).describe('changed files'),
  diff: z.object({ files: z.array(file) }).optional(),
  stdout: z.object({ text: z.string(), offset: z.number() }),
});

describe('budgetOutput', () => {
  it('makes payload members optional, also inside every item of an array and an optional object', () => {
    const schema = budgetOutput(output, ['files[].patch', 'diff.files[].patch', 'stdout.text']);
    expect(schema.parse({ files: [{ path: 'a' }], diff: { files: [{ path: 'b' }] }, stdout: { offset: 0 } })).toEqual({
      files: [{ path: 'a' }],
      diff: { files: [{ path: 'b' }] },
      stdout: { offset: 0 },
    });
    // Only the payload member: the item's other members stay required, the array keeps its description.
    expect(() => schema.parse({ files: [{ patch: 'x' }], stdout: { offset: 0 } })).toThrow();
    expect((schema.shape.files as z.ZodType).description).toBe('changed files');
    expect(schema.shape[NOTE_FIELD]).toBeDefined();
  });

  it('refuses a payload path the schema does not have, or one that names no member of the items', () => {
    expect(() => budgetOutput(output, ['files[].diff'])).toThrow('payload member diff is not in the output schema');
    expect(() => budgetOutput(output, ['stdout[].text'])).toThrow('payload member stdout[] is not an array of objects');
    expect(() => budgetOutput(output, ['files[]'])).toThrow('names no member of its items (to leave the whole array out, name files)');
    expect(() => budgetOutput(output, ['files.patch'])).toThrow('payload member files is not an object');
  });
});
