/** `git config --list --show-scope --show-origin -z`: scope NUL origin NUL key [LF value] NUL, per entry. */
import type { ConfigScope, GitConfigEntry } from '../../contract/git.js';

const SCOPES = new Set<ConfigScope>(['system', 'global', 'local', 'worktree', 'command']);

export function parseConfigList(output: Buffer): GitConfigEntry[] {
  const fields = output.toString('utf8').split('\0');
  const entries: GitConfigEntry[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const scope = fields[i]!;
    const origin = fields[i + 1]!;
    const item = fields[i + 2]!;
    const newline = item.indexOf('\n');
    const key = newline < 0 ? item : item.slice(0, newline);
    const value = newline < 0 ? null : item.slice(newline + 1);
    entries.push({ scope: SCOPES.has(scope as ConfigScope) ? (scope as ConfigScope) : 'unknown', origin, key, value });
  }
  return entries;
}
