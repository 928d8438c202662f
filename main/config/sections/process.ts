/** process.*: listing and signalling the computer's processes. */
import * as z from 'zod';

export const processSchema = z.strictObject({
  list: z.boolean().default(false),
  kill: z.boolean().default(false),
  /** List and signal only the processes of the user this server runs as. */
  ownOnly: z.boolean().default(false),
});
