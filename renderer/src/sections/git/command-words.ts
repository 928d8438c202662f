/**
 * A check's command as the owner types it and as the config keeps it (an argument list, run
 * without a shell): words split on spaces, "double quotes" keep spaces in one argument.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|(\S+)/g)) words.push(match[1] ?? match[2]!);
  return words;
}

export function joinWords(words: readonly string[]): string {
  return words.map((w) => (w === '' || /[\s"]/.test(w) ? `"${w.replace(/"/g, '')}"` : w)).join(' ');
}
