/** chatgpt.*: ChatGPT-specific tools. */
import * as z from 'zod';

export const chatgptSchema = z.strictObject({
  /** Offer ChatGPT's \`search\` and \`fetch\` tools (needed for connectors and deep research outside developer mode), read-only over the roots. */
  searchFetch: z.boolean().default(false),
});
