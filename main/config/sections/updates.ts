/** updates.*: the tray app's own updates (the headless server never looks; `chatgpt-mcp version --check` asks when told). */
import * as z from 'zod';

export const updatesSchema = z.strictObject({
  /** Look for a new release at start and once a day, download it in the background, install it on quit. Off: nothing is fetched. */
  check: z.boolean().default(true),
});
