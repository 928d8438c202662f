/** desktop.*: the display, input, apps and browser powers. */
import * as z from 'zod';
import { absolutePath, text } from './fields.js';

export const appSchema = z.strictObject({
  path: absolutePath,
  args: z.array(z.string()).default([]),
  allowExtraArgs: z.boolean().default(false),
});

export const desktopSchema = z.strictObject({
  /** Master grant: nothing below works, and shell children lose the display, without it. */
  hostDisplayAccess: z.boolean().default(false),
  screen: z.boolean().default(false),
  input: z.boolean().default(false),
  /** window.* list and arrange the owner's windows (titles only with windowTitles). */
  windows: z.boolean().default(false),
  /** window.list shows titles: they tell what the owner is reading and writing. */
  windowTitles: z.boolean().default(false),
  /** clipboard.read: the clipboard is where passwords are copied to. */
  clipboardRead: z.boolean().default(false),
  browser: z.boolean().default(false),
  appControl: z.boolean().default(false),
  apps: z.record(z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'app names use letters, digits, . _ -'), appSchema).default({}),
  /** URL patterns browser.open may open; empty means any http(s) URL. */
  browserUrls: z.array(text).default([]),
  /** screen.capture may also write its image into a writable filesystem root (saveTo). */
  saveCaptures: z.boolean().default(false),
});
