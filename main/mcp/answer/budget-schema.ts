/**
 * The answer budget in the tools' schemas: `maxTokens` on the tools whose answers can outgrow a
 * model's context, and in every output schema the optional `elided` note and the payload members
 * a "text"-shaped answer leaves out of structuredContent (answer-budget.ts).
 */
import * as z from 'zod';

/** The least a caller may ask for: a marker and a little on each side of it. */
export const MIN_ANSWER_TOKENS = 500;
/** How far above the owner's budget (server.answerBudgetTokens) a caller may go. */
export const CALLER_CAP_FACTOR = 4;
export const NOTE_FIELD = 'elided';

export function callerCap(budget: number): number {
  return budget * CALLER_CAP_FACTOR;
}

export function budgetInput<T extends z.ZodObject>(input: T, budget: number): z.ZodObject {
  const cap = callerCap(budget);
  return input.extend({
    maxTokens: z
      .number()
      .int()
      .min(MIN_ANSWER_TOKENS, { error: `maxTokens is at least ${MIN_ANSWER_TOKENS}` })
      .max(cap, { error: `maxTokens is at most ${cap} on this server (${CALLER_CAP_FACTOR} x server.answerBudgetTokens)` })
      .optional()
      .describe(`Answer budget in tokens (default ${budget}, at most ${cap}); what does not fit is cut, saying how to read the rest`),
  });
}

export function budgetOutput<T extends z.ZodObject>(output: T, payload: readonly string[] = []): z.ZodObject {
  let schema: z.ZodObject = output;
  for (const path of payload) schema = optionalAt(schema, path.split('.'));
  return schema.extend({
    [NOTE_FIELD]: z.string().optional().describe('Lists left out to fit the answer budget, and how to read them back'),
  });
}

/** The schema with the member at a payload path ("a.b", "files[].diff") made optional. */
function optionalAt(schema: z.ZodObject, [segment, ...rest]: string[]): z.ZodObject {
  const each = segment!.endsWith('[]');
  const key = each ? segment!.slice(0, -2) : segment!;
  const field = schema.shape[key] as z.ZodType | undefined;
  if (!field) throw new Error(`payload member ${key} is not in the output schema`);
  if (rest.length === 0 && !each) return schema.extend({ [key]: field.optional() });
  if (rest.length === 0) throw new Error(`payload member ${segment} names no member of its items (to leave the whole array out, name ${key})`);
  return schema.extend({ [key]: inside(field, each, rest, key) });
}

/** `field` (an object, an array of objects with `[]`, either maybe optional) with `rest` made optional inside. */
function inside(field: z.ZodType, each: boolean, rest: string[], key: string): z.ZodType {
  if (field instanceof z.ZodOptional) return inside(field.unwrap() as z.ZodType, each, rest, key).optional();
  if (each) {
    if (!(field instanceof z.ZodArray) || !(field.element instanceof z.ZodObject)) throw new Error(`payload member ${key}[] is not an array of objects`);
    const array = z.array(optionalAt(field.element, rest));
    return field.description ? array.describe(field.description) : array;
  }
  if (!(field instanceof z.ZodObject)) throw new Error(`payload member ${key} is not an object`);
  return optionalAt(field, rest);
}
