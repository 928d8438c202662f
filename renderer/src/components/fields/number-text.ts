/** The text of a number field, kept as typed: the config gets NaN until it is a number. */
import { useState } from 'react';

export const parseNumber = (text: string) => (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : Number.NaN);

/** Keeps what the person typed, even when it is not a number yet; follows changes made elsewhere. */
export function useNumberText(value: number, toText: (n: number) => string, parse: (t: string) => number) {
  const [text, setText] = useState(() => (Number.isFinite(value) ? toText(value) : ''));
  const [seen, setSeen] = useState(value);
  if (!Object.is(seen, value)) {
    // Follow outside changes (revert, load) in the same render, so the field never shows the old
    // text next to a status that already says the change is gone; the person's own typing sets
    // both the text and the value, so it is left as typed.
    setSeen(value);
    if (!Object.is(parse(text), value) && Number.isFinite(value)) setText(toText(value));
  }
  return [text, setText] as const;
}
