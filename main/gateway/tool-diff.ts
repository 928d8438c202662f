/** What changed in a held tool, for the owner: its accepted and its current definition as a unified diff. */
import { createTwoFilesPatch } from 'diff';
import { readableJson, readableText } from '../readable-json.js';

export function toolDifference(name: string, accepted: unknown, now: unknown): string {
  const show = (value: unknown) => (value === undefined ? '' : readableJson(value) + '\n');
  const shown = readableText(name);
  const patch = createTwoFilesPatch(`${shown} (accepted)`, `${shown} (now)`, show(accepted), show(now), undefined, undefined, { context: 3 });
  // The library starts with a line of "=" (its "Index" separator): not part of the change.
  return patch.replace(/^=+\n/, '');
}
