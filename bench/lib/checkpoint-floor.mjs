/**
 * The floor under a checkpoint's first change: what the filesystem charges for keeping the
 * replaced file's bytes at all, with no journal code. Both sides run in the bench process and do
 * what fs.write does on disk (a temporary file written and synced, renamed over the file, the
 * folder synced); "keeping" also hard-links the file about to be replaced into a folder of kept
 * files first, as the journal does (adapter/fs/journal/linked-image.ts). The difference per write
 * is the least any journal keeping the bytes can add to a call on this machine: the old inode
 * and its blocks live on instead of being freed and reused (a copy costs more, see
 * bench/README.md).
 */
import fs from 'node:fs';
import path from 'node:path';

/** A runner for interleave(): writes `content` over the next file of `files`, keeping each replaced file in `kept` when given. */
export function replaceRunner(files, content, maxCalls, kept) {
  let next = 0;
  return async (durationMs) => {
    const latencies = [];
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    const deadline = started + durationMs;
    while (latencies.length < maxCalls && performance.now() < deadline && next < files.length) {
      const t0 = performance.now();
      replace(files[next++], content, kept);
      latencies.push(performance.now() - t0);
    }
    const elapsedMs = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    return { latencies, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
}

function replace(file, content, kept) {
  const temp = `${file}.tmp`;
  const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o644);
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (kept) fs.linkSync(file, path.join(kept, path.basename(file)));
  fs.renameSync(temp, file);
  const dir = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}
