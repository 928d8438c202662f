/** system.*: what the server may tell about the computer beyond system.info. */
import * as z from 'zod';

export const systemSchema = z.strictObject({
  /** system.ports, system.disks, system.network, system.environment: read-only inventory. */
  inventory: z.boolean().default(false),
});
