/** Processes on this machine (Linux /proc, outside any sandbox), for tests that check what is left running. */
import fs from 'node:fs';

/** Each process whose command line (arguments joined by spaces) contains `needle`. */
export function processesWith(needle: string): Array<{ pid: number; commandLine: string }> {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        return commandLine.includes(needle) ? [{ pid: Number(pid), commandLine }] : [];
      } catch {
        return [];
      }
    });
}
