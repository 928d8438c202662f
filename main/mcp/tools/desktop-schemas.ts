/** Schemas shared by the screen, input and ui tools: rectangles, coordinate spaces, element targets. */
import * as z from 'zod';

export const rect = z.object({
  x: z.number().int().min(0),
  y: z.number().int().min(0),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
});

export const spaceSchema = z
  .object({
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    area: rect.optional().describe('The physical desktop area the space covers; omitted: the whole desktop'),
  })
  .describe('The coordinate space x and y are in: pass the `space` screen.capture returned, unchanged');

export const elementFields = {
  element: z.string().min(1).max(32).optional().describe('An element id from ui.snapshot / ui.find (with snapshotHandle): acts at its current bounds'),
  snapshotHandle: z.string().min(1).max(64).optional().describe('The snapshotHandle that element came from'),
};

export const bounds = z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int() });

/** Which display and physical pixel an action used. */
export const pointerResult = z.object({
  x: z.number().int(),
  y: z.number().int(),
  display: z.number().int(),
  element: z.object({ id: z.string(), bounds }).optional().describe('The element acted on, with its bounds at that moment'),
});
