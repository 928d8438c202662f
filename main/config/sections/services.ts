/** services.*: the OS services a model may look at or control. */
import * as z from 'zod';

export const servicesSchema = z.strictObject({
  allowed: z.array(z.string().regex(/^[A-Za-z0-9@._:-]{1,128}$/, 'service names use letters, digits, @ . _ : -')).default([]),
  control: z.boolean().default(false),
});
