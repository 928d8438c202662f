/**
 * A directory the server cannot change, to force a write to fail midway for real: chmod 0555
 * for an ordinary user; as root (who ignores permission bits) the immutable attribute
 * (chattr +i, ext4/xfs/btrfs). `undefined` when neither works here, with the reason.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export interface Unwritable {
  /** Makes the directory writable again (call before removing it). */
  release(): void;
}

export function makeUnwritable(dir: string): Unwritable | string {
  if (process.platform === 'win32') return 'no portable way to make a directory unwritable on Windows';
  if (process.getuid?.() !== 0) {
    fs.chmodSync(dir, 0o555);
    return { release: () => fs.chmodSync(dir, 0o755) };
  }
  try {
    execFileSync('chattr', ['+i', dir], { stdio: 'pipe' });
  } catch (error) {
    return `running as root and chattr +i failed here (${(error as Error).message.split('\n')[0]})`;
  }
  return { release: () => execFileSync('chattr', ['-i', dir], { stdio: 'pipe' }) };
}
