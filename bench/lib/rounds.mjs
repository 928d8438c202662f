/**
 * Interleaved measurement: both sides warm up, then run in alternating rounds (ours, baseline,
 * baseline, ours, ...) so slow drift of a noisy machine lands on both sides alike. Garbage is
 * collected between rounds so one side's garbage is not billed to the other.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { compare, pool, summarizeRound } from './stats.mjs';

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc');

/**
 * `ours` and `baseline` are `(durationMs) => Promise<{latencies, elapsedMs, cpuMs}>` (cpuMs:
 * the server's CPU time during the run, or null), each bounded in time by the caller's
 * duration and in count by its own cap.
 */
export async function interleave({ ours, baseline, pairs, roundMs, warmupMs }) {
  await ours(warmupMs);
  await baseline(warmupMs);
  const sides = { ours: { rounds: [], latencies: [] }, baseline: { rounds: [], latencies: [] } };
  const runners = { ours, baseline };
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 === 0 ? ['ours', 'baseline'] : ['baseline', 'ours'];
    for (const side of order) {
      collectGarbage();
      const { latencies, elapsedMs, cpuMs } = await runners[side](roundMs);
      if (latencies.length === 0) throw new Error(`${side}: no call completed in a ${roundMs} ms round`);
      sides[side].rounds.push(summarizeRound(latencies, elapsedMs, cpuMs));
      for (const x of latencies) sides[side].latencies.push(x);
    }
  }
  const oursFigures = pool(sides.ours.rounds, sides.ours.latencies);
  const baselineFigures = pool(sides.baseline.rounds, sides.baseline.latencies);
  return { ours: oursFigures, baseline: baselineFigures, ratio: compare(oursFigures, baselineFigures) };
}
