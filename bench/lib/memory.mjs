/**
 * Resident memory of a server process, from /proc/<pid>/status: VmRSS now and VmHWM (the
 * high-water mark since it started), in MiB; null where /proc cannot be read.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { round1, round3 } from './stats.mjs';

export function residentMiB(pid) {
  let status;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  const rss = kib('VmRSS');
  const peak = kib('VmHWM');
  return Number.isFinite(rss) && Number.isFinite(peak) ? { rssMiB: round1(rss / 1024), peakMiB: round1(peak / 1024) } : null;
}

/** Time for a server to finish start-up work, or a burst of calls, before its memory is read. */
export const SETTLE_MS = 1000;
export const settle = () => sleep(SETTLE_MS);

/** A row comparing two memory figures, judged on RSS, for the table's custom cells (see table.mjs). */
export function memoryRow({ id, baselineName, ours, baseline, goal }) {
  const ratio = { rss: round3(ours.rssMiB / baseline.rssMiB), peak: round3(ours.peakMiB / baseline.peakMiB) };
  return {
    id,
    baselineName,
    kind: 'memory',
    judgedOn: 'rss',
    goal,
    ours,
    baseline,
    ratio,
    cells: {
      ours: `${ours.rssMiB} MiB`,
      baseline: `${baseline.rssMiB} MiB`,
      detail: `RSS ${ratio.rss.toFixed(2)}x, peak ${ratio.peak.toFixed(2)}x`,
      oursSide: `RSS ${ours.rssMiB} MiB, peak ${ours.peakMiB} MiB`,
      baselineSide: `RSS ${baseline.rssMiB} MiB, peak ${baseline.peakMiB} MiB`,
    },
  };
}
