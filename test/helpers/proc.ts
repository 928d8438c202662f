/** Processes on this machine, for tests that check what is left running (processesWith reads Linux /proc, outside any sandbox). */
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

/** Whether a process with this pid exists (signal 0: nothing is sent). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
