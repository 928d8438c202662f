/**
 * Paths the owner (or a model) spells from a home folder, as a shell reads them: `~` and `~/x`
 * (on Windows `~\x` too) from `home`. `~alex/x`, another user's home to a shell, is never
 * expanded here: each caller refuses it or keeps it as written, and says which.
 */
import nodePath from 'node:path';

/** Whether `text` is `~` or starts with `~/`. */
export function startsInHome(text: string, windows = false): boolean {
  return (windows ? /^~(?:$|[/\\])/ : /^~(?:$|\/)/).test(text);
}

/** `text` spelled from `home`, or null when it does not start with `~` or `~/`. */
export function inHome(text: string, home: string, windows = false): string | null {
  return startsInHome(text, windows) ? (windows ? nodePath.win32 : nodePath.posix).join(home, text.slice(2)) : null;
}

/** Whether `text` names a user's home folder the way a shell does (`~alex/x`); `~$x.docx`, a name alone, does not. */
export function namesUserHome(text: string): boolean {
  return /^~[^/\\]+[/\\]/.test(text);
}
